import "server-only";
import os from "node:os";
import path from "node:path";
import { z } from "zod";
import { resolveDatabaseUrl, sqliteFilePath } from "@/lib/env/database-url";
import { parseFileRoots } from "@/lib/files/file-source";
import { parseTrustedProxies, type AddressRange } from "@/lib/domain/requests/client-address";
import { parseSourcesSetting, type SourcesSetting } from "@/lib/domain/sources/sources";
import { allowedHostsFor, parseAllowedOrigins, type RequestGuardConfig } from "@/lib/domain/requests/request-guard";
import { importLimitsOf, type ImportLimits } from "@/lib/importers/long-lines";
import {
  maxBodyBytesRule,
  maxDocumentMbRule,
  maxLineMbRule,
  maxTurnsRule,
  parseNumericSetting,
  timeoutHoursRule,
  type ParsedSetting,
} from "@/lib/domain/settings";

/** Text as given; unset and empty are the same. */
const text = z
  .string()
  .optional()
  .transform((value) => value || undefined);
/** Text without surrounding spaces; unset, empty and blank are the same. */
const trimmed = z
  .string()
  .optional()
  .transform((value) => value?.trim() || undefined);

/**
 * A numeric limit. An invalid value falls back to the default with a warning that names the
 * variable (as PAL does), so a typo never stops the server.
 */
const numeric = (rule: Parameters<typeof parseNumericSetting>[1]) =>
  z
    .string()
    .optional()
    .transform((raw) => parseNumericSetting(raw, rule));

/** A switch: 1/true/yes/on or 0/false/no/off, any case; unset or empty is off. Anything else is refused, not guessed. */
const onOff = (why: string) =>
  trimmed.transform((value, context) => {
    const word = value?.toLowerCase();
    if (word === undefined || ["0", "false", "no", "off"].includes(word)) return false;
    if (["1", "true", "yes", "on"].includes(word)) return true;
    context.addIssue({ code: "custom", message: `${JSON.stringify(value)} is neither on nor off (1/true/yes/on, 0/false/no/off): ${why}` });
    return z.NEVER;
  });

/**
 * Every setting the server reads from its environment. lib/env is the one reader of
 * process.env (next.config.mjs's THREADLINE_COMPRESS aside: Next.js reads it at start).
 */
const envSchema = z.object({
  /** The database: a SQLite file: URL (./data/threadline.db by default) or a postgres:// URL. */
  DATABASE_URL: trimmed,
  CONVERSATION_TIMEOUT_HOURS: numeric(timeoutHoursRule),
  MAX_CONVERSATION_TURNS: numeric(maxTurnsRule),
  THREADLINE_MAX_BODY_BYTES: numeric(maxBodyBytesRule),
  THREADLINE_MAX_LINE_MB: numeric(maxLineMbRule),
  THREADLINE_MAX_DOCUMENT_MB: numeric(maxDocumentMbRule),
  /** Folders budget previews may read files from; empty by default. */
  THREADLINE_FILE_ROOTS: text,
  /** The folders whose transcripts are imported as they appear; see lib/sources. */
  THREADLINE_SOURCES: text,
  /** Where the files laptops push are kept (lib/imports/push-receive.ts); beside a SQLite database by default. */
  THREADLINE_PUSH_DIR: trimmed,
  THREADLINE_SOURCES_POLL: onOff("it says whether followed folders are polled (a stat-only walk every 2 s) instead of watched"),
  /**
   * Next.js sets PORT to the port it listens on before the first request, so the proxy, which
   * reads the settings on its first request, sees the real one; HOST is what `npm start` binds.
   */
  PORT: trimmed.transform((value) => value ?? "3000"),
  HOST: text,
  THREADLINE_ALLOWED_HOSTS: text,
  THREADLINE_ALLOWED_ORIGINS: text,
  THREADLINE_AUTH: trimmed.transform((value, context) => {
    const word = value?.toLowerCase();
    if (word === undefined || word === "off") return false;
    if (word === "on") return true;
    context.addIssue({ code: "custom", message: `${JSON.stringify(value)} is neither on nor off: it says whether people must sign in` });
    return z.NEVER;
  }),
  /** The first admin, created when no user exists yet. */
  THREADLINE_ADMIN_EMAIL: trimmed,
  /** As given (spaces may be part of it), but not an empty one. */
  THREADLINE_ADMIN_PASSWORD: text,
  /** The address people use: its scheme decides Secure cookies. */
  THREADLINE_URL: trimmed,
  /** Otherwise one is generated and kept in the database. */
  THREADLINE_AUTH_SECRET: trimmed,
  THREADLINE_OIDC_ISSUER: trimmed,
  THREADLINE_OIDC_CLIENT_ID: trimmed,
  THREADLINE_OIDC_CLIENT_SECRET: trimmed,
  THREADLINE_OIDC_NAME: trimmed,
  /**
   * scripts/server.mjs sets it for the app it hosts: every request then carries the connection's
   * address in x-threadline-peer, written by the server itself.
   */
  THREADLINE_PEER_HEADER: onOff("it says whether requests carry the connection's address in x-threadline-peer"),
  /**
   * The proxies whose X-Forwarded-For is believed; none by default. A malformed entry is refused:
   * guessing what was meant would trust too much or too little.
   */
  THREADLINE_TRUSTED_PROXIES: text.transform((value, context) => {
    const trusted = parseTrustedProxies(value);
    if (trusted.ok) return trusted.ranges;
    context.addIssue({
      code: "custom",
      message: `${JSON.stringify(trusted.entry)} is not an IP address or CIDR range (such as 10.0.0.5, 10.0.0.0/24 or fd00::/8)`,
    });
    return z.NEVER;
  }),
  // The LLM providers and default models (lib/llm/config.ts, where Settings may override them).
  OPENAI_API_KEY: trimmed,
  OPENAI_BASE_URL: trimmed,
  ANTHROPIC_API_KEY: trimmed,
  ANTHROPIC_BASE_URL: trimmed,
  GOOGLE_GENERATIVE_AI_API_KEY: trimmed,
  OPENAI_COMPATIBLE_BASE_URL: trimmed,
  OPENAI_COMPATIBLE_API_KEY: trimmed,
  THREADLINE_COMPACTION_MODEL: trimmed,
  THREADLINE_CHAT_MODEL: trimmed,
});

const OIDC_VARIABLES = ["THREADLINE_OIDC_ISSUER", "THREADLINE_OIDC_CLIENT_ID", "THREADLINE_OIDC_CLIENT_SECRET"] as const;

/** Single sign-on needs all three of its variables: one or two set is a mistake, said at start. */
const checkedEnvSchema = envSchema.superRefine((env, context) => {
  const set = OIDC_VARIABLES.filter((name) => env[name] !== undefined);
  if (set.length === 0 || set.length === OIDC_VARIABLES.length) return;
  for (const name of OIDC_VARIABLES.filter((name) => env[name] === undefined)) {
    context.addIssue({
      code: "custom",
      path: [name],
      message: `required when ${set.join(" and ")} ${set.length === 1 ? "is" : "are"} set (single sign-on)`,
    });
  }
});

export type Env = z.output<typeof envSchema>;

/**
 * The environment, checked: read afresh on each call (tests set process.env between cases; the
 * LLM settings are read at each call). A setting that cannot be used throws, naming the variable
 * and saying why.
 */
export function readEnv(): Env {
  const parsed = checkedEnvSchema.safeParse(process.env);
  if (parsed.success) return parsed.data;
  throw new Error(parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`).join("; "));
}

/** The app's server settings, from readEnv() once per process; invalid numbers fall back to their defaults with one logged warning each. */
export type ServerSettings = {
  databaseUrl: string;
  timeoutHours: ParsedSetting;
  maxTurns: ParsedSetting;
  maxBodyBytes: ParsedSetting;
  /** Folders budget previews may read files from (THREADLINE_FILE_ROOTS); empty by default. */
  fileRoots: string[];
  /** Which Host and Origin headers the server answers (proxy.ts); see lib/domain/requests/request-guard.ts. */
  requestGuard: RequestGuardConfig;
  /** The folders whose transcripts are imported as they appear (THREADLINE_SOURCES); see lib/sources. */
  sources: SourcesSetting;
  /** THREADLINE_SOURCES_POLL=1: followed folders are polled (a stat-only walk every 2 s) instead of watched. */
  sourcesPoll: boolean;
  /**
   * The absolute folder the copies of pushed files live in (THREADLINE_PUSH_DIR): by default
   * `pushed` beside a SQLite database, or ./data/pushed with PostgreSQL.
   */
  pushDir: string;
  /** Sign-in (THREADLINE_AUTH=on); see lib/auth. */
  auth: AuthSettings;
  /** What an import reads at most: a line (THREADLINE_MAX_LINE_MB), a file read whole (THREADLINE_MAX_DOCUMENT_MB). */
  importLimits: ImportLimits;
  /** How a request's client address is worked out (lib/domain/requests/client-address.ts). */
  clientAddress: { peerHeader: boolean; trustedProxies: AddressRange[] };
};

export type AuthSettings = {
  enabled: boolean;
  /** The first admin, created when no user exists yet (THREADLINE_ADMIN_EMAIL/PASSWORD). */
  admin: { email: string; password: string } | null;
  /** The address people use (THREADLINE_URL), when set: its scheme decides Secure cookies. */
  publicUrl: string | null;
  /** THREADLINE_AUTH_SECRET, when set; otherwise one is generated and kept in the database. */
  secret: string | null;
  /** Single sign-on with an OpenID Connect provider (THREADLINE_OIDC_*), when configured. */
  oidc: { issuer: string; clientId: string; clientSecret: string; name: string } | null;
};

let cached: ServerSettings | undefined;

export function serverSettings(): ServerSettings {
  if (cached) return cached;
  const env = readEnv();
  const databaseUrl = resolveDatabaseUrl(env.DATABASE_URL);
  const settings: ServerSettings = {
    databaseUrl,
    timeoutHours: env.CONVERSATION_TIMEOUT_HOURS,
    maxTurns: env.MAX_CONVERSATION_TURNS,
    maxBodyBytes: env.THREADLINE_MAX_BODY_BYTES,
    importLimits: importLimitsOf(env.THREADLINE_MAX_LINE_MB.value, env.THREADLINE_MAX_DOCUMENT_MB.value),
    fileRoots: parseFileRoots(env.THREADLINE_FILE_ROOTS),
    requestGuard: requestGuardSettings(env),
    // os.homedir() reads HOME, so tests (and the e2e server) can point it at a folder of their own.
    sources: parseSourcesSetting(env.THREADLINE_SOURCES, { home: os.homedir(), postgres: !databaseUrl.startsWith("file:") }),
    sourcesPoll: env.THREADLINE_SOURCES_POLL,
    pushDir: path.resolve(
      env.THREADLINE_PUSH_DIR ??
        (databaseUrl.startsWith("file:") ? path.join(path.dirname(sqliteFilePath(databaseUrl)), "pushed") : "data/pushed"),
    ),
    auth: authSettings(env),
    clientAddress: { peerHeader: env.THREADLINE_PEER_HEADER, trustedProxies: env.THREADLINE_TRUSTED_PROXIES },
  };
  for (const warning of settings.sources.warnings) console.warn(`[threadline] ${warning}`);
  const numbers = [env.CONVERSATION_TIMEOUT_HOURS, env.MAX_CONVERSATION_TURNS, env.THREADLINE_MAX_BODY_BYTES];
  for (const setting of [...numbers, env.THREADLINE_MAX_LINE_MB, env.THREADLINE_MAX_DOCUMENT_MB]) {
    if (setting.warning) console.warn(`[threadline] ${setting.warning}`);
  }
  cached = settings;
  return settings;
}

function requestGuardSettings(env: Env): RequestGuardConfig {
  const origins = parseAllowedOrigins(env.THREADLINE_ALLOWED_ORIGINS);
  for (const entry of origins.invalid) {
    console.warn(
      `[threadline] THREADLINE_ALLOWED_ORIGINS: ignored ${JSON.stringify(entry)}: not an origin such as https://threadline.example.com`,
    );
  }
  return {
    port: env.PORT,
    allowedHosts: allowedHostsFor({ port: env.PORT, bindHost: env.HOST, extraHosts: env.THREADLINE_ALLOWED_HOSTS }),
    allowedOrigins: origins.origins,
  };
}

function authSettings(env: Env): AuthSettings {
  const email = env.THREADLINE_ADMIN_EMAIL;
  const password = env.THREADLINE_ADMIN_PASSWORD;
  const [issuer, clientId, clientSecret] = OIDC_VARIABLES.map((name) => env[name]);
  return {
    enabled: env.THREADLINE_AUTH,
    admin: email && password ? { email: email.toLowerCase(), password } : null,
    publicUrl: env.THREADLINE_URL?.replace(/\/+$/, "") || null,
    secret: env.THREADLINE_AUTH_SECRET ?? null,
    oidc:
      issuer && clientId && clientSecret
        ? { issuer: issuer.replace(/\/+$/, ""), clientId, clientSecret, name: env.THREADLINE_OIDC_NAME ?? "single sign-on" }
        : null,
  };
}

/**
 * At server start (instrumentation.ts): settings that cannot be used stop the process, saying
 * why. Next.js would log a throw from its start-up hook and serve anyway, every request failing.
 */
export function checkServerSettings(): void {
  try {
    serverSettings();
  } catch (error) {
    console.error(`[threadline] not starting: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}

/**
 * Tests change env between cases; production reads it once.
 * @internal for tests
 */
export function resetServerSettingsForTests(): void {
  cached = undefined;
}
