/**
 * Which requests the server answers at all, decided from headers alone before any work (the
 * proxy at the project root applies it to every request: pages, REST, server actions, MCP).
 *
 * The threat is a hostile web page in the user's own browser:
 * - DNS rebinding: the page's own name (evil.example) is made to resolve to 127.0.0.1, so the
 *   browser sends `Host: evil.example:3000` and lets the page read the answers. Only the server's
 *   own names are answered.
 * - Cross-site writes: a page anywhere (another site, or another port of this machine) can send a
 *   POST without a preflight (a form, or fetch with mode "no-cors" and a text/plain body). The
 *   browser always names the page's origin on such a request, so a state-changing request from any
 *   origin other than the server's own is refused, whatever its content type. Requests without an
 *   Origin (curl, agents, MCP clients) are not from a web page and keep working.
 */
import { quoteInput } from "../secrets/quote";

export type RequestGuardConfig = {
  /** The port the server listens on (what a browser puts after the loopback names). */
  port: string;
  /** Lower-cased `host[:port]` values the Host header may take. */
  allowedHosts: ReadonlySet<string>;
  /** Origins (scheme://host[:port]) besides the server's own allowed to send writes. */
  allowedOrigins: ReadonlySet<string>;
};

export type GuardedRequest = {
  method: string;
  host: string | null;
  origin: string | null;
  secFetchSite: string | null;
};

export type GuardVerdict = { allowed: true } | { allowed: false; reason: string };

const LOOPBACK_NAMES = ["127.0.0.1", "localhost", "[::1]"];
/** A bind address that means "every interface" names no host of its own. */
const WILDCARD_BINDS = new Set(["0.0.0.0", "::", "[::]", ""]);
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** "::1" -> "[::1]": how an IPv6 literal appears in a Host header ("name:port" stays as it is). */
function hostLiteral(name: string): string {
  const lower = name.trim().toLowerCase();
  const colons = lower.split(":").length - 1;
  return colons >= 2 && !lower.startsWith("[") ? `[${lower}]` : lower;
}

/** Splits "name:port" / "[v6]:port" / "name"; the port is null when absent. */
function splitHost(value: string): { name: string; port: string | null } {
  const match = /^(\[[^\]]*\]|[^:]*)(?::(\d*))?$/.exec(value);
  if (!match) return { name: value, port: null };
  return { name: match[1]!, port: match[2] === undefined || match[2] === "" ? null : match[2] };
}

/**
 * The Host values the server answers to: the loopback names on its port, the address it binds
 * (HOST), and each extra name (THREADLINE_ALLOWED_HOSTS, comma-separated). An extra name without
 * a port is allowed bare (a proxy on port 80 or 443 passes it that way) and on the server's port;
 * one with a port only with that port.
 */
export function allowedHostsFor(input: { port: string; bindHost?: string | null; extraHosts?: string | null }): Set<string> {
  const hosts = new Set<string>();
  const names = [...LOOPBACK_NAMES];
  const bind = hostLiteral(input.bindHost ?? "");
  if (!WILDCARD_BINDS.has(bind)) names.push(bind);
  for (const name of names) {
    hosts.add(`${name}:${input.port}`);
    // A browser leaves out the port when it is the scheme's default.
    if (input.port === "80" || input.port === "443") hosts.add(name);
  }
  for (const entry of (input.extraHosts ?? "").split(",")) {
    const value = hostLiteral(entry);
    if (value === "") continue;
    const { name, port } = splitHost(value);
    if (port !== null) {
      hosts.add(`${name}:${port}`);
    } else {
      hosts.add(name);
      hosts.add(`${name}:${input.port}`);
    }
  }
  return hosts;
}

/** Parses THREADLINE_ALLOWED_ORIGINS (comma-separated); entries that are not origins are returned as invalid. */
export function parseAllowedOrigins(raw: string | null | undefined): { origins: Set<string>; invalid: string[] } {
  const origins = new Set<string>();
  const invalid: string[] = [];
  for (const entry of (raw ?? "").split(",")) {
    const value = entry.trim();
    if (value === "") continue;
    const origin = originOf(value);
    if (origin === null || (!value.startsWith("http://") && !value.startsWith("https://"))) invalid.push(value);
    else origins.add(origin);
  }
  return { origins, invalid };
}

/** The normalised origin of a URL ("HTTP://Example.com:80/x" -> "http://example.com"), or null. */
function originOf(value: string): string | null {
  try {
    const origin = new URL(value).origin;
    return origin === "null" ? null : origin;
  } catch {
    return null;
  }
}

export function checkRequest(request: GuardedRequest, config: RequestGuardConfig): GuardVerdict {
  const host = request.host?.trim().toLowerCase() ?? "";
  if (!config.allowedHosts.has(host)) {
    return {
      allowed: false,
      reason:
        host === ""
          ? "the request names no Host"
          : `this server does not answer to the host name ${quoteInput(host)}; add it to THREADLINE_ALLOWED_HOSTS if a proxy serves Threadline under that name`,
    };
  }
  if (SAFE_METHODS.has(request.method.toUpperCase())) return { allowed: true };

  if (request.origin !== null) {
    // The server's own origin is its Host (checked above) under http, or https behind a TLS proxy:
    // whoever serves that host and port is this server either way.
    const own = [originOf(`http://${host}`), originOf(`https://${host}`)];
    const origin = originOf(request.origin);
    if (origin !== null && (own.includes(origin) || config.allowedOrigins.has(origin))) return { allowed: true };
    return {
      allowed: false,
      reason: `a ${request.method.toUpperCase()} from the origin ${quoteInput(request.origin)} is refused: only pages of this server (http://${host}) may change data; add the origin to THREADLINE_ALLOWED_ORIGINS to allow it`,
    };
  }
  // A browser that says the request comes from another site, but names no origin.
  const site = request.secFetchSite?.trim().toLowerCase();
  if (site === "cross-site" || site === "same-site") {
    return { allowed: false, reason: `a ${request.method.toUpperCase()} from another site (Sec-Fetch-Site: ${site}) is refused` };
  }
  return { allowed: true };
}
