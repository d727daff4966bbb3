import { describe, expect, it } from "vitest";
import { expectLinearTime } from "@/lib/testing/linear-time";
import {
  detectSecrets,
  fingerprintOf,
  keywordsIn,
  mapStrings,
  maskSecrets,
  redactSecrets,
  searchableTurnText,
  turnSearchAndSecrets,
  turnSecrets,
} from "./detect";
import { RULES } from "./rules";
import { privateKeyBlock, randomChars, secretSamples, serviceAccountJson } from "../testing/secret-samples";

describe("keywordsIn (the one-pass prefilter)", () => {
  const keywords = [...new Set(["-----end", ...RULES.flatMap((r) => r.keywords)])];
  const naive = (text: string) => new Set(keywords.filter((k) => text.toLowerCase().includes(k)));

  it("finds exactly the keywords one search per keyword finds, also where they overlap or nest", () => {
    // Keywords and their pieces run together, so keywords start inside others and run past them.
    const pieces = keywords.flatMap((k) => [k, k.toUpperCase(), k.slice(0, 2), k.slice(1), k.slice(-2), " "]);
    for (let seed = 1; seed <= 400; seed++) {
      const picks = randomChars(12, seed, "0123456789abcdefghijklmnopqrstuvwxyz").split("");
      const text = picks.map((c, i) => pieces[(parseInt(c, 36) * 97 + i * 31 + seed) % pieces.length]).join("");
      expect([...keywordsIn(text)].sort(), text).toEqual([...naive(text)].sort());
    }
  });

  it("finds a keyword that begins inside another match", () => {
    // "asia" ends in "a"; "akia" begins with it: one search from the end of "asia" would miss it.
    expect([...keywordsIn("xASIAKIAx")].sort()).toEqual(["akia", "asia"]);
    expect([...keywordsIn("the hf_tokenkey")].sort()).toEqual(["hf_", "key", "token"]);
  });
});

describe("detectSecrets", () => {
  for (const sample of secretSamples()) {
    it(`finds a ${sample.kind} (${sample.rule})`, () => {
      const text = `before\n${sample.line(sample.value)}\nafter`;
      const found = detectSecrets(text);
      expect(found).toHaveLength(1);
      const [m] = found;
      expect(m!.kind).toBe(sample.kind);
      expect(m!.rules).toContain(sample.rule);
      expect(text.slice(m!.start, m!.end)).toBe(sample.value);
      expect(m!.fingerprint).toBe(fingerprintOf(sample.value));
      expect(maskSecrets(text)).not.toContain(sample.value);
      expect(redactSecrets(text)).toContain(`[REDACTED:${sample.kind}:${m!.fingerprint}]`);
    });
  }

  it("finds every sample of a second seed too", () => {
    for (const sample of secretSamples(2)) expect(detectSecrets(sample.line(sample.value)).map((m) => m.kind)).toEqual([sample.kind]);
  });

  it("names a private key inside a service-account file as a GCP key, in its JSON-escaped form", () => {
    const { json, key } = serviceAccountJson();
    const escaped = JSON.stringify({ tool_result: json });
    for (const text of [json, escaped]) {
      const found = detectSecrets(text);
      expect(found.map((m) => m.kind)).toEqual(["gcp-service-account"]);
      expect(maskSecrets(text)).not.toContain(key.slice(40, 100));
    }
  });

  it("merges rules that match the same span into one finding", () => {
    const value = ["gh", "p_", randomChars(36, 9)].join("");
    const found = detectSecrets(`GITHUB_TOKEN=${value}`);
    expect(found).toHaveLength(1);
    expect(found[0]!.kind).toBe("github-token");
    expect(found[0]!.rules).toEqual(["github-pat", "generic-assigned-secret"]);
  });

  it("masks with the kind and the end of the fingerprint, and gives one finding per secret", () => {
    const value = ["gh", "p_", randomChars(36, 11)].join("");
    const text = `a ${value} b ${value}`;
    const found = detectSecrets(text);
    expect(found).toHaveLength(2);
    expect(maskSecrets(text)).toBe(
      `a [GitHub token …${fingerprintOf(value).slice(-4)}] b [GitHub token …${fingerprintOf(value).slice(-4)}]`,
    );
  });

  it("masks strings inside structured parts", () => {
    const value = ["AK", "IA", randomChars(16, 3, "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567")].join("");
    const parts = [{ type: "tool_call", arguments: { command: `aws configure set aws_access_key_id ${value}` }, n: 3 }];
    const masked = mapStrings(parts, maskSecrets);
    expect(JSON.stringify(masked)).not.toContain(value);
    expect(masked[0]!.n).toBe(3);
  });
});

describe("no false positives", () => {
  const clean = [
    "thread 0a1b2c3d-4e5f-4789-abcd-0123456789ab and request_id: 9f8e7d6c-5b4a-4321-8765-43210fedcba9",
    "commit 4abb91e3f0c2d8a7b6e5f4d3c2b1a0987654321f (HEAD -> main)",
    "sha256: e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
    'session_key: "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"',
    `<img src="data:image/png;base64,${randomChars(4000, 5, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")}==">`,
    '{"input_tokens": 12345, "cache_read_input_tokens": 678901, "output_tokens": 42}',
    "API_KEY=process.env.OPENAI_API_KEY",
    'password: "${DB_PASSWORD}"',
    "GITHUB_TOKEN: ${{ secrets.GITHUB_TOKEN }}",
    "DATABASE_URL=postgresql://user:password@localhost:5432/db",
    "postgres://postgres:<password>@db:5432/app",
    "const token = await getToken(request);",
    "-----BEGIN PRIVATE KEY-----\n...\n-----END PRIVATE KEY-----",
    "eyJhbGciOiJIUzI1NiJ9 is the header alone",
    "secret_key_base: <%= ENV['SECRET_KEY_BASE'] %>",
    "keyboard shortcuts: Ctrl+K opens the palette; the monkey = banana",
  ];
  for (const text of clean) it(`nothing in ${JSON.stringify(text.slice(0, 60))}`, () => expect(detectSecrets(text)).toEqual([]));
});

describe("linear time", () => {
  const MB = 1 << 20;
  /** Each adversarial text at `n` characters; the checks take it at 64 KB and 1 MB. */
  const adversarial: [string, (n: number) => string][] = [
    ["word characters", (n) => "a".repeat(n)],
    ["repeated key assignments", (n) => "key=".repeat(n / 4)],
    ["token prefixes", (n) => "ghp_".repeat(n / 4)],
    ["AKIA runs", (n) => ("AKIA" + "A".repeat(15) + " ").repeat(n / 20)],
    ["JWT-like segments", (n) => ("eyJ" + "a".repeat(20) + ".").repeat(n / 24)],
    ["JWT start without end", (n) => "eyJ" + "a".repeat(n)],
    ["headers without footers", (n) => "-----BEGIN RSA PRIVATE KEY-----\n".repeat(n / 32)],
    ["footers without headers", (n) => "-----END RSA PRIVATE KEY-----".repeat(n / 29)],
    ["database URLs without @", (n) => ("postgres://u:" + "p".repeat(60) + " ").repeat(n / 74)],
    ["slack prefixes", (n) => "xoxb-1-".repeat(n / 7)],
    ["Azure secret prefixes", (n) => "abc8Q~".repeat(n / 6)],
    ["random base64", (n) => randomChars(n, 99, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=")],
    ["assignments of long values", (n) => ("SECRET_KEY=" + "a1".repeat(200) + "\n").repeat(n / 412)],
  ];
  for (const [name, textOf] of adversarial) {
    it(`${name}: the work grows linearly`, () => {
      expectLinearTime((scale) => textOf((MB / 16) * scale), detectSecrets);
    });
  }

  it("every rule alone stays linear on its own prefix repeated", () => {
    for (const rule of RULES) {
      const prefix = rule.keywords[0]!;
      const texts = [
        (n: number) => prefix.repeat(n / prefix.length),
        (n: number) => (prefix + "A1b2".repeat(30) + "\n").repeat(n / (prefix.length + 121)),
      ];
      for (const textOf of texts) {
        const pattern = new RegExp(rule.pattern.source, rule.pattern.flags);
        const scan = (text: string) => {
          pattern.lastIndex = 0;
          while (pattern.exec(text) !== null);
        };
        expectLinearTime((scale) => textOf((MB / 16) * scale), scan, rule.id);
      }
    }
  });

  it("a private key in a megabyte of text is found", () => {
    const key = privateKeyBlock(4);
    const text = "x ".repeat(MB / 4) + key + " y".repeat(MB / 4);
    expect(detectSecrets(text).map((m) => m.kind)).toEqual(["private-key"]);
  });
});

describe("maskSecrets on cut text", () => {
  it("masks a secret cut short at the end of a title", () => {
    const value = ["gh", "p_", randomChars(36, 12)].join("");
    const title = `Push with ${value}`.slice(0, 30);
    expect(maskSecrets(title)).toBe("Push with [cut secret …]");
  });
  it("leaves prose that names a prefix alone", () =>
    expect(maskSecrets("What does the AKIA prefix mean")).toBe("What does the AKIA prefix mean"));
});

describe("turnSearchAndSecrets", () => {
  const [first, second] = secretSamples(3);
  const inContent = first!.line(first!.value);
  const inTool = second!.line(second!.value);
  const cut = ["gh", "p_", randomChars(36, 21)].join("").slice(0, 14);
  const cases: { name: string; content: string; parts: { type: string; [key: string]: unknown }[] | null }[] = [
    { name: "no secret", content: "Plain words about a build.", parts: null },
    { name: "a secret in the content, no parts", content: `Here: ${inContent}`, parts: null },
    { name: "a secret in a tool's output only", content: "Ran the tool.", parts: [{ type: "tool_result", content: inTool }] },
    {
      name: "secrets in both, the tool's text already in the content",
      content: `Before ${inContent}\n${inTool}`,
      parts: [{ type: "tool_call", name: "bash", arguments: { command: inTool } }],
    },
    { name: "a secret cut short at the end", content: `Push with ${cut}`, parts: null },
    {
      name: "a private key in a tool call",
      content: "Writing the key.",
      parts: [{ type: "tool_call", name: "write", arguments: { text: privateKeyBlock(5) } }],
    },
  ];
  it.each(cases)("finds what searchableTurnText and turnSecrets find: $name", ({ content, parts }) => {
    const stored = parts === null ? null : JSON.stringify(parts);
    expect(turnSearchAndSecrets(content, parts, stored)).toEqual({
      searchContent: searchableTurnText(content, parts),
      secrets: turnSecrets({ content, parts: stored, snapshots: [] }),
    });
  });
  it("finds some secret in the cases above (the comparison is not between two empty answers)", () => {
    const found = cases.flatMap(({ content, parts }) => turnSearchAndSecrets(content, parts, parts && JSON.stringify(parts)).secrets);
    expect(new Set(found.map((f) => f.field))).toEqual(new Set(["content", "parts"]));
  });
});
