// The HTTP server Threadline runs in (npm start, npm run dev, the end-to-end servers): Node's own,
// hosting Next.js through its custom-server API, so that what Next.js cannot see or answer is
// decided here first (scripts/server-checks.mjs):
// - a URL or headers over the limits are refused with 414 or 431, and requests Node's parser
//   refuses are answered too, all in the API's JSON error shape (not Node's empty body);
// - the connection's address goes to the app in x-threadline-peer, any client-sent copy dropped:
//   the sign-in limits count per client address (lib/auth/sign-in-limits.ts).
import http from "node:http";
import { createRequire } from "node:module";
import { root } from "./lib.mjs";
import {
  errorBody,
  oversizedRequest,
  PARSER_MAX_HEADER_BYTES,
  parserRefusal,
  rawRefusal,
  recordPeer,
  refusalHeaders,
} from "./server-checks.mjs";

/** How long a stop may take before the process exits anyway (open event streams never end by themselves). */
const STOP_GRACE_MS = 1_000;

/**
 * How long an idle kept-alive connection stays open. Node's 5 s default races clients that reuse
 * a socket without reading the Keep-Alive hint (Playwright's request, many HTTP libraries, proxies
 * that idle for 60 s): a request sent as the server closes the socket is reset, unanswered.
 * Longer than a proxy's usual 60 s, so the client is the one that closes first.
 */
export const KEEP_ALIVE_MS = 65_000;

/** How long a refused request's remaining bytes are read and dropped before its connection is closed. */
const REFUSED_DRAIN_MS = 5_000;

/**
 * An HTTP server that runs the checks on every request and hands the rest to `handle`.
 * @param {(req: http.IncomingMessage, res: http.ServerResponse) => Promise<void>} handle
 */
export function checkedServer(handle) {
  const server = http.createServer({
    maxHeaderSize: PARSER_MAX_HEADER_BYTES,
    keepAliveTimeout: KEEP_ALIVE_MS,
    // A kept-alive connection's next request must not meet the headers deadline first.
    headersTimeout: KEEP_ALIVE_MS + 1_000,
  });
  server.on("request", (req, res) => {
    const refused = oversizedRequest(req.url ?? "", req.rawHeaders);
    if (refused) {
      const body = errorBody(refused.code, refused.message);
      res.writeHead(refused.status, refusalHeaders(body)).end(body);
      return;
    }
    recordPeer(req.headers, req.socket.remoteAddress);
    handle(req, res).catch((error) => {
      console.error(error);
      if (res.headersSent) return void res.destroy();
      const body = errorBody("internal", "Internal server error.");
      res.writeHead(500, refusalHeaders(body)).end(body);
    });
  });
  server.on("clientError", (error, socket) => {
    // Nothing to answer on a connection that is gone or already has a response under way.
    if (!socket.writable || /** @type {any} */ (socket)._httpMessage?.headersSent) {
      socket.destroy();
      return;
    }
    // The rest of the request is read and dropped while the client still sends it (for a few seconds
    // at most): a socket closed with bytes unread is reset by the kernel, and the reset could reach
    // the client before the refusal did (ECONNRESET instead of the 431).
    const drained = setTimeout(() => socket.destroy(), REFUSED_DRAIN_MS);
    drained.unref();
    socket.once("close", () => clearTimeout(drained));
    socket.on("data", () => undefined);
    socket.resume();
    socket.end(rawRefusal(parserRefusal(/** @type {{ code?: string }} */ (error).code)));
  });
  return server;
}

/**
 * Starts Next.js (the production build, or the development server with `dev`) behind the checks,
 * on host:port, and prints the start-up lines `next start` printed. SIGINT and SIGTERM stop it.
 * @param {{ dev: boolean, host: string, port: string }} options
 */
export async function serve({ dev, host, port }) {
  const started = Date.now();
  // Read by Next.js and the app as `next start` / `next dev` would set them, before Next.js loads.
  process.env.NODE_ENV = dev ? "development" : "production";
  process.env.NEXT_TELEMETRY_DISABLED = "1";
  process.env.HOST = host;
  process.env.PORT = port; // the proxy's Host check answers to this port (lib/env)
  process.env.THREADLINE_PEER_HEADER = "1"; // the app may trust x-threadline-peer: it is written here
  const { default: next } = await import("next");
  const version = createRequire(import.meta.url)("next/package.json").version;

  /** @type {(req: http.IncomingMessage, res: http.ServerResponse) => Promise<void>} */
  let handle = async () => {};
  const server = checkedServer((req, res) => handle(req, res));
  const app = next({ dev, hostname: host, port: Number(port), dir: root, httpServer: server });
  handle = app.getRequestHandler();

  try {
    await app.prepare();
  } catch (error) {
    // No production build, say (instrumentation.ts stops the process itself on a bad setting).
    const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
    console.error(`[threadline] the server could not start: ${cause instanceof Error ? cause.message : String(cause)}`);
    process.exit(1);
  }
  try {
    await new Promise((resolve, reject) => {
      server.once("error", reject);
      server.listen(Number(port), host, () => resolve(undefined));
    });
  } catch (error) {
    // Thrown on, Next.js's own handler would log it and keep the process alive, following the
    // agents' folders with nothing served: a second server on a taken port must stop instead.
    const code = /** @type {{ code?: string }} */ (error).code;
    const why =
      code === "EADDRINUSE"
        ? `${host}:${port} is in use (another Threadline, or another program): stop it, or choose another PORT`
        : error instanceof Error
          ? error.message
          : String(error);
    console.error(`[threadline] the server could not listen: ${why}`);
    process.exit(1);
  }
  const shown = host.includes(":") ? `[${host}]` : host;
  console.log(`   ▲ Next.js ${version}${dev ? " (development)" : ""}`);
  console.log(`   - Local:         http://${shown}:${port}`);
  console.log(` ✓ Ready in ${Date.now() - started}ms`);

  let stopping = false;
  for (const [signal, code] of /** @type {const} */ ([
    ["SIGINT", 130],
    ["SIGTERM", 143],
  ])) {
    process.on(signal, () => {
      if (stopping) return;
      stopping = true;
      setTimeout(() => process.exit(code), STOP_GRACE_MS).unref();
      server.close();
      server.closeAllConnections();
      app.close().finally(() => process.exit(code));
    });
  }
  return server;
}
