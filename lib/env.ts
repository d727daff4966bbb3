import "server-only";
import os from "node:os";
import { resolveDatabaseUrl } from "@/lib/db/database-url";
import { parseFileRoots } from "@/lib/files/file-source";
import { parseTrustedProxies, type AddressRange } from "@/lib/domain/client-address";
import { parseSourcesSetting, type SourcesSetting } from "@/lib/domain/sources";
import { allowedHostsFor, parseAllowedOrigins, type RequestGuardConfig } from "@/lib/domain/request-guard";
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

/**
 * The app's server settings, read from process.env once per process; invalid numbers fall back to
 * their defaults with one logged warning each. The one other reader is lib/llm/config.ts, which
 * reads the LLM variables (providers' keys, default models) at each call.
 */
export type ServerSettings = {
  databaseUrl: string;
  timeoutHours: ParsedSetting;
  maxTurns: ParsedSetting;
  maxBodyBytes: ParsedSetting;
  /** Folders budget previews may read files from (THREADLINE_FILE_ROOTS); empty by default. */
  fileRoots: string[];
  /** Which Host and Origin headers the server answers (proxy.ts); see lib/domain/request-guard.ts. */
  requestGuard: RequestGuardConfig;
  /** The folders whose transcripts are imported as they appear (THREADLINE_SOURCES); see lib/sources. */
  sources: SourcesSetting;
  /** THREADLINE_SOURCES_POLL=1: followed folders are polled (a stat-only walk every 2 s) instead of watched. */
  sourcesPoll: boolean;
  /** Sign-in (THREADLINE_AUTH=on); see lib/auth. */
  auth: AuthSettings;
  /** What an import reads at most: a line (THREADLINE_MAX_LINE_MB), a file read whole (THREADLINE_MAX_DOCUMENT_MB). */
  importLimits: ImportLimits;
  /** How a request's client address is worked out (lib/domain/client-address.ts). */
  clientAddress: ClientAddressSettings;
};

type ClientAddressSettings = {
  /**
   * THREADLINE_PEER_HEADER=1, which scripts/server.mjs sets for the app it hosts: every request
   * then carries the connection's address in x-threadline-peer, written by the server itself.
   */
  peerHeader: boolean;
  /** THREADLINE_TRUSTED_PROXIES: the proxies whose X-Forwarded-For is believed; none by default. */
  trustedProxies: AddressRange[];
};

type OidcSettings = { issuer: string; clientId: string; clientSecret: string; name: string };

export type AuthSettings = {
  enabled: boolean;
  /** The first admin, created when no user exists yet (THREADLINE_ADMIN_EMAIL/PASSWORD). */
  admin: { email: string; password: string } | null;
  /** The address people use (THREADLINE_URL), when set: its scheme decides Secure cookies. */
  publicUrl: string | null;
  /** THREADLINE_AUTH_SECRET, when set; otherwise one is generated and kept in the database. */
  secret: string | null;
  /** Single sign-on with an OpenID Connect provider (THREADLINE_OIDC_*), when configured. */
  oidc: OidcSettings | null;
};

let cached: ServerSettings | undefined;

export function serverSettings(): ServerSettings {
  if (cached) return cached;
  const databaseUrl = resolveDatabaseUrl(process.env.DATABASE_URL);
  const maxLineMb = parseNumericSetting(process.env.THREADLINE_MAX_LINE_MB, maxLineMbRule);
  const maxDocumentMb = parseNumericSetting(process.env.THREADLINE_MAX_DOCUMENT_MB, maxDocumentMbRule);
  const settings: ServerSettings = {
    databaseUrl,
    timeoutHours: parseNumericSetting(process.env.CONVERSATION_TIMEOUT_HOURS, timeoutHoursRule),
    maxTurns: parseNumericSetting(process.env.MAX_CONVERSATION_TURNS, maxTurnsRule),
    maxBodyBytes: parseNumericSetting(process.env.THREADLINE_MAX_BODY_BYTES, maxBodyBytesRule),
    importLimits: importLimitsOf(maxLineMb.value, maxDocumentMb.value),
    fileRoots: parseFileRoots(process.env.THREADLINE_FILE_ROOTS),
    requestGuard: requestGuardSettings(),
    // os.homedir() reads HOME, so tests (and the e2e server) can point it at a folder of their own.
    sources: parseSourcesSetting(process.env.THREADLINE_SOURCES, { home: os.homedir(), postgres: !databaseUrl.startsWith("file:") }),
    sourcesPoll: /^(1|true|yes|on)$/i.test(process.env.THREADLINE_SOURCES_POLL?.trim() ?? ""),
    auth: authSettings(),
    clientAddress: clientAddressSettings(),
  };
  for (const warning of settings.sources.warnings) console.warn(`[threadline] ${warning}`);
  for (const setting of [settings.timeoutHours, settings.maxTurns, settings.maxBodyBytes, maxLineMb, maxDocumentMb]) {
    if (setting.warning) console.warn(`[threadline] ${setting.warning}`);
  }
  cached = settings;
  return settings;
}

/**
 * Next.js sets PORT to the port it listens on before the first request, so the proxy, which reads
 * the settings on its first request, sees the real one; HOST is what `npm start` binds.
 */
function requestGuardSettings(): RequestGuardConfig {
  const port = process.env.PORT?.trim() || "3000";
  const origins = parseAllowedOrigins(process.env.THREADLINE_ALLOWED_ORIGINS);
  for (const entry of origins.invalid) {
    console.warn(
      `[threadline] THREADLINE_ALLOWED_ORIGINS: ignored ${JSON.stringify(entry)}: not an origin such as https://threadline.example.com`,
    );
  }
  return {
    port,
    allowedHosts: allowedHostsFor({ port, bindHost: process.env.HOST, extraHosts: process.env.THREADLINE_ALLOWED_HOSTS }),
    allowedOrigins: origins.origins,
  };
}

function authSettings(): AuthSettings {
  const env = (name: string) => process.env[name]?.trim() || "";
  const email = env("THREADLINE_ADMIN_EMAIL");
  // The password as given (spaces may be part of it), but not an empty one.
  const password = process.env.THREADLINE_ADMIN_PASSWORD ?? "";
  const [issuer, clientId, clientSecret] = [
    env("THREADLINE_OIDC_ISSUER"),
    env("THREADLINE_OIDC_CLIENT_ID"),
    env("THREADLINE_OIDC_CLIENT_SECRET"),
  ];
  if ((issuer || clientId || clientSecret) && !(issuer && clientId && clientSecret)) {
    console.warn(
      "[threadline] single sign-on is off: set all of THREADLINE_OIDC_ISSUER, THREADLINE_OIDC_CLIENT_ID and THREADLINE_OIDC_CLIENT_SECRET",
    );
  }
  return {
    enabled: env("THREADLINE_AUTH").toLowerCase() === "on",
    admin: email && password ? { email: email.toLowerCase(), password } : null,
    publicUrl: env("THREADLINE_URL").replace(/\/+$/, "") || null,
    secret: env("THREADLINE_AUTH_SECRET") || null,
    oidc:
      issuer && clientId && clientSecret
        ? { issuer: issuer.replace(/\/+$/, ""), clientId, clientSecret, name: env("THREADLINE_OIDC_NAME") || "single sign-on" }
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
 * A malformed THREADLINE_TRUSTED_PROXIES entry stops the server (instrumentation.ts reads the
 * settings at start): guessing what was meant would trust too much or too little.
 */
function clientAddressSettings(): ClientAddressSettings {
  const trusted = parseTrustedProxies(process.env.THREADLINE_TRUSTED_PROXIES);
  if (!trusted.ok) {
    throw new Error(
      `THREADLINE_TRUSTED_PROXIES: ${JSON.stringify(trusted.entry)} is not an IP address or CIDR range (such as 10.0.0.5, 10.0.0.0/24 or fd00::/8)`,
    );
  }
  return { peerHeader: process.env.THREADLINE_PEER_HEADER === "1", trustedProxies: trusted.ranges };
}

/**
 * Tests change env between cases; production reads it once.
 * @internal exported for its tests
 */
export function resetServerSettingsForTests(): void {
  cached = undefined;
}
