import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { encryptedHtml, PBKDF2_ITERATIONS, type EncryptedPayload } from "./encrypted-html";

const PLAIN = `<!doctype html><html><head><title>Fix the flaky login test</title></head><body>
<p>Turn one: the refresh token races the retry. Ünïcödé ✓ and a key sk-ant-api03-abcdefghijklmnopqrstuvwxyz.</p></body></html>`;
const PASSWORD = "correct horse battery staple";

function payloadOf(file: string): EncryptedPayload {
  const json = /<script type="application\/json" id="payload">([^<]*)<\/script>/.exec(file)?.[1];
  if (!json) throw new Error("the file carries no payload");
  return JSON.parse(json) as EncryptedPayload;
}

/** Decrypts as the page does, with the same WebCrypto calls (Node has them too). */
async function decrypt(payload: EncryptedPayload, password: string): Promise<string> {
  const bytes = (base64: string) => Uint8Array.from(Buffer.from(base64, "base64"));
  const material = await crypto.subtle.importKey("raw", new TextEncoder().encode(password), "PBKDF2", false, ["deriveKey"]);
  const key = await crypto.subtle.deriveKey(
    { name: "PBKDF2", salt: bytes(payload.salt), iterations: payload.iterations, hash: "SHA-256" },
    material,
    { name: "AES-GCM", length: 256 },
    false,
    ["decrypt"],
  );
  const plain = await crypto.subtle.decrypt({ name: "AES-GCM", iv: bytes(payload.iv) }, key, bytes(payload.data));
  return new TextDecoder().decode(plain);
}

describe("encryptedHtml", () => {
  it("holds none of the plain document's text: no title, no turn, no secret", async () => {
    const file = await encryptedHtml(PLAIN, PASSWORD);
    for (const fragment of ["Fix the flaky login test", "refresh token", "sk-ant-api03", "Ünïcödé", PASSWORD]) {
      expect(file).not.toContain(fragment);
    }
    expect(file).toContain("Encrypted conversation");
  });

  it("decrypts with the right password to exactly the plain document, as WebCrypto in the page does", async () => {
    const payload = payloadOf(await encryptedHtml(PLAIN, PASSWORD));
    expect(payload).toMatchObject({ kdf: "PBKDF2-SHA256", cipher: "AES-256-GCM", iterations: PBKDF2_ITERATIONS });
    expect(PBKDF2_ITERATIONS).toBeGreaterThanOrEqual(600_000);
    expect(Buffer.from(payload.salt, "base64")).toHaveLength(16);
    expect(Buffer.from(payload.iv, "base64")).toHaveLength(12);
    expect(await decrypt(payload, PASSWORD)).toBe(PLAIN);
  });

  it("refuses a wrong password: the tag check fails", async () => {
    const payload = payloadOf(await encryptedHtml(PLAIN, PASSWORD));
    await expect(decrypt(payload, `${PASSWORD}!`)).rejects.toThrow();
  });

  it("draws a fresh salt and nonce each time: the same document and password never give the same bytes", async () => {
    const [first, second] = await Promise.all([encryptedHtml(PLAIN, PASSWORD), encryptedHtml(PLAIN, PASSWORD)]);
    expect(payloadOf(first).salt).not.toBe(payloadOf(second).salt);
    expect(payloadOf(first).iv).not.toBe(payloadOf(second).iv);
    expect(payloadOf(first).data).not.toBe(payloadOf(second).data);
  });

  it("lets its one script run under its own policy, and nothing else: the CSP names the script's hash", async () => {
    const file = await encryptedHtml(PLAIN, PASSWORD);
    const scripts = [...file.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((match) => match[1]!);
    expect(scripts).toHaveLength(1);
    const hash = createHash("sha256").update(scripts[0]!).digest("base64");
    const policy = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(file)?.[1];
    expect(policy).toBe(`default-src 'none'; style-src 'unsafe-inline'; img-src data:; script-src 'sha256-${hash}'`);
  });
});
