import type { SecretKind } from "../secrets/rules";

/**
 * Real-looking fake secrets for tests, assembled at run time from pieces so that this repository
 * holds no string a secret scanner (or GitHub push protection) would flag.
 */
const join = (...parts: string[]) => parts.join("");

/** Deterministic pseudo-random characters from `alphabet`. */
export function randomChars(
  length: number,
  seed: number,
  alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789",
): string {
  let x = seed >>> 0 || 1;
  let out = "";
  for (let i = 0; i < length; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out += alphabet[(x >>> 0) % alphabet.length];
  }
  return out;
}

const UPPER32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
const BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const URLSAFE = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-";

function b64url(json: string): string {
  return btoa(json).replace(/=+$/, "").replace(/\+/g, "-").replace(/\//g, "_");
}

export function privateKeyBlock(seed = 7): string {
  const lines = Array.from({ length: 6 }, (_, i) => randomChars(64, seed + i, BASE64));
  return [join("-----BEGIN ", "RSA PRIVATE", " KEY-----"), ...lines, join("-----END ", "RSA PRIVATE", " KEY-----")].join("\n");
}

/** One sample per kind: the secret value and a line of text it sits in as a transcript would show it. */
export function secretSamples(seed = 1): { kind: SecretKind; rule: string; value: string; line: (v: string) => string }[] {
  const r = (n: number, s: number, alphabet?: string) => randomChars(n, seed * 1000 + s, alphabet);
  const jwt = [b64url('{"alg":"HS256","typ":"JWT"}'), b64url('{"sub":"1234567890","name":"Ada","iat":1516239022}'), r(43, 1, URLSAFE)].join(
    ".",
  );
  return [
    {
      kind: "aws-access-key",
      rule: "aws-access-token",
      value: join("AK", "IA", r(16, 2, UPPER32)),
      line: (v) => `export AWS_ACCESS_KEY_ID=${v}`,
    },
    { kind: "aws-secret-key", rule: "generic-assigned-secret", value: r(40, 3, BASE64), line: (v) => `aws_secret_access_key = ${v}` },
    {
      kind: "github-token",
      rule: "github-pat",
      value: join("gh", "p_", r(36, 4)),
      line: (v) => `git clone https://${v}@github.com/acme/app.git`,
    },
    {
      kind: "github-token",
      rule: "github-fine-grained-pat",
      value: join("github", "_pat_", r(22, 5), "_", r(59, 6)),
      line: (v) => `GH_TOKEN: "${v}"`,
    },
    { kind: "github-token", rule: "github-app-token", value: join("gh", "s_", r(36, 7)), line: (v) => `Authorization: token ${v}` },
    {
      kind: "gitlab-token",
      rule: "gitlab-pat",
      value: join("gl", "pat-", r(20, 8, URLSAFE.slice(0, 62))),
      line: (v) => `curl --header "PRIVATE-TOKEN: ${v}" https://gitlab.example.com/api/v4/projects`,
    },
    {
      kind: "slack-token",
      rule: "slack-token",
      value: join("xo", "xb-", "1234567890123-1234567890123-", r(24, 9)),
      line: (v) => `SLACK_BOT=${v}`,
    },
    {
      kind: "slack-webhook",
      rule: "slack-webhook-url",
      value: join("hooks.sl", "ack.com/services/T", r(8, 10, UPPER32), "/B", r(8, 11, UPPER32), "/", r(24, 12)),
      line: (v) => `POST https://${v}`,
    },
    {
      kind: "openai-key",
      rule: "openai-api-key",
      value: join("sk-", "proj-", r(74, 13, URLSAFE), "T3Blbk", "FJ", r(74, 14, URLSAFE)),
      line: (v) => `OPENAI_API_KEY=${v}`,
    },
    {
      kind: "anthropic-key",
      rule: "anthropic-api-key",
      value: join("sk-", "ant-api03-", r(93, 15, URLSAFE), "AA"),
      line: (v) => `const client = new Anthropic({ apiKey: "${v}" });`,
    },
    { kind: "google-api-key", rule: "gcp-api-key", value: join("AI", "za", r(35, 16, URLSAFE)), line: (v) => `GEMINI_API_KEY=${v}` },
    {
      kind: "azure-storage-key",
      rule: "azure-storage-account-key",
      value: join(r(86, 17, BASE64), "=="),
      line: (v) => `DefaultEndpointsProtocol=https;AccountName=acme;AccountKey=${v};EndpointSuffix=core.windows.net`,
    },
    {
      kind: "azure-client-secret",
      rule: "azure-ad-client-secret",
      value: join(r(3, 18), "8Q", "~", r(34, 19)),
      line: (v) => `client_secret = "${v}"`,
    },
    { kind: "private-key", rule: "private-key", value: privateKeyBlock(seed), line: (v) => `cat ~/.ssh/id_rsa\n${v}\n` },
    {
      kind: "database-password",
      rule: "database-url-password",
      value: r(20, 20),
      line: (v) => `DATABASE_URL=postgresql://app:${v}@db.internal:5432/app`,
    },
    { kind: "jwt", rule: "jwt", value: jwt, line: (v) => `Authorization: Bearer ${v}` },
    {
      kind: "npm-token",
      rule: "npm-access-token",
      value: join("np", "m_", r(36, 21)),
      line: (v) => `//registry.npmjs.org/:_authToken=${v}`,
    },
    { kind: "stripe-key", rule: "stripe-access-token", value: join("sk", "_live_", r(24, 22)), line: (v) => `stripe.api_key = "${v}"` },
    {
      kind: "huggingface-token",
      rule: "huggingface-access-token",
      value: join("h", "f_", r(34, 23, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")),
      line: (v) => `huggingface-cli login --token ${v}`,
    },
    {
      kind: "sendgrid-key",
      rule: "sendgrid-api-token",
      value: join("S", "G.", r(22, 24, URLSAFE), ".", r(43, 25, URLSAFE)),
      line: (v) => `sg = SendGridAPIClient("${v}")`,
    },
    { kind: "generic-secret", rule: "generic-assigned-secret", value: r(32, 26), line: (v) => `STRIPE_WEBHOOK_SECRET=${v}` },
    { kind: "generic-secret", rule: "generic-assigned-secret", value: join(r(6, 27), "7!", r(4, 28)), line: (v) => `"password": "${v}"` },
  ];
}

/** A GCP service-account key file as `gcloud iam service-accounts keys create` writes it. */
export function serviceAccountJson(seed = 3): { json: string; key: string } {
  const key = privateKeyBlock(seed).replace("RSA PRIVATE", "PRIVATE");
  const json = JSON.stringify(
    {
      type: "service_account",
      project_id: "acme-prod",
      private_key_id: randomChars(40, seed, "0123456789abcdef"),
      private_key: key + "\n",
      client_email: "ci@acme-prod.iam.gserviceaccount.com",
    },
    null,
    2,
  );
  return { json, key: JSON.stringify(key).slice(1, -1) };
}
