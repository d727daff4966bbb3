// Types for scripts/auth-gate.mjs.
export function authGate(input: { host: string; auth: string | undefined }): { ok: true; warning?: string } | { ok: false; message: string };
