// Types for scripts/auth-gate.mjs.
export function authGate(input: { host: string; auth: string | undefined }): { ok: true; warning?: string } | { ok: false; message: string };
export function allowedHostsNote(host: string, allowedHosts: string | undefined): string | null;
