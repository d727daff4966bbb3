import { RULES, SECRET_KIND_LABELS, type SecretKind, type SecretRule } from "./rules";
import { turnSearchDocument } from "@/lib/domain/threads/search";

/** One secret in a text: where it is, what it is, and a short hash of it (never the value). */
export interface SecretMatch {
  start: number;
  end: number;
  kind: SecretKind;
  /** Every rule that matched this span, in rule order. */
  rules: string[];
  fingerprint: string;
}

const PRIVATE_KEY_RULE = "private-key";
const BEGIN = "-----BEGIN";
const PRIVATE_HEADER = /-----BEGIN[ A-Z0-9_-]{0,100}PRIVATE KEY(?: BLOCK)?-----/y;
const PRIVATE_FOOTER = /-----END[ A-Z0-9_-]{0,100}PRIVATE KEY(?: BLOCK)?-----/y;
/** Base64 and the line breaks between its lines, also as a JSON string writes them. */
const KEY_BODY = /^[A-Za-z0-9+/=\s]+$/;

/**
 * A 48-bit hash (two 32-bit FNV-1a variants) as 12 hex digits: enough to tell secrets apart, too short to recover one.
 * @internal exported for its tests
 */
export function fingerprintOf(value: string): string {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ value.length;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
    b ^= b >>> 15;
  }
  const hex = (n: number, digits: number) =>
    (n >>> 0)
      .toString(16)
      .padStart(8, "0")
      .slice(8 - digits);
  return hex(a, 6) + hex(b, 6);
}

/**
 * Private key blocks, found with indexOf rather than a regular expression: for each footer, the
 * last header before it (and after the previous footer), both found moving forward only, so each
 * character is looked at a bounded number of times however many headers or footers lack the other.
 * The body may be JSON-escaped (a service-account key file inside a tool result).
 */
function privateKeys(text: string): SecretMatch[] {
  const found: SecretMatch[] = [];
  let from = 0;
  let nextHeader = text.indexOf(BEGIN);
  for (;;) {
    const footerAt = text.indexOf("-----END", from);
    if (footerAt < 0) break;
    // The last header before this footer and after the previous one, moving forward only.
    let headerAt = -1;
    while (nextHeader >= 0 && nextHeader < footerAt) {
      headerAt = nextHeader;
      nextHeader = text.indexOf(BEGIN, nextHeader + BEGIN.length);
    }
    PRIVATE_FOOTER.lastIndex = footerAt;
    const footer = PRIVATE_FOOTER.exec(text);
    if (footer && headerAt >= from) {
      PRIVATE_HEADER.lastIndex = headerAt;
      const header = PRIVATE_HEADER.exec(text);
      const body = text.slice(headerAt + (header?.[0].length ?? 0), footerAt).replace(/\\+[nr]/g, "");
      if (header && body.replace(/\s+/g, "").length >= 64 && KEY_BODY.test(body)) {
        const end = footerAt + footer[0].length;
        const around = text.slice(Math.max(0, headerAt - 2000), headerAt);
        const kind: SecretKind = /private_key_id|service_account|client_email/.test(around) ? "gcp-service-account" : "private-key";
        found.push({ start: headerAt, end, kind, rules: [PRIVATE_KEY_RULE], fingerprint: "" });
      }
    }
    from = footerAt + 8;
  }
  return found;
}

/** Each rule's pattern with match indices on, made once (each use starts it at 0). */
const WITH_INDICES = new Map(
  RULES.map((rule) => [
    rule,
    new RegExp(rule.pattern.source, rule.pattern.flags.includes("d") ? rule.pattern.flags : rule.pattern.flags + "d"),
  ]),
);

function ruleMatches(rule: SecretRule, text: string, out: SecretMatch[]): void {
  const pattern = WITH_INDICES.get(rule)!;
  pattern.lastIndex = 0;
  const group = rule.group ?? 0;
  for (let m = pattern.exec(text); m !== null; m = pattern.exec(text)) {
    const value = m[group];
    const span = m.indices?.[group];
    if (value === undefined || !span) continue;
    if (rule.accept && !rule.accept(value, m)) {
      pattern.lastIndex = m.index + 1; // an inner start may still hold one
      continue;
    }
    // A value ending in padding or a full stop: the stop is punctuation, not part of the key.
    let end = span[1];
    if (rule.id === "generic-assigned-secret") while (end > span[0] && text[end - 1] === ".") end--;
    out.push({ start: span[0], end, kind: rule.kindOf ? rule.kindOf(m, text) : rule.kind, rules: [rule.id], fingerprint: "" });
  }
}

const RULE_ORDER = new Map([PRIVATE_KEY_RULE, ...RULES.map((r) => r.id)].map((id, i) => [id, i]));

/** Overlapping matches are one secret: the first rule in order (the most specific) names its kind. */
function merged(text: string, matches: SecretMatch[]): SecretMatch[] {
  matches.sort((x, y) => x.start - y.start || y.end - x.end);
  const out: SecretMatch[] = [];
  for (const m of matches) {
    const last = out.at(-1);
    if (last && m.start < last.end) {
      last.end = Math.max(last.end, m.end);
      for (const r of m.rules) if (!last.rules.includes(r)) last.rules.push(r);
      if ((RULE_ORDER.get(m.rules[0]!) ?? 99) < (RULE_ORDER.get(last.rules[0]!) ?? 99) && m.kind !== "generic-secret") last.kind = m.kind;
      continue;
    }
    out.push({ ...m, rules: [...m.rules] });
  }
  for (const m of out) {
    m.rules.sort((x, y) => (RULE_ORDER.get(x) ?? 99) - (RULE_ORDER.get(y) ?? 99));
    m.fingerprint = fingerprintOf(text.slice(m.start, m.end));
  }
  return out;
}

const PRIVATE_KEY_KEYWORD = "-----end";

/**
 * The keyword prefilter (as gitleaks has one): every rule's keywords found in one pass of one
 * regular expression over the lower-cased text, instead of one search per keyword (50 of them:
 * half the detector's time on real transcripts). After each match the search goes on from the
 * next character, so keywords overlapping it are found too; at one position the longest keyword
 * wins, and the keywords it starts with count as found with it (`key` with `keyring`, say).
 */
const KEYWORDS = [...new Set([PRIVATE_KEY_KEYWORD, ...RULES.flatMap((r) => r.keywords)])].sort((a, b) => b.length - a.length);
const KEYWORD_SCAN = new RegExp(trieAlternation(KEYWORDS), "g");
const STARTING = new Map(KEYWORDS.map((k) => [k, KEYWORDS.filter((other) => k.startsWith(other))]));

/**
 * One alternation of `words` factored by their common starts (`k(?:ey)`, `s(?:ecret|k-(?:proj-|…))`):
 * a flat alternation of 50 words makes the engine try each one at every position, the factored
 * one reads each character once or twice. Longer continuations come first, so at one position
 * the longest word matches, as with the flat list sorted longest first.
 */
function trieAlternation(words: readonly string[]): string {
  type Node = { next: Map<string, Node>; end: boolean };
  const root: Node = { next: new Map(), end: false };
  for (const word of words) {
    let node = root;
    for (const ch of word) {
      let child = node.next.get(ch);
      if (!child) node.next.set(ch, (child = { next: new Map(), end: false }));
      node = child;
    }
    node.end = true;
  }
  const escape = (ch: string) => ch.replace(/[.*+?^${}()|[\]\\/-]/g, "\\$&");
  const emit = (node: Node): string => {
    const branches = [...node.next].map(([ch, child]) => escape(ch) + emit(child));
    if (branches.length === 0) return "";
    if (node.end) return `(?:${branches.join("|")})?`; // greedy: the longer word first
    return branches.length === 1 ? branches[0]! : `(?:${branches.join("|")})`;
  };
  return emit(root);
}

/** The keywords that occur in `text` (compared lower-cased): none, and `text` holds no secret. */
export function keywordsIn(text: string): Set<string> {
  const lower = text.toLowerCase();
  const found = new Set<string>();
  KEYWORD_SCAN.lastIndex = 0;
  for (let m = KEYWORD_SCAN.exec(lower); m !== null; m = KEYWORD_SCAN.exec(lower)) {
    for (const k of STARTING.get(m[0])!) found.add(k);
    KEYWORD_SCAN.lastIndex = m.index + 1;
  }
  return found;
}

/** The secrets in `text`, in order, one per span. Linear in the text's length. */
export function detectSecrets(text: string): SecretMatch[] {
  if (text.length < 8) return [];
  const found = keywordsIn(text);
  if (found.size === 0) return [];
  const matches: SecretMatch[] = found.has(PRIVATE_KEY_KEYWORD) ? privateKeys(text) : [];
  for (const rule of RULES) {
    if (!rule.keywords.some((k) => found.has(k))) continue;
    ruleMatches(rule, text, matches);
  }
  return matches.length === 0 ? matches : merged(text, matches);
}

export function secretLabel(kind: SecretKind): string {
  return SECRET_KIND_LABELS[kind] ?? "Secret";
}

/**
 * What a page shows instead of a secret: `[GitHub token …a41f]`.
 * @internal exported for its tests
 */
export function maskFor(match: Pick<SecretMatch, "kind" | "fingerprint">): string {
  return `[${secretLabel(match.kind)} …${match.fingerprint.slice(-4)}]`;
}

/** What a redacted export or a model gets instead: `[REDACTED:github-token:3f09c2a41f]`. */
export function redactionFor(match: Pick<SecretMatch, "kind" | "fingerprint">): string {
  return `[REDACTED:${match.kind}:${match.fingerprint}]`;
}

/** `text` with each match replaced by `replace(match)`. */
function replaceSecrets(text: string, matches: readonly SecretMatch[], replace: (m: SecretMatch) => string): string {
  if (matches.length === 0) return text;
  let out = "";
  let at = 0;
  for (const m of matches) {
    out += text.slice(at, m.start) + replace(m);
    at = m.end;
  }
  return out + text.slice(at);
}

/**
 * The start of a secret at the very end of a text: what a title or a preview cut from a turn
 * (at 100 characters, say) leaves of one, too short for its rule to match whole.
 */
const CUT_SECRET =
  /(?:\b(?:gh[pousr]_|github_pat_|glpat-|gl(?:ptt|dt|rt)-|xox[abeoprs]-|xapp-|sk-ant-|sk-(?:proj|svcacct|admin)-|sk_live_|rk_live_|npm_|hf_|AIza|AKIA|ASIA|eyJ)|-----BEGIN[ A-Z0-9_-]{0,100}PRIVATE)[A-Za-z0-9_\-+/=.~]{4,300}$/;

/** `text` with every secret masked for a page, and a secret cut short at its end masked too. */
export function maskSecrets(text: string): string {
  return maskFound(text, detectSecrets(text));
}

/** maskSecrets with `text`'s secrets already found (detectSecrets' matches). */
function maskFound(text: string, matches: SecretMatch[]): string {
  const masked = replaceSecrets(text, matches, maskFor);
  // Only the last 400 characters are looked at, so the check stays constant-time.
  const tailFrom = Math.max(matches.length > 0 ? masked.length - (text.length - matches.at(-1)!.end) : 0, masked.length - 400);
  const cut = CUT_SECRET.exec(masked.slice(tailFrom));
  return cut ? masked.slice(0, tailFrom + cut.index) + "[cut secret …]" : masked;
}

/**
 * What search reads in place of a text that holds a secret: the text masked as a page shows it, so
 * no query (a word prefix grown one character at a time) can match inside a secret. Null when the
 * text holds none: search reads the text itself, and nothing is stored twice.
 */
export function searchableText(text: string | null): string | null {
  if (text === null) return null;
  const masked = maskSecrets(text);
  return masked === text ? null : masked;
}

/** `text` with every secret replaced by its redaction marker. */
export function redactSecrets(text: string): string {
  return replaceSecrets(text, detectSecrets(text), redactionFor);
}

/** Applies `transform` to every string inside a JSON-like value (tool arguments, results, parts). */
export function mapStrings<T>(value: T, transform: (s: string) => string): T {
  if (typeof value === "string") return transform(value) as T;
  if (Array.isArray(value)) return value.map((v) => mapStrings(v, transform)) as T;
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = mapStrings(v, transform);
    return out as T;
  }
  return value;
}

/** Every string inside `value` with its secrets masked: what an API answer or a page gets. */
export function maskDeep<T>(value: T): T {
  return mapStrings(value, maskSecrets);
}

/** Every string inside `value` with its secrets replaced by redaction markers: what a model or a redacted export gets. */
export function redactDeep<T>(value: T): T {
  return mapStrings(value, redactSecrets);
}

/**
 * What search reads of a turn in place of its content (Turn.searchContent): the content with what
 * its parts add (tool arguments and outputs: turnSearchDocument), secrets masked. Null when that
 * is the content itself, so nothing is stored twice.
 */
export function searchableTurnText(content: string, parts: Parameters<typeof turnSearchDocument>[1]): string | null {
  return maskedSearchText(content, parts, null);
}

/** searchableTurnText, reusing `inContent` (the content's secrets, when already found) if the document is the content. */
function maskedSearchText(
  content: string,
  parts: Parameters<typeof turnSearchDocument>[1],
  inContent: SecretMatch[] | null,
): string | null {
  const document = turnSearchDocument(content, parts);
  const masked = maskFound(document, document === content && inContent ? inContent : detectSecrets(document));
  return masked === content ? null : masked;
}

/**
 * searchableTurnText and turnSecrets of a turn without file snapshots (`storedParts`: its parts
 * as stored), with its content searched once: an import makes both of every turn, and the content
 * is most of what both search (turnSearchDocument is often the content itself).
 */
export function turnSearchAndSecrets(
  content: string,
  parts: Parameters<typeof turnSearchDocument>[1],
  storedParts: string | null,
): { searchContent: string | null; secrets: TurnSecret[] } {
  const inContent = detectSecrets(content);
  const secrets: TurnSecret[] = inContent.map((match) => ({ field: "content", match }));
  if (storedParts !== null) for (const match of detectSecrets(storedParts)) secrets.push({ field: "parts", match });
  return { searchContent: maskedSearchText(content, parts, inContent), secrets };
}

/** The texts of a turn a secret may be in, by field name: its content, its stored parts (JSON) and its file snapshots. */
export function turnTexts(turn: {
  content: string;
  parts: string | null;
  snapshots: readonly { position: number; content: string }[];
}): [string, string][] {
  const texts: [string, string][] = [["content", turn.content]];
  if (turn.parts !== null) texts.push(["parts", turn.parts]);
  for (const s of turn.snapshots) texts.push([`snapshot:${s.position}`, s.content]);
  return texts;
}

/** A secret in one of a turn's texts (turnTexts' field names). */
export type TurnSecret = { field: string; match: SecretMatch };

/** Every secret in a turn's texts: what the scan for secrets records of it (lib/secrets/scan.ts), and an import with the turn. */
export function turnSecrets(turn: Parameters<typeof turnTexts>[0]): TurnSecret[] {
  const found: TurnSecret[] = [];
  for (const [field, text] of turnTexts(turn)) for (const match of detectSecrets(text)) found.push({ field, match });
  return found;
}
