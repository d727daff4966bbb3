// Types for scripts/server.mjs.
import type { IncomingMessage, Server, ServerResponse } from "node:http";

/** How long an idle kept-alive connection stays open, in ms. */
export const KEEP_ALIVE_MS: number;
export function checkedServer(handle: (req: IncomingMessage, res: ServerResponse) => Promise<void>): Server;
export function serve(options: { dev: boolean; host: string; port: string }): Promise<Server>;
