// Types for scripts/server-checks.mjs.
export const PEER_HEADER: "x-threadline-peer";
export const MAX_URL_BYTES: number;
export const MAX_HEADER_BYTES: number;
export const PARSER_MAX_HEADER_BYTES: number;
export type Refusal = { status: number; code: string; message: string };
export function recordPeer(headers: Record<string, string | string[] | undefined>, remoteAddress: string | undefined): void;
export function errorBody(code: string, message: string): string;
export function oversizedRequest(url: string, rawHeaders: string[]): (Refusal & { status: 414 | 431 }) | null;
export function parserRefusal(errorCode: string | undefined): Refusal;
export function refusalHeaders(body: string): Record<string, string>;
export function rawRefusal(refusal: Refusal): string;
