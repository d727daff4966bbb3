// A real OpenID Connect provider for the end-to-end suite: panva's oidc-provider (certified), on
// 127.0.0.1, with one static confidential client (Threadline's auth server) and one test account,
// and login and consent pages of its own (the provider's interaction API; its development pages
// take any password and load web fonts).
// Usage: node scripts/e2e-oidc-provider.mjs <port> <redirect URI>
// The client and the account come from the environment (playwright.config.ts sets them):
// OIDC_CLIENT_ID, OIDC_CLIENT_SECRET, OIDC_ACCOUNT_EMAIL, OIDC_ACCOUNT_PASSWORD, OIDC_ACCOUNT_NAME.
import { generateKeyPairSync } from "node:crypto";
import { createServer } from "node:http";
import Provider from "oidc-provider";

const [port, redirectUri] = process.argv.slice(2);
const env = (name) => {
  const value = process.env[name];
  if (!value) throw new Error(`e2e-oidc-provider: set ${name}`);
  return value;
};
if (!port || !redirectUri) {
  console.error("usage: node scripts/e2e-oidc-provider.mjs <port> <redirect URI>");
  process.exit(2);
}
const OIDC_CLIENT = { id: env("OIDC_CLIENT_ID"), secret: env("OIDC_CLIENT_SECRET") };
/** The one person the provider knows; its subject is stable, as a real provider's is. */
const OIDC_ACCOUNT = {
  sub: "e2e-account-1",
  email: env("OIDC_ACCOUNT_EMAIL"),
  password: env("OIDC_ACCOUNT_PASSWORD"),
  name: env("OIDC_ACCOUNT_NAME"),
};
const issuer = `http://127.0.0.1:${port}`;
const signingKey = generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({ format: "jwk" });

const provider = new Provider(issuer, {
  clients: [
    {
      client_id: OIDC_CLIENT.id,
      client_secret: OIDC_CLIENT.secret,
      redirect_uris: [redirectUri],
      grant_types: ["authorization_code"],
      response_types: ["code"],
      // Better Auth sends the secret in the body unless told otherwise.
      token_endpoint_auth_method: "client_secret_post",
    },
  ],
  jwks: { keys: [{ ...signingKey, use: "sig", kid: "e2e" }] },
  cookies: { keys: ["threadline e2e oidc cookie key"] },
  claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name"] },
  features: { devInteractions: { enabled: false } },
  interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
  async findAccount(_ctx, sub) {
    if (sub !== OIDC_ACCOUNT.sub) return undefined;
    return { accountId: sub, claims: async () => ({ sub, email: OIDC_ACCOUNT.email, email_verified: true, name: OIDC_ACCOUNT.name }) };
  },
});

const escape = (text) => String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const page = (title, body) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escape(title)}</title></head><body><h1>${escape(title)}</h1>${body}</body></html>`;

function send(res, status, html) {
  res.writeHead(status, { "content-type": "text/html; charset=utf-8" });
  res.end(html);
}

async function form(req) {
  let text = "";
  for await (const chunk of req) text += chunk;
  return new URLSearchParams(text);
}

const loginPage = (uid, error) =>
  page(
    "Sign in to the test provider",
    `${error ? `<p role="alert">${escape(error)}</p>` : ""}<form method="post" action="/interaction/${escape(uid)}/login">` +
      `<label>Email <input name="email" type="email" autocomplete="username"></label> ` +
      `<label>Password <input name="password" type="password" autocomplete="current-password"></label> ` +
      `<button type="submit">Sign in</button></form>`,
  );

/** The login and consent pages (oidc-provider's interaction API). */
async function interaction(req, res, uid, step) {
  const details = await provider.interactionDetails(req, res);
  const { prompt, params } = details;
  if (req.method === "GET") {
    if (prompt.name === "login") return send(res, 200, loginPage(uid));
    const scopes = String(params.scope ?? "").split(" ");
    return send(
      res,
      200,
      page(
        "Allow access",
        `<p>${escape(params.client_id)} asks for: ${scopes.map(escape).join(", ")}</p>` +
          `<form method="post" action="/interaction/${escape(uid)}/confirm"><button type="submit">Allow</button></form>`,
      ),
    );
  }
  if (step === "login" && prompt.name === "login") {
    const body = await form(req);
    if (body.get("email") !== OIDC_ACCOUNT.email || body.get("password") !== OIDC_ACCOUNT.password)
      return send(res, 200, loginPage(uid, "Wrong email or password."));
    return provider.interactionFinished(req, res, { login: { accountId: OIDC_ACCOUNT.sub } }, { mergeWithLastSubmission: false });
  }
  if (step === "confirm" && prompt.name === "consent") {
    const grant = details.grantId
      ? await provider.Grant.find(details.grantId)
      : new provider.Grant({ accountId: details.session.accountId, clientId: params.client_id });
    const missing = prompt.details;
    if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(" "));
    if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims);
    for (const [indicator, scopes] of Object.entries(missing.missingResourceScopes ?? {}))
      grant.addResourceScope(indicator, scopes.join(" "));
    const grantId = await grant.save();
    return provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
  }
  return send(res, 400, page("Unexpected step", `<p>${escape(prompt.name)}</p>`));
}

const handle = provider.callback();
createServer((req, res) => {
  const match = /^\/interaction\/([\w-]+)(?:\/(login|confirm))?$/.exec(new URL(req.url ?? "/", issuer).pathname);
  if (!match) return handle(req, res);
  interaction(req, res, match[1], match[2]).catch((error) => {
    console.error("[oidc-provider]", error);
    if (!res.headersSent) send(res, 500, page("Error", `<p>${escape(error.message)}</p>`));
  });
}).listen(Number(port), "127.0.0.1", () => console.log(`[oidc-provider] ${issuer}`));
