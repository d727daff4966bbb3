import "server-only";
import { createCipheriv, createHash, pbkdf2, randomBytes } from "node:crypto";
import { promisify } from "node:util";

/**
 * A readable export, encrypted: one HTML file whose bytes hold no turn text and no title, only a
 * password form and the ciphertext. The page derives the key with WebCrypto and, with the right
 * password, replaces itself with the plain export, so it reads exactly as the plain file does.
 *
 * PBKDF2-SHA256 at 600,000 iterations (OWASP's figure for it) and AES-256-GCM: both are in every
 * browser's WebCrypto, so the file opens from disk with no library and no network.
 *
 * @internal exported for its tests
 */
export const PBKDF2_ITERATIONS = 600_000;
const SALT_BYTES = 16;
const IV_BYTES = 12;

/**
 * What the page needs to decrypt, as the JSON the file carries (base64 fields).
 *
 * @internal exported for its tests
 */
export type EncryptedPayload = {
  v: 1;
  kdf: "PBKDF2-SHA256";
  iterations: number;
  cipher: "AES-256-GCM";
  salt: string;
  iv: string;
  data: string;
};

const derive = promisify(pbkdf2);

/** `plainHtml` is a whole document (readableExport's HTML); `password` is used once and kept nowhere. */
export async function encryptedHtml(plainHtml: string, password: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const iv = randomBytes(IV_BYTES);
  // Off the event loop: the 600,000 rounds run on libuv's thread pool.
  const key = await derive(password, salt, PBKDF2_ITERATIONS, 32, "sha256");
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  // WebCrypto's AES-GCM takes the tag after the ciphertext.
  const data = Buffer.concat([cipher.update(plainHtml, "utf8"), cipher.final(), cipher.getAuthTag()]);
  const payload: EncryptedPayload = {
    v: 1,
    kdf: "PBKDF2-SHA256",
    iterations: PBKDF2_ITERATIONS,
    cipher: "AES-256-GCM",
    salt: salt.toString("base64"),
    iv: iv.toString("base64"),
    data: data.toString("base64"),
  };
  return page(payload);
}

/**
 * Runs in the reader's browser. On the right password the page becomes the plain export
 * (document.write of the decrypted document); on a wrong one AES-GCM's tag check fails, the
 * form says so and keeps the focus for another try.
 */
const UNLOCK_SCRIPT = `(() => {
  const payload = JSON.parse(document.getElementById("payload").textContent);
  const bytes = (base64) => Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
  const form = document.getElementById("unlock");
  const input = document.getElementById("password");
  const button = form.querySelector("button");
  const status = document.getElementById("status");
  if (!window.crypto || !window.crypto.subtle) {
    status.textContent = "This browser cannot decrypt the file here (WebCrypto is missing). Open it in a current browser.";
    button.disabled = true;
    return;
  }
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    button.disabled = true;
    status.className = "";
    status.textContent = "Opening…";
    try {
      const material = await crypto.subtle.importKey("raw", new TextEncoder().encode(input.value), "PBKDF2", false, ["deriveKey"]);
      const key = await crypto.subtle.deriveKey(
        { name: "PBKDF2", salt: bytes(payload.salt), iterations: payload.iterations, hash: "SHA-256" },
        material,
        { name: "AES-GCM", length: 256 },
        false,
        ["decrypt"],
      );
      const plain = await crypto.subtle.decrypt({ name: "AES-GCM", iv: bytes(payload.iv) }, key, bytes(payload.data));
      const html = new TextDecoder().decode(plain);
      document.open();
      document.write(html);
      document.close();
    } catch {
      status.className = "error";
      status.textContent = "That password does not open this file. Try again.";
      button.disabled = false;
      input.select();
      input.focus();
    }
  });
})();`;

/** The CSP names the one script by its hash: nothing else may run, and nothing may be fetched. */
const SCRIPT_HASH = createHash("sha256").update(UNLOCK_SCRIPT).digest("base64");

const STYLE = `
:root { color-scheme: light dark; --bg: #fafafa; --fg: #18181b; --muted: #52525b; --card: #ffffff; --border: #d4d4d8; --accent: #4338ca; --error: #b91c1c; }
@media (prefers-color-scheme: dark) { :root { --bg: #18181b; --fg: #f4f4f5; --muted: #a1a1aa; --card: #27272a; --border: #3f3f46; --accent: #a5b4fc; --error: #fca5a5; } }
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); color: var(--fg); font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
main { max-width: 32rem; margin: 10vh auto; padding: 1.5rem; background: var(--card); border: 1px solid var(--border); border-radius: 0.75rem; }
h1 { margin: 0 0 0.5rem; font-size: 1.25rem; }
p { color: var(--muted); }
label { display: block; font-weight: 600; margin-bottom: 0.25rem; }
.row { display: flex; gap: 0.5rem; flex-wrap: wrap; }
input { flex: 1 1 12rem; min-width: 0; padding: 0.5rem; font: inherit; color: inherit; background: var(--bg); border: 1px solid var(--border); border-radius: 0.375rem; }
button { padding: 0.5rem 1rem; font: inherit; font-weight: 600; color: #fff; background: #4338ca; border: 0; border-radius: 0.375rem; cursor: pointer; }
button:disabled { opacity: 0.6; cursor: progress; }
:focus-visible { outline: 2px solid var(--accent); outline-offset: 2px; }
#status { min-height: 1.5rem; margin: 0.75rem 0 0; }
#status.error { color: var(--error); font-weight: 600; }
`;

function page(payload: EncryptedPayload): string {
  // Base64 and fixed keys only: nothing in the JSON can close the script element.
  const json = JSON.stringify(payload);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:; script-src 'sha256-${SCRIPT_HASH}'">
<meta name="robots" content="noindex, nofollow">
<meta name="referrer" content="no-referrer">
<title>Encrypted conversation — Threadline</title>
<style>${STYLE}</style>
</head>
<body>
<main>
<h1>Encrypted conversation</h1>
<p>This file holds a conversation exported from Threadline, encrypted with a password. Enter the password you were given to read it. Nothing is sent anywhere: the file opens on this device.</p>
<form id="unlock">
<label for="password">Password</label>
<div class="row">
<input id="password" name="password" type="password" autocomplete="current-password" required autofocus>
<button type="submit">Open</button>
</div>
<p id="status" role="status" aria-live="polite"></p>
</form>
<noscript><p>Opening this file needs JavaScript, which this browser has turned off.</p></noscript>
</main>
<script type="application/json" id="payload">${json}</script>
<script>${UNLOCK_SCRIPT}</script>
</body>
</html>
`;
}
