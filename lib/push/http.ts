// `threadline push`'s side of the push API (app/api/push): the token in every request, and
// retries with backoff when the server cannot be reached or answers that it is busy or failing.
import type { PushBatch } from "@/lib/validation/push";

/** What the server holds of this machine's files (GET /api/push). */
export type PushStateReply = {
  maxBodyBytes: number;
  files: { path: string; offset: number; sha256: string; failure: string | null }[];
};

export type PushOutcomeReply = {
  path: string;
  status: "imported" | "unchanged" | "stored" | "failed" | "conflict";
  offset: number;
  error?: string;
};

/** A push that cannot go on: the server refused it (`refused`: trying again changes nothing), or could not be reached after the retries. */
export class PushError extends Error {
  constructor(
    message: string,
    readonly refused = false,
  ) {
    super(message);
  }
}

export type RetryPolicy = { attempts: number; firstDelayMs: number; maxDelayMs: number };

/** Six tries over about half a minute: a server restarting is back well within that. */
const RETRIES: RetryPolicy = { attempts: 6, firstDelayMs: 500, maxDelayMs: 16_000 };

/** Statuses worth asking again: a timeout, too many requests, a failing or unavailable server. */
function isPassing(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

export class PushServer {
  constructor(
    private readonly base: URL,
    private readonly token: string,
    private readonly retries: RetryPolicy = RETRIES,
    private readonly log: (line: string) => void = () => {},
  ) {}

  get address(): string {
    return this.base.origin;
  }

  async state(machine: string): Promise<PushStateReply> {
    return (await this.call("GET", `/api/push?machine=${encodeURIComponent(machine)}`)) as PushStateReply;
  }

  async push(batch: PushBatch): Promise<PushOutcomeReply[]> {
    return ((await this.call("POST", "/api/push", JSON.stringify(batch))) as { files: PushOutcomeReply[] }).files;
  }

  private async call(method: "GET" | "POST", where: string, body?: string): Promise<unknown> {
    const url = new URL(where, this.base);
    for (let attempt = 1; ; attempt++) {
      const again = attempt < this.retries.attempts;
      let response: Response;
      try {
        response = await fetch(url, {
          method,
          body,
          headers: {
            authorization: `Bearer ${this.token}`,
            accept: "application/json",
            ...(body && { "content-type": "application/json" }),
          },
          signal: AbortSignal.timeout(10 * 60_000),
        });
      } catch (error) {
        const why = describeFetchError(error);
        if (!again) throw new PushError(`cannot reach ${this.base.origin}: ${why}`);
        await this.wait(attempt, `cannot reach ${this.base.origin} (${why})`);
        continue;
      }
      if (response.ok) return response.json();
      const message = await errorMessage(response);
      if (isPassing(response.status) && again) {
        await this.wait(attempt, `the server answered ${response.status} (${message})`);
        continue;
      }
      throw new PushError(refusal(response.status, message), true);
    }
  }

  private async wait(attempt: number, why: string): Promise<void> {
    const delay = Math.min(this.retries.maxDelayMs, this.retries.firstDelayMs * 2 ** (attempt - 1));
    // A little jitter, so that laptops cut off together do not all come back at once.
    const ms = Math.round(delay * (0.75 + Math.random() * 0.5));
    this.log(`${why}; trying again in ${(ms / 1000).toFixed(1)} s`);
    await new Promise((resolve) => setTimeout(resolve, ms));
  }
}

function describeFetchError(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  if (cause?.code === "ECONNREFUSED") return "connection refused";
  if (cause?.code === "ENOTFOUND") return "no such host";
  if ((error as Error).name === "TimeoutError") return "no answer within 10 minutes";
  return cause?.message ?? (error as Error).message;
}

async function errorMessage(response: Response): Promise<string> {
  const text = await response.text().catch(() => "");
  try {
    const message = (JSON.parse(text) as { error?: { message?: unknown } }).error?.message;
    if (typeof message === "string") return message;
  } catch {
    // Not the API's error shape (a proxy's page): its status says enough.
  }
  return response.statusText || `HTTP ${response.status}`;
}

/** What the person is told when the server says no. */
function refusal(status: number, message: string): string {
  if (status === 401) return `the server did not accept the token (${message}): make one in Settings, API tokens`;
  if (status === 404) return "this server has no push endpoint: is it a Threadline server, of a version that takes pushes?";
  return `the server refused the push (${status}): ${message}`;
}
