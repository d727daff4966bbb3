// Deterministic text for the fill: a Zipf-like vocabulary, code, titles, turn contents.
import { makeRng } from "../../lib/testing/rng";
import { CONFIG } from "./config";

// ---------------------------------------------------------------------------------------------
// Deterministic data generation
// ---------------------------------------------------------------------------------------------

export const rng = makeRng(CONFIG.seed);
export const int = (min: number, max: number) => min + Math.floor(rng() * (max - min + 1));
export const chance = (p: number) => rng() < p;
export function pick<T>(items: readonly T[]): T {
  return items[Math.floor(rng() * items.length)]!;
}
function gaussian(): number {
  const u = 1 - rng();
  const v = rng();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
}

/** Samples items with Zipf-like frequencies: the item at rank r has weight 1 / r^s. */
function zipfSampler(items: readonly string[], s = 1): () => string {
  const cdf = new Float64Array(items.length);
  let total = 0;
  for (let i = 0; i < items.length; i++) {
    total += 1 / Math.pow(i + 1, s);
    cdf[i] = total;
  }
  return () => {
    const u = rng() * total;
    let lo = 0;
    let hi = items.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cdf[mid]! < u) lo = mid + 1;
      else hi = mid;
    }
    return items[lo]!;
  };
}

const FUNCTION_WORDS = `the to and a of in is that it for this we on with be as you not when if are but from can so or at by
then all an should will there which one our now only also still into each after before because just more here than what why
how does do has have was were i me my your they them these those some any no yes would could might need make see use get set
run first new other same every both while until without over again about under where`.split(/\s+/);

export const CONTENT_WORDS = `function request test file value config server data user type call return state cache token session query
build update change response client handler module route database schema index thread turn model version path check log timeout
retry async promise event queue worker job api field string number object array list import export default component render hook
effect props memory leak stack trace exception null undefined fix bug issue patch commit branch merge review deploy release
pipeline container image docker pod service cluster node network socket connection pool transaction lock table column row key
constraint foreign join select insert delete refresh auth authentication authorization password hash encrypt secret permission
role scope header cookie cors proxy latency throughput benchmark profile metric alert dashboard monitor span parser lexer compiler
bundle webpack vite typescript javascript python rust golang regex unicode encoding buffer stream pipe backpressure debounce
throttle pagination cursor offset limit sort filter search fulltext tokenizer embedding vector prompt completion context window
temperature streaming backoff jitter circuit breaker fallback feature flag rollout canary rollback snapshot fixture mock stub spy
assertion coverage flaky race deadlock mutex semaphore atomic consistency replica shard partition vacuum checkpoint fsync
performance regression slow fast memory cpu disk latency benchmark allocation garbage collector heap closure scope variable
constant interface generic union literal enum class method property getter setter constructor inheritance composition pattern
factory singleton adapter observer middleware controller view template layout style theme dark light mobile responsive browser
chrome firefox safari accessibility keyboard focus screen reader label button input form validation error warning message
notification email queue scheduler cron interval retry idempotent duplicate ordering delivery webhook payload signature verify
certificate tls https domain dns cdn edge region zone latency outage incident postmortem runbook oncall escalation severity
customer tenant billing invoice subscription plan quota usage rate limiter abuse spam captcha login logout signup onboarding
profile avatar upload download storage bucket object blob archive compress gzip brotli json yaml toml csv parquet schema
contract openapi graphql grpc protobuf serialization deserialization marshal unmarshal endpoint resource collection item detail
summary report export import sync async await callback thenable generator iterator reducer selector store action dispatch
mutation subscription resolver loader prefetch hydration suspense boundary fallback server client edge runtime lambda function
cold start warm provisioned concurrency container orchestration helm chart manifest secret configmap volume mount probe readiness
liveness sidecar mesh envoy nginx apache caddy traefik haproxy balancer upstream downstream gateway terraform ansible pulumi
module provider resource state drift plan apply destroy workspace backend remote local environment variable secret vault key
rotation expiry ttl eviction lru lfu hit miss warmup invalidation stale fresh revalidate etag conditional header range chunk
multipart boundary upload resume retry progress cancel abort signal controller timeout deadline budget`.split(/\s+/);

const VERBS = `load save parse build fetch read write send handle create update delete find resolve validate normalize merge split
format render compute apply check ensure retry flush open close start stop reset refresh sync encode decode map filter reduce
collect emit dispatch register schedule`.split(/\s+/);
const NOUNS = `Session Token Config Header Request Response User Thread Turn Model Cache Queue Job Event Handler Route Schema Index
Cursor Page Result Error Record Entry Buffer Stream Payload Message Context Options Settings State Store Client Server Pool
Connection Transaction Lock Lease Snapshot Manifest Bundle Chunk Span Metric Report Invoice Tenant Plan Quota`.split(/\s+/);
const QUALIFIERS = ["", "", "", "Async", "Sync", "Batch", "Local", "Remote", "Cached", "Pending", "Next", "Last", "Default"];

/** camelCase identifiers for the long tail of the vocabulary (code, inline code). */
const IDENTIFIERS = (() => {
  const out = new Set<string>();
  for (const verb of VERBS) for (const noun of NOUNS) for (const q of QUALIFIERS.slice(3, 6)) out.add(`${verb}${q}${noun}`);
  for (const verb of VERBS) for (const noun of NOUNS) out.add(`${verb}${noun}`);
  const list = [...out];
  // A fixed shuffle so that no verb dominates the frequent end.
  for (let i = list.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    [list[i], list[j]] = [list[j]!, list[i]!];
  }
  return list.slice(0, 1800);
})();

/** Search terms put at chosen frequency ranks so that their selectivity is known in advance. */
const PLACED_WORDS: [string, number][] = [
  ["error", 14],
  ["migration", 300],
  ["kubernetes", 700],
  ["ingress", 900],
  ["idempotency", 2000],
];

const VOCABULARY = (() => {
  const placed = new Set(PLACED_WORDS.map(([w]) => w));
  const words = [...new Set([...FUNCTION_WORDS, ...CONTENT_WORDS, ...IDENTIFIERS])].filter((w) => !placed.has(w));
  for (const [w, rank] of [...PLACED_WORDS].sort((a, b) => a[1] - b[1])) words.splice(Math.min(rank, words.length), 0, w);
  return words;
})();

export const word = zipfSampler(VOCABULARY, 1.0);
const identifier = zipfSampler(IDENTIFIERS, 0.9);

export const DIRS = ["auth", "api", "db", "billing", "search", "jobs", "ui", "lib", "workers", "infra", "payments", "sync", "cli"];
const FILES = [
  "session",
  "tokens",
  "client",
  "handler",
  "router",
  "schema",
  "queue",
  "retry",
  "index",
  "config",
  "migrate",
  "cache",
  "store",
];
const EXTS = ["ts", "ts", "ts", "tsx", "py", "go", "rs", "sql"];
export const filePath = () => `src/${pick(DIRS)}/${pick(FILES)}.${pick(EXTS)}`;

const OPENERS = [
  "Why does the",
  "Can you review the",
  "How do I fix the",
  "Please analyze the",
  "What causes the",
  "Help me debug the",
  "Is it safe to change the",
  "Explain how the",
  "Compare two ways to handle the",
  "Plan the refactor of the",
  "Write tests for the",
  "Audit the",
];
export const TITLE_TEMPLATES = [
  (a: string, b: string) => `Fix ${a} in ${b}`,
  (a: string, b: string) => `Review ${a} ${b} changes`,
  (a: string, b: string) => `Investigate ${a} ${b} regression`,
  (a: string, b: string) => `Plan: ${a} to ${b}`,
  (a: string, b: string) => `${a} vs ${b}`,
  (a: string, b: string) => `Debug intermittent ${a} ${b}`,
  (a: string) => `Security audit of ${a}`,
  (a: string) => `Tests for ${a}`,
];

export function sentence(min: number, max: number, end = "."): string {
  const n = int(min, max);
  const parts: string[] = [];
  for (let i = 0; i < n; i++) {
    const r = rng();
    if (r < 0.04) parts.push(`\`${identifier()}\``);
    else if (r < 0.06) parts.push(`\`${filePath()}\``);
    else parts.push(word());
  }
  const text = parts.join(" ");
  return text.charAt(0).toUpperCase() + text.slice(1) + end;
}

const paragraph = (min: number, max: number) => Array.from({ length: int(min, max) }, () => sentence(6, 16)).join(" ");

function codeLine(): string {
  const r = rng();
  if (r < 0.35) return `const ${identifier()} = await ${identifier()}(${word()}, ${identifier()});`;
  if (r < 0.55) return `if (!${identifier()}) throw new Error("${word()} ${word()} ${word()}");`;
  if (r < 0.7) return `// ${sentence(4, 10, "")}`;
  if (r < 0.85) return `return ${identifier()}.${identifier()}({ ${word()}: ${int(1, 5000)} });`;
  return `${identifier()}(${identifier()}, "${filePath()}");`;
}

function codeBlock(): string {
  const lang = pick(["ts", "ts", "python", "sql", "bash", "go"]);
  const lines = Array.from({ length: int(3, 9) }, codeLine);
  return "```" + lang + "\n" + lines.join("\n") + "\n```";
}

/** A source file as a turn could have snapshotted it (40-160 lines, indented blocks). */
export function sourceFile(): string {
  const lines: string[] = [`// ${sentence(4, 10, "")}`, ""];
  for (let i = int(40, 160); i > 0; i--) lines.push((chance(0.6) ? "  " : "") + (chance(0.08) ? "" : codeLine()));
  return lines.join("\n") + "\n";
}

export function userContent(): string {
  const question = sentence(5, 14, "?");
  let text = `${pick(OPENERS)} ${question.charAt(0).toLowerCase()}${question.slice(1)}`;
  if (chance(0.5)) text += ` See \`${filePath()}\`.`;
  if (chance(0.7)) text += " " + paragraph(1, 3);
  if (chance(0.1)) text += "\n\n" + codeBlock();
  return text;
}

export function assistantContent(): string {
  const blocks: string[] = [];
  if (chance(0.3)) blocks.push(`## ${sentence(2, 6, "")}`);
  blocks.push(paragraph(1, 3));
  if (chance(0.5)) {
    blocks.push(Array.from({ length: int(2, 5) }, () => `- **${word()}**: ${sentence(4, 12)}`).join("\n"));
  }
  if (chance(0.3)) blocks.push(codeBlock());
  if (chance(0.4)) blocks.push(paragraph(1, 2));
  return blocks.join("\n\n");
}

export function toolContent(): string {
  const lines = Array.from({ length: int(3, 8) }, () => {
    const level = pick(["INFO", "INFO", "WARN", "ERROR", "DEBUG"]);
    return `[${level}] ${identifier()}: ${sentence(4, 10, "")}`;
  });
  return "```\n" + lines.join("\n") + "\n```";
}

export const systemContent = () => `You are a careful ${word()} assistant. ${paragraph(1, 2)}`;

export const THREAD_TOOLS = [
  "chat",
  "chat",
  "chat",
  "analyze",
  "codereview",
  "debug",
  "thinkdeep",
  "planner",
  "consensus",
  "precommit",
  "refactor",
  "testgen",
  "secaudit",
];
const MODELS: { provider: string; name: string }[] = [
  { provider: "anthropic", name: "claude-sonnet-4-5" },
  { provider: "anthropic", name: "claude-opus-4-1" },
  { provider: "openai", name: "gpt-5" },
  { provider: "openai", name: "o3" },
  { provider: "openai", name: "gpt-4o-mini" },
  { provider: "google", name: "gemini-2.5-pro" },
  { provider: "google", name: "gemini-2.5-flash" },
  { provider: "xai", name: "grok-4" },
  { provider: "openrouter", name: "deepseek-r1" },
];
const MODEL_WEIGHTS = zipfSampler(
  MODELS.map((_, i) => String(i)),
  0.8,
);
export const pickModel = () => MODELS[Number(MODEL_WEIGHTS())]!;

/** The adapter's stored text form of a DateTime: ISO 8601 with "+00:00" instead of "Z". */
export const stored = (ms: number) => new Date(ms).toISOString().replace("Z", "+00:00");

/** Turn counts per thread: skewed (many short threads, a few long ones), summing to `total`. */
export function turnCounts(threads: number, total: number, bigIndex: number, big: number): number[] {
  const counts = Array.from({ length: threads }, () => Math.min(400, Math.max(1, Math.round(Math.exp(Math.log(12) + gaussian() * 0.85)))));
  counts[bigIndex] = 0;
  const rest = total - big;
  const sum = counts.reduce((a, b) => a + b, 0);
  for (let i = 0; i < threads; i++) if (i !== bigIndex) counts[i] = Math.max(1, Math.round((counts[i]! * rest) / sum));
  let diff = rest - counts.reduce((a, b) => a + b, 0);
  while (diff !== 0) {
    const i = Math.floor(rng() * threads);
    if (i === bigIndex) continue;
    if (diff > 0 && counts[i]! < big - 1) {
      counts[i]! += 1;
      diff -= 1;
    } else if (diff < 0 && counts[i]! > 1) {
      counts[i]! -= 1;
      diff += 1;
    }
  }
  counts[bigIndex] = big;
  return counts;
}
