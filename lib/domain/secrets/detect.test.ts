import { describe, expect, it } from "vitest";
import { detectSecrets, fingerprintOf, keywordsIn, mapStrings, maskSecrets, redactSecrets } from "./detect";
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
  const adversarial: [string, string][] = [
    ["word characters", "a".repeat(MB)],
    ["repeated key assignments", "key=".repeat(MB / 4)],
    ["token prefixes", "ghp_".repeat(MB / 4)],
    ["AKIA runs", ("AKIA" + "A".repeat(15) + " ").repeat(MB / 20)],
    ["JWT-like segments", ("eyJ" + "a".repeat(20) + ".").repeat(MB / 24)],
    ["JWT start without end", "eyJ" + "a".repeat(MB)],
    ["headers without footers", "-----BEGIN RSA PRIVATE KEY-----\n".repeat(MB / 32)],
    ["footers without headers", "-----END RSA PRIVATE KEY-----".repeat(MB / 29)],
    ["database URLs without @", ("postgres://u:" + "p".repeat(60) + " ").repeat(MB / 74)],
    ["slack prefixes", "xoxb-1-".repeat(MB / 7)],
    ["Azure secret prefixes", "abc8Q~".repeat(MB / 6)],
    ["random base64", randomChars(MB, 99, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=")],
    ["assignments of long values", ("SECRET_KEY=" + "a1".repeat(200) + "\n").repeat(MB / 412)],
  ];
  for (const [name, text] of adversarial) {
    it(`1 MB of ${name} in well under a second`, () => {
      const t0 = performance.now();
      detectSecrets(text);
      expect(performance.now() - t0).toBeLessThan(400);
    });
  }

  it("every rule alone stays linear on its own prefix repeated", () => {
    for (const rule of RULES) {
      const prefix = rule.keywords[0]!;
      for (const text of [prefix.repeat(MB / prefix.length), (prefix + "A1b2".repeat(30) + "\n").repeat(MB / (prefix.length + 121))]) {
        const pattern = new RegExp(rule.pattern.source, rule.pattern.flags);
        const t0 = performance.now();
        while (pattern.exec(text) !== null);
        expect(performance.now() - t0, rule.id).toBeLessThan(300);
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
