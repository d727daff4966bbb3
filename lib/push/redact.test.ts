import { describe, expect, it } from "vitest";
import { redactDocument, redactJsonLines, redactText } from "./redact";

const TOKEN = `ghp_${"A1b2C3d4E5".repeat(4).slice(0, 36)}`;
const KEY = ["-----BEGIN RSA PRIVATE KEY-----", "MIIEowIBAAKCAQEA" + "x".repeat(64), "-----END RSA PRIVATE KEY-----"].join("\n");

describe("what a push sends", () => {
  it("redacts a secret inside a JSON line's strings and leaves the other lines byte for byte", () => {
    const clean = '{"type":"user","message":{"content":"hello"},  "spaced": true}';
    const secret = JSON.stringify({ type: "assistant", message: { content: [{ type: "text", text: `use ${TOKEN}` }] } });
    const out = redactJsonLines(`${clean}\n${secret}\n`).split("\n");
    expect(out[0]).toBe(clean);
    expect(out[1]).not.toContain(TOKEN);
    expect(JSON.parse(out[1]!).message.content[0].text).toMatch(/^use \[REDACTED:github-token:[0-9a-f]+\]$/);
    expect(out[2]).toBe("");
  });

  it("redacts a private key written with JSON escapes, which the raw line does not show as one", () => {
    const line = JSON.stringify({ toolUseResult: { stdout: `cat id_rsa\n${KEY}\n` } });
    expect(line).not.toContain("\n");
    const out = redactJsonLines(line);
    expect(out).not.toContain("MIIEowIBAAKCAQEA");
    expect(JSON.parse(out).toolUseResult.stdout).toContain("[REDACTED:private-key:");
  });

  it("redacts a line that is not JSON, a document and Markdown as text", () => {
    expect(redactJsonLines(`not json ${TOKEN}`)).not.toContain(TOKEN);
    const document = JSON.stringify({ messages: [{ content: `token ${TOKEN}` }] }, null, 2);
    expect(redactDocument(document)).not.toContain(TOKEN);
    expect(JSON.parse(redactDocument(document)).messages[0].content).toContain("[REDACTED:github-token:");
    expect(redactText(`#### a prompt\n\n${KEY}\n`)).not.toContain("MIIEowIBAAKCAQEA");
  });
});
