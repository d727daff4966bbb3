/**
 * The rules that find secrets in turn text.
 *
 * Most patterns are ported from gitleaks' default configuration (github.com/gitleaks/gitleaks,
 * `config/gitleaks.toml`, MIT License, Copyright (c) 2019 Zachary Rice): the rule ids are kept
 * so a finding can be looked up there. They were rewritten for JavaScript's backtracking engine:
 * every quantifier is bounded or stops at a character the next token cannot start with, and every
 * pattern starts with a literal prefix (or a word boundary before one), so a scan is linear in
 * the text (lib/domain/secrets/detect.test.ts runs each rule on adversarial 1 MB inputs). Rules
 * marked "threadline" are our own, for what the ported set misses (Azure connection strings,
 * database URLs with a password, values assigned to secret-looking names).
 *
 * `keywords` (lower case) gate a rule: it runs only on text that contains one of them, as
 * gitleaks does, so most turns cost one `includes` per rule.
 */

export type SecretKind =
  | "aws-access-key"
  | "aws-secret-key"
  | "gcp-service-account"
  | "google-api-key"
  | "azure-storage-key"
  | "azure-client-secret"
  | "github-token"
  | "gitlab-token"
  | "slack-token"
  | "slack-webhook"
  | "openai-key"
  | "anthropic-key"
  | "private-key"
  | "database-password"
  | "jwt"
  | "npm-token"
  | "stripe-key"
  | "huggingface-token"
  | "sendgrid-key"
  | "generic-secret";

export const SECRET_KIND_LABELS: Record<SecretKind, string> = {
  "aws-access-key": "AWS access key",
  "aws-secret-key": "AWS secret key",
  "gcp-service-account": "GCP service account key",
  "google-api-key": "Google API key",
  "azure-storage-key": "Azure storage key",
  "azure-client-secret": "Azure client secret",
  "github-token": "GitHub token",
  "gitlab-token": "GitLab token",
  "slack-token": "Slack token",
  "slack-webhook": "Slack webhook",
  "openai-key": "OpenAI key",
  "anthropic-key": "Anthropic key",
  "private-key": "Private key",
  "database-password": "Database password",
  jwt: "JWT",
  "npm-token": "npm token",
  "stripe-key": "Stripe key",
  "huggingface-token": "Hugging Face token",
  "sendgrid-key": "SendGrid key",
  "generic-secret": "Secret",
};

export interface SecretRule {
  id: string;
  kind: SecretKind;
  keywords: readonly string[];
  /** Global and sticky-free; the secret is capture group `group` (0: the whole match). */
  pattern: RegExp;
  group?: number;
  /** Drops a match that is not a secret (a placeholder, a low-entropy value). */
  accept?: (value: string, match: RegExpExecArray) => boolean;
  /** A more specific kind for this match (an AWS name before a generic value). */
  kindOf?: (match: RegExpExecArray, text: string) => SecretKind;
}

/** Shannon entropy in bits per character. */
function entropy(value: string): number {
  const counts = new Map<string, number>();
  for (const ch of value) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let bits = 0;
  for (const n of counts.values()) {
    const p = n / value.length;
    bits -= p * Math.log2(p);
  }
  return bits;
}

const END = "(?![A-Za-z0-9_-])";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const PLACEHOLDER =
  /^(?:x+|\*+|\.+|-+|_+|<[^>]*>|\[[^\]]*\]|\$.*|\{.*|%s|changeme|password|passwd|pass|pwd|secret|example|redacted|your[-_].*|test|dummy|none|null|undefined)$/i;
const TEMPLATED = /\$\{|\{\{|<|%\(|\$[A-Z_]/;

/** A value assigned to a secret-looking name that looks random: letters and digits, enough entropy, not a UUID. */
function randomLooking(value: string, minLength: number, minEntropy: number): boolean {
  if (value.length < minLength || PLACEHOLDER.test(value) || TEMPLATED.test(value) || UUID.test(value)) return false;
  if (!/[0-9]/.test(value) || !/[A-Za-z]/.test(value)) return false;
  if (/^(?:[0-9a-f]{32}|[0-9a-f]{40}|[0-9a-f]{64})$/.test(value)) return false; // a content hash or a git SHA
  return entropy(value) >= minEntropy;
}

/** The header of a JWT decodes to a JSON object naming its algorithm or type. */
function jwtHeader(value: string): boolean {
  const header = value.slice(0, value.indexOf("."));
  try {
    const json = atob(header.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (header.length % 4)) % 4));
    return json.startsWith("{") && /"(?:alg|typ)"/.test(json);
  } catch {
    return false;
  }
}

export const RULES: readonly SecretRule[] = [
  {
    id: "aws-access-token",
    kind: "aws-access-key",
    keywords: ["akia", "asia", "abia", "acca", "a3t"],
    pattern: new RegExp(`\\b(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z2-7]{16}${END}`, "g"),
  },
  { id: "github-pat", kind: "github-token", keywords: ["ghp_"], pattern: new RegExp(`\\bghp_[0-9a-zA-Z]{36}${END}`, "g") },
  {
    id: "github-fine-grained-pat",
    kind: "github-token",
    keywords: ["github_pat_"],
    pattern: new RegExp(`\\bgithub_pat_[0-9a-zA-Z_]{82}${END}`, "g"),
  },
  { id: "github-oauth", kind: "github-token", keywords: ["gho_"], pattern: new RegExp(`\\bgho_[0-9a-zA-Z]{36}${END}`, "g") },
  {
    id: "github-app-token",
    kind: "github-token",
    keywords: ["ghu_", "ghs_"],
    pattern: new RegExp(`\\b(?:ghu|ghs)_[0-9a-zA-Z]{36}${END}`, "g"),
  },
  { id: "github-refresh-token", kind: "github-token", keywords: ["ghr_"], pattern: new RegExp(`\\bghr_[0-9a-zA-Z]{36}${END}`, "g") },
  {
    id: "gitlab-pat",
    kind: "gitlab-token",
    keywords: ["glpat-"],
    pattern: /\bglpat-[0-9a-zA-Z_-]{20,64}(?:\.[0-9a-z]{2}\.[0-9a-z]{9})?(?![A-Za-z0-9_-])/g,
  },
  { id: "gitlab-ptt", kind: "gitlab-token", keywords: ["glptt-"], pattern: new RegExp(`\\bglptt-[0-9a-f]{40}${END}`, "g") },
  { id: "gitlab-deploy-token", kind: "gitlab-token", keywords: ["gldt-"], pattern: new RegExp(`\\bgldt-[0-9a-zA-Z_-]{20}${END}`, "g") },
  {
    id: "gitlab-runner-authentication-token",
    kind: "gitlab-token",
    keywords: ["glrt-"],
    pattern: new RegExp(`\\bglrt-[0-9a-zA-Z_-]{20}${END}`, "g"),
  },
  {
    id: "slack-token",
    kind: "slack-token",
    keywords: ["xoxb-", "xoxp-", "xoxa-", "xoxe-", "xoxo-", "xoxs-", "xoxr-"],
    pattern: /\bxox[abeoprs]-(?:[0-9]{1,13}-){1,3}[0-9a-zA-Z-]{8,200}/g,
  },
  { id: "slack-app-token", kind: "slack-token", keywords: ["xapp-"], pattern: /\bxapp-\d-[A-Z0-9]{1,30}-\d{1,30}-[a-z0-9]{20,200}/gi },
  {
    id: "slack-webhook-url",
    kind: "slack-webhook",
    keywords: ["hooks.slack.com"],
    pattern: /hooks\.slack\.com\/(?:services|workflows|triggers)\/[A-Za-z0-9+/]{43,56}/g,
  },
  {
    id: "openai-api-key",
    kind: "openai-key",
    keywords: ["t3blbkfj"],
    pattern:
      /\bsk-(?:(?:proj|svcacct|admin)-(?:[A-Za-z0-9_-]{74}|[A-Za-z0-9_-]{58})T3BlbkFJ(?:[A-Za-z0-9_-]{74}|[A-Za-z0-9_-]{58})|[a-zA-Z0-9]{20}T3BlbkFJ[a-zA-Z0-9]{20})(?![A-Za-z0-9_-])/g,
  },
  // threadline: OpenAI project keys without the marker gitleaks requires (issued since 2024).
  {
    id: "openai-project-key",
    kind: "openai-key",
    keywords: ["sk-proj-", "sk-svcacct-", "sk-admin-"],
    pattern: new RegExp(`\\bsk-(?:proj|svcacct|admin)-[A-Za-z0-9_-]{40,200}${END}`, "g"),
  },
  {
    id: "anthropic-api-key",
    kind: "anthropic-key",
    keywords: ["sk-ant-api03"],
    pattern: new RegExp(`\\bsk-ant-api03-[a-zA-Z0-9_-]{93}AA${END}`, "g"),
  },
  {
    id: "anthropic-admin-api-key",
    kind: "anthropic-key",
    keywords: ["sk-ant-admin01"],
    pattern: new RegExp(`\\bsk-ant-admin01-[a-zA-Z0-9_-]{93}AA${END}`, "g"),
  },
  { id: "gcp-api-key", kind: "google-api-key", keywords: ["aiza"], pattern: new RegExp(`\\bAIza[0-9A-Za-z_-]{35}${END}`, "g") },
  { id: "npm-access-token", kind: "npm-token", keywords: ["npm_"], pattern: new RegExp(`\\bnpm_[a-zA-Z0-9]{36}${END}`, "g") },
  {
    id: "stripe-access-token",
    kind: "stripe-key",
    keywords: ["sk_live_", "sk_test_", "rk_live_", "rk_test_"],
    pattern: new RegExp(`\\b(?:sk|rk)_(?:test|live|prod)_[a-zA-Z0-9]{10,99}${END}`, "g"),
  },
  { id: "huggingface-access-token", kind: "huggingface-token", keywords: ["hf_"], pattern: new RegExp(`\\bhf_[a-zA-Z]{34}${END}`, "g") },
  {
    id: "sendgrid-api-token",
    kind: "sendgrid-key",
    keywords: ["sg."],
    pattern: new RegExp(`\\bSG\\.[a-zA-Z0-9=_-]{22}\\.[a-zA-Z0-9=_-]{43}${END}`, "g"),
  },
  {
    id: "azure-ad-client-secret",
    kind: "azure-client-secret",
    keywords: ["q~"],
    pattern: /(?:^|[\s'"`=:(])([a-zA-Z0-9_~.]{3}\dQ~[a-zA-Z0-9_~.-]{31,34})(?![A-Za-z0-9_~.-])/g,
    group: 1,
  },
  // threadline: the key of an Azure storage connection string (or of any AccountKey= pair).
  {
    id: "azure-storage-account-key",
    kind: "azure-storage-key",
    keywords: ["accountkey="],
    pattern: /AccountKey=([A-Za-z0-9+/]{86}==)/gi,
    group: 1,
  },
  {
    id: "jwt",
    kind: "jwt",
    keywords: ["eyj"],
    pattern: /\beyJ[a-zA-Z0-9_-]{14,4000}\.eyJ[a-zA-Z0-9_-]{14,8000}\.[a-zA-Z0-9_-]{10,2000}={0,2}/g,
    accept: jwtHeader,
  },
  // threadline: the password of a database URL (user:password@host); placeholders are skipped.
  {
    id: "database-url-password",
    kind: "database-password",
    keywords: ["://"],
    pattern:
      /\b(?:postgres(?:ql)?|mysql|mariadb|mongodb(?:\+srv)?|rediss?|amqps?|mssql|sqlserver|cockroachdb|clickhouse)(?:\+[a-z0-9]{1,20})?:\/\/[^\s:/@'"`<>]{1,128}:([^\s@/'"`<>]{1,256})@[^\s'"`]/gi,
    group: 1,
    accept: (value) => !PLACEHOLDER.test(value) && !TEMPLATED.test(value) && !/^\*+$/.test(value),
  },
  // threadline: a random-looking value assigned to a name like *_KEY, *_TOKEN, *_SECRET, PASSWORD.
  {
    id: "generic-assigned-secret",
    kind: "generic-secret",
    keywords: ["key", "token", "secret", "passw", "pwd", "credential"],
    pattern:
      /(key|token|secret|passw(?:or)?d|pwd|credentials?)([A-Za-z0-9_.-]{0,20})(?:\\?["'])?[ \t]{0,4}(?::=|=>|=|:)[ \t]{0,4}(?:\\?["'`])?([A-Za-z0-9+/_\-.~!@#%^*]{8,256}={0,2})/gi,
    group: 3,
    accept: (value, match) => {
      const word = match[1]!.toLowerCase();
      const password = word.startsWith("pass") || word === "pwd";
      const clean = value.replace(/[.=]+$/, "");
      return password ? randomLooking(clean, 8, 2.8) : randomLooking(clean, 16, 3.5);
    },
    kindOf: (match, text) =>
      /aws[A-Za-z0-9_.-]{0,20}$/i.test(text.slice(Math.max(0, match.index - 24), match.index)) && /secret/i.test(match[0])
        ? "aws-secret-key"
        : "generic-secret",
  },
];
