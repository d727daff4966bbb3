import { afterAll, afterEach, beforeAll, beforeEach } from "vitest";
import { LLM_ENV } from "@/lib/llm/config";
import { startFakeOpenAi, type FakeOpenAi } from "./fake-openai";

/**
 * A fake server for the tests of one file or describe block, with the LLM variables that point at
 * it: every LLM variable is cleared before each test, then `env` is set (its values may use the
 * server's base URL), and the real values come back after. `llm.server` is the running server.
 */
export function withFakeOpenAi(env: (server: FakeOpenAi) => Partial<Record<keyof typeof LLM_ENV, string>>): {
  readonly server: FakeOpenAi;
} {
  let server: FakeOpenAi | undefined;
  const saved = Object.fromEntries(Object.values(LLM_ENV).map((name) => [name, process.env[name]]));
  const running = () => {
    if (!server) throw new Error("the fake OpenAI server is not running (use it inside a test)");
    return server;
  };
  beforeAll(async () => {
    server = await startFakeOpenAi();
  });
  afterAll(() => server?.close());
  beforeEach(() => {
    for (const name of Object.values(LLM_ENV)) delete process.env[name];
    for (const [key, value] of Object.entries(env(running()))) process.env[LLM_ENV[key as keyof typeof LLM_ENV]] = value;
    running().requests.length = 0;
  });
  afterEach(() => {
    server?.dropConnections();
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });
  return {
    get server() {
      return running();
    },
  };
}
