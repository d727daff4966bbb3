import type { JsonObject, TurnPart } from "../types";

/**
 * The demo set's cross-tool chain (analyze -> codereview -> debug), one thread each: a session that
 * drops after a token refresh. lib/demo seeds it (with times, ids and file snapshots); the
 * domain's tests read it as a realistic run of turns.
 */
export type DemoTurn = {
  role: "user" | "assistant" | "system" | "tool";
  content: string;
  files?: string[];
  images?: string[];
  toolName?: string;
  modelProvider?: string;
  modelName?: string;
  modelMetadata?: JsonObject;
  parts?: TurnPart[];
};

const ANALYSIS = [
  "## Findings",
  "",
  "The web client stores the **access token** in memory and the **refresh token** in an `httpOnly` cookie. `refreshSession()` in `src/auth/session.ts` replaces the access token but never updates `session.expiresAt`:",
  "",
  "```ts",
  "export async function refreshSession(session: Session) {",
  "  const { accessToken } = await exchangeRefreshToken(session.refreshToken);",
  "  session.accessToken = accessToken; // expiresAt still points at the old token's expiry",
  "  return session;",
  "}",
  "```",
  "",
  "`isSessionValid()` checks `expiresAt`, so an hour after sign-in every request looks expired even though the new token is fine.",
  "",
  "| Client | Refresh path | Affected |",
  "| --- | --- | --- |",
  "| Web | `refreshSession()` | yes |",
  "| Mobile | `TokenStore.rotate()` | no |",
  "",
  "Next step: a code review of `src/auth/tokens.ts` and the refresh path.",
].join("\n");

const REVIEW = [
  "### Review: 3 issues",
  "",
  "1. **High**: `refreshSession()` keeps the stale `expiresAt` (confirmed). Derive it from the new token's `exp` claim.",
  "2. **Medium**: two tabs can refresh at once; the second exchange uses a refresh token the first already rotated, and the server answers `invalid_grant`. Serialise refreshes with a `BroadcastChannel` lock.",
  "3. **Low**: `decodeJwt()` trusts `exp` without a clock-skew margin.",
  "",
  "```diff",
  "-  session.accessToken = accessToken;",
  "+  session.accessToken = accessToken;",
  "+  session.expiresAt = decodeJwt(accessToken).exp * 1000 - CLOCK_SKEW_MS;",
  "```",
].join("\n");

const DEBUG_ANSWER = [
  "The retry in `retryWithFreshToken()` builds the request **before** awaiting the refresh, so it sends the old `Authorization` header:",
  "",
  "```ts",
  "const retry = new Request(request, { headers: withAuth(request.headers, session.accessToken) });",
  "await refreshSession(session); // too late: the header above is already stale",
  "```",
  "",
  "Await the refresh first, then build the retry. The CI test passes 200/200 runs with that change.",
].join("\n");

const REGRESSION_TEST = [
  "```ts",
  'it("serialises refreshes across tabs", async () => {',
  "  const [a, b] = await Promise.all([refreshInTab(1), refreshInTab(2)]);",
  "  expect(exchangeCalls()).toBe(1);",
  "  expect(a.accessToken).toBe(b.accessToken);",
  "});",
  "```",
].join("\n");

export const AUTH_REFRESH_CHAIN: Record<"analyze" | "codereview" | "debug", readonly DemoTurn[]> = {
  analyze: [
    {
      role: "user",
      content:
        "Why do sessions drop after a token refresh? Users report being logged out about an hour after signing in, but only on the web client.",
      files: ["src/auth/session.ts", "src/auth/tokens.ts"],
      toolName: "analyze",
    },
    {
      role: "assistant",
      toolName: "analyze",
      modelProvider: "google",
      modelName: "gemini-2.5-pro",
      modelMetadata: { thinking_mode: "medium", usage: { input_tokens: 6120, output_tokens: 812 } },
      files: ["src/auth/session.ts", "src/auth/tokens.ts"],
      content: ANALYSIS,
    },
  ],
  codereview: [
    {
      role: "user",
      content: "Review the token refresh path with the finding from the analysis in mind. Focus on expiry handling and races between tabs.",
      files: ["src/auth/tokens.ts", "src/auth/refresh.ts"],
      toolName: "codereview",
    },
    {
      role: "assistant",
      toolName: "codereview",
      modelProvider: "openai",
      modelName: "o3",
      modelMetadata: { reasoning_effort: "high", usage: { input_tokens: 9480, output_tokens: 1304 } },
      files: ["src/auth/refresh.ts"],
      content: REVIEW,
    },
  ],
  debug: [
    {
      role: "user",
      content: "After applying the expiresAt fix we still see an intermittent 401 right after refresh in CI. Logs attached.",
      files: ["src/auth/refresh.ts", "tests/auth/refresh.test.ts"],
      images: ["screenshots/ci-401.png"],
      toolName: "debug",
    },
    {
      role: "assistant",
      toolName: "debug",
      modelProvider: "anthropic",
      modelName: "claude-sonnet-4-5",
      modelMetadata: { thinking: { budget_tokens: 4000 }, usage: { input_tokens: 11873, output_tokens: 902 } },
      // The answer is both the turn's content and its text part: the page renders the parts.
      parts: [
        {
          type: "thinking",
          text: "The 401 appears within ~50 ms of the refresh. Check whether the retried request reuses the old Authorization header.",
        },
        { type: "tool_call", id: "call_01", name: "read_file", arguments: { path: "src/auth/refresh.ts" } },
        { type: "tool_result", toolCallId: "call_01", content: "export async function retryWithFreshToken(request) { ... }" },
        { type: "text", text: DEBUG_ANSWER },
      ],
      content: DEBUG_ANSWER,
    },
    {
      role: "user",
      content: "Confirmed. Can you also write a regression test for the two-tab race?",
      files: ["tests/auth/refresh.test.ts"],
      toolName: "debug",
    },
    {
      role: "assistant",
      toolName: "debug",
      modelProvider: "openai",
      modelName: "gpt-5",
      modelMetadata: { usage: { input_tokens: 12410, output_tokens: 655 } },
      files: ["tests/auth/refresh.test.ts"],
      content: REGRESSION_TEST,
    },
  ],
};
