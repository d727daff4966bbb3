// `npm start`'s check of THREADLINE_AUTH against the address it binds. Node built-ins only.

const LOOPBACK = new Set(["127.0.0.1", "localhost", "::1", "[::1]"]);

/**
 * Whether the server may start: on a loopback address sign-in may stay off (the default); on any
 * other address THREADLINE_AUTH must be chosen, "on" (people sign in) or "off" (anyone who can
 * reach the port reads and changes everything: only behind a proxy that signs people in itself).
 * @param {{ host: string, auth: string | undefined }} input
 * @returns {{ ok: true, warning?: string } | { ok: false, message: string }}
 */
export function authGate({ host, auth }) {
  const value = auth?.trim().toLowerCase() ?? "";
  if (value !== "" && value !== "on" && value !== "off") {
    return { ok: false, message: `THREADLINE_AUTH=${JSON.stringify(auth)} is neither "on" nor "off".` };
  }
  if (LOOPBACK.has(host.trim().toLowerCase())) return { ok: true };
  if (value === "") {
    return {
      ok: false,
      message: [
        `HOST=${host} is not a loopback address, and THREADLINE_AUTH is not set: refusing to start.`,
        "Choose one:",
        "  THREADLINE_AUTH=on   people sign in at /login (the first admin from THREADLINE_ADMIN_EMAIL and",
        "                       THREADLINE_ADMIN_PASSWORD, or the setup page); agents send API tokens (docs/security.md: Sign-in and API tokens)",
        "  THREADLINE_AUTH=off  no sign-in: anyone who can reach the port reads every thread and changes every",
        "                       setting; only behind a reverse proxy that signs people in itself",
      ].join("\n"),
    };
  }
  if (value === "off") {
    return {
      ok: true,
      warning: `THREADLINE_AUTH=off on HOST=${host}: anyone who can reach this port reads and changes everything (no sign-in).`,
    };
  }
  return { ok: true };
}

/**
 * The start-up note for a server on an address other than loopback with no THREADLINE_ALLOWED_HOSTS:
 * it answers only to its own names (proxy.ts), so a LAN address or a proxy's name must be listed.
 * Null when there is nothing to say.
 * @param {string} host
 * @param {string | undefined} allowedHosts
 */
export function allowedHostsNote(host, allowedHosts) {
  if (["127.0.0.1", "localhost", "::1"].includes(host) || allowedHosts?.trim()) return null;
  const names = `127.0.0.1, localhost${host === "0.0.0.0" || host === "::" ? "" : ` and ${host}`}`;
  return `answering to ${names} only: set THREADLINE_ALLOWED_HOSTS to the names people use (docs/security.md)`;
}
