/**
 * The compaction API on the test file's real SQLite database: previews that write nothing,
 * revisions that leave the original byte for byte as it was, lineage both ways, undo, guards,
 * and the LLM summariser as a background job against a small OpenAI-compatible server on
 * 127.0.0.1 whose received requests are asserted.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { DELETE as jobDelete, GET as jobGet } from "@/app/api/compaction-jobs/[jobId]/route";
import { JOB_HEARTBEAT_MS, JOB_STALE_MS } from "@/lib/compaction/jobs";
import { db } from "@/lib/db/engine/client";
import { createJob, finishJob } from "@/lib/db/threads/compactions";
import { SUMMARIZER_SYSTEM_PROMPT } from "@/lib/llm/summarize";
import { json, jsonRequest, params } from "@/lib/testing/api";
import { answer, fail, hang, type FakeOpenAi } from "@/lib/testing/fake-openai";
import { withFakeOpenAi } from "@/lib/testing/fake-openai-env";
import { api, expectError, fetchThread, newThread, newTurn, rowCounts, sleep } from "@/lib/testing/integration";
import { POST as jobsPost } from "../compaction-jobs/route";
import { GET as compactionsGet, POST as compactionsPost } from "./route";

const FILE = "x".repeat(3_000);
const SESSION_TS = `export function refresh(token) {\n${"  // compare after decoding\n".repeat(120)}}`;

/** A debugging session: prompt, a read_file call and its long result, a fix, a follow-up. */
const TURNS: Record<string, unknown>[] = [
  { role: "user", content: "Login fails with a 401 after the token refresh; the code is in src/auth/session.ts" },
  {
    role: "assistant",
    content: "Let me read the session code.",
    parts: [
      { type: "text", text: "Let me read the session code." },
      { type: "tool_call", id: "call_1", name: "read_file", arguments: { path: "src/auth/session.ts" } },
    ],
  },
  { role: "tool", content: SESSION_TS, toolName: "read_file", parts: [{ type: "tool_result", toolCallId: "call_1", content: SESSION_TS }] },
  {
    role: "assistant",
    content: "Root cause: the refresh token is compared before it is decoded. I fixed it by decoding first in src/auth/tokens.ts.",
  },
  { role: "user", content: "Please also add a regression test." },
  { role: "assistant", content: "Added tests/auth/refresh.test.ts; it fails before the fix and passes after. Next: run the whole suite." },
  { role: "user", content: `Here is the suite output: ${FILE}` },
  { role: "assistant", content: "All 212 tests pass." },
  { role: "user", content: "Great, what is left?" },
  { role: "assistant", content: "Nothing for this bug. A follow-up could cache decoded tokens." },
];

async function seed(turns = TURNS): Promise<string> {
  const thread = await newThread({ toolName: "debug", title: "Refresh 401" });
  for (const turn of turns) await newTurn(thread.id, turn);
  return thread.id;
}

const post = (id: string, body: unknown) => compactionsPost(jsonRequest("POST", `/api/threads/${id}/compactions`, body), params({ id }));
const lineage = (id: string) => compactionsGet(jsonRequest("GET", `/api/threads/${id}/compactions`), params({ id }));
const startJob = (id: string, body: unknown) => jobsPost(jsonRequest("POST", `/api/threads/${id}/compaction-jobs`, body), params({ id }));
const getJob = (jobId: string) => jobGet(jsonRequest("GET", `/api/compaction-jobs/${jobId}`), params({ jobId }));
const cancelJob = (jobId: string) => jobDelete(jsonRequest("DELETE", `/api/compaction-jobs/${jobId}`), params({ jobId }));
const exportText = async (id: string) => (await api.exportThread(id)).text();

type Preview = {
  plan: {
    keptBefore: number[];
    replaced: number[];
    keptAfter: number[];
    trimmed: { index: number; charsBefore: number; charsAfter: number }[];
    adjustments: string[];
  };
  summary: string | null;
  tokensBefore: number;
  tokensAfter: number;
  turnsAfter: number;
  lostReferences: { paths: string[]; tools: string[] };
  references: { paths: string[]; tools: string[] };
  refusal: string | null;
  tokenizer: { id: string };
};
type Job = { id: string; status: string; result: Preview | null; error: { kind: string; message: string } | null };

async function preview(id: string, body: Record<string, unknown>): Promise<Preview> {
  const response = await post(id, body);
  expect(response.status, await response.clone().text()).toBe(200);
  return (await json<{ preview: Preview }>(response)).preview;
}

async function settled(jobId: string): Promise<Job> {
  for (let i = 0; i < 200; i++) {
    const { job } = await json<{ job: Job }>(await getJob(jobId));
    if (job.status !== "running") return job;
    await sleep(25);
  }
  throw new Error("the job did not finish");
}

describe("POST /api/threads/:id/compactions (extractive)", () => {
  it("previews a full compaction with every path and tool kept, and writes nothing", async () => {
    const id = await seed();
    const before = await rowCounts();
    const shown = await preview(id, { strategy: "full" });
    expect(shown.plan.replaced).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(shown.turnsAfter).toBe(2);
    expect(shown.references.paths).toEqual(
      expect.arrayContaining(["src/auth/session.ts", "src/auth/tokens.ts", "tests/auth/refresh.test.ts"]),
    );
    expect(shown.references.tools).toContain("read_file");
    expect(shown.lostReferences).toEqual({ paths: [], tools: [] });
    for (const path of shown.references.paths) expect(shown.summary).toContain(path);
    expect(shown.summary).toContain("Login fails with a 401");
    expect(shown.tokensAfter).toBeLessThan(shown.tokensBefore);
    expect(shown.tokenizer.id).toBe("o200k_base");
    expect(shown.refusal).toBeNull();
    expect(await rowCounts()).toEqual(before);
  });

  it("applies it as a new revision: the original exports byte for byte as before, the lineage shows both ways, undo deletes only the revision", async () => {
    const id = await seed();
    const exportedBefore = await exportText(id);
    const response = await post(id, { strategy: "full", apply: true, targetModel: "gpt-4o" });
    expect(response.status, await response.clone().text()).toBe(201);
    const { thread, compaction } = await json<{
      thread: { id: string; title: string; source: string };
      compaction: Record<string, unknown>;
    }>(response);
    expect(thread.id).not.toBe(id);
    expect(thread).toMatchObject({ title: "Refresh 401 (compacted)", source: "compaction" });
    expect(compaction).toMatchObject({
      originalThreadId: id,
      revisionThreadId: thread.id,
      strategy: "full",
      summarizer: "extractive",
      targetModel: "gpt-4o",
      summaryEdited: false,
    });
    expect(compaction.replaced).toHaveLength(10);

    const revision = await fetchThread(thread.id);
    expect(revision.turns.map((t) => t.role)).toEqual(["user", "assistant"]);
    expect(revision.turns[0]!.content).toMatch(/^\[Compacted conversation summary\]\n/);
    const marker = revision.turns[0]!.parts?.find((p) => p.type === "compaction");
    expect(marker).toMatchObject({
      type: "compaction",
      trigger: "full · extractive",
      tokensBefore: compaction.tokensBefore,
      tokensAfter: compaction.tokensAfter,
    });
    expect(revision.turns[1]!.content).toBe("Understood. I have the conversation context.");
    expect(await exportText(id)).toBe(exportedBefore);

    const fromOriginal = await json<{ revisions: { revisionThreadId: string }[]; compactedFrom: unknown }>(await lineage(id));
    expect(fromOriginal.revisions.map((r) => r.revisionThreadId)).toEqual([thread.id]);
    expect(fromOriginal.compactedFrom).toBeNull();
    const fromRevision = await json<{ revisions: unknown[]; compactedFrom: { originalThreadId: string; originalExists: boolean } }>(
      await lineage(thread.id),
    );
    expect(fromRevision.compactedFrom).toMatchObject({ originalThreadId: id, originalExists: true });

    expect((await api.deleteThread(thread.id)).status).toBe(204);
    expect((await json<{ revisions: unknown[] }>(await lineage(id))).revisions).toEqual([]);
    expect(await exportText(id)).toBe(exportedBefore);
  });

  it("keeps the first run and the newest turns of a window, and never splits a tool call from its result", async () => {
    const later = ["Thanks.", "You're welcome.", "One more: is the fix released?", "Yes, in 2.4.1."].map((content, i) => ({
      role: i % 2 === 0 ? "user" : "assistant",
      content,
    }));
    const id = await seed([...TURNS, ...later]);
    const shown = await preview(id, { strategy: "window", options: { trigger: "turns", maxTurns: 4 } });
    // The first run ends at turn 1 (its text), but turn 1's call has its result in turn 2: kept with it.
    expect(shown.plan.keptBefore).toEqual([0, 1, 2]);
    expect(shown.plan.keptAfter).toEqual([10, 11, 12, 13]);
    expect(shown.plan.replaced).toEqual([3, 4, 5, 6, 7, 8, 9]);
    expect(shown.plan.adjustments.length).toBeGreaterThan(0);
    expect(shown.summary).toContain("tests/auth/refresh.test.ts");

    const response = await post(id, { strategy: "window", options: { maxTurns: 4 }, apply: true });
    expect(response.status, await response.clone().text()).toBe(201);
    const { turns } = await fetchThread((await json<{ thread: { id: string } }>(response)).thread.id);
    expect(turns).toHaveLength(8);
    expect(turns[3]!.content).toMatch(/^\[Summary of 7 earlier messages\]\n/);
    expect(turns[2]!.parts).toEqual([{ type: "tool_result", toolCallId: "call_1", content: SESSION_TS }]);
    expect(turns.slice(4).map((t) => t.content)).toEqual(later.map((t) => t.content));
  });

  it("refuses a window whose summary would outweigh the few turns it replaces", async () => {
    const id = await seed();
    const shown = await preview(id, { strategy: "window", options: { maxTurns: 8 } });
    expect(shown.plan.replaced.length).toBeGreaterThan(0);
    expect(shown.refusal).toMatch(/not fewer than/);
    await expectError(await post(id, { strategy: "window", options: { maxTurns: 8 }, apply: true }), 422, "compaction_refused");
  });

  it("trims old tool output and protects the last exchange", async () => {
    const id = await seed([
      ...TURNS.slice(0, 4),
      { role: "user", content: "and this one?" },
      TURNS[1]!,
      TURNS[2]!,
      { role: "assistant", content: "Same code." },
    ]);
    const shown = await preview(id, { strategy: "trim-tool-output", options: { maxChars: 500 } });
    expect(shown.summary).toBeNull();
    expect(shown.plan.trimmed.map((t) => t.index)).toEqual([2]); // turn 6, the same output, is in the last exchange
    const applied = await json<{ thread: { id: string } }>(
      await post(id, { strategy: "trim-tool-output", options: { maxChars: 500 }, apply: true }),
    );
    const { turns } = await fetchThread(applied.thread.id);
    expect(turns[2]!.content).toContain(`[...truncated, ${SESSION_TS.length} chars total]`);
    expect(turns[2]!.content.length).toBeLessThan(SESSION_TS.length);
    expect(turns[6]!.content).toBe(SESSION_TS);
  });

  it("measures an edited summary, lists the references it loses, and records it as edited", async () => {
    const id = await seed();
    const edited = "The 401 was a refresh bug, fixed in src/auth/tokens.ts.";
    const shown = await preview(id, { strategy: "range", options: { direction: "up-to", at: 5 }, summary: edited });
    expect(shown.summary).toBe(edited);
    expect(shown.lostReferences.paths).toEqual(expect.arrayContaining(["src/auth/session.ts", "tests/auth/refresh.test.ts"]));
    expect(shown.lostReferences.paths).not.toContain("src/auth/tokens.ts");
    expect(shown.lostReferences.tools).toEqual(["read_file"]);

    const response = await post(id, { strategy: "range", options: { direction: "up-to", at: 5 }, summary: edited, apply: true });
    expect(response.status).toBe(201);
    const { thread, compaction } = await json<{
      thread: { id: string };
      compaction: { summaryEdited: boolean; lostReferences: { tools: string[] } };
    }>(response);
    expect(compaction.summaryEdited).toBe(true);
    expect(compaction.lostReferences.tools).toEqual(["read_file"]);
    const { turns } = await fetchThread(thread.id);
    expect(turns[0]!.content).toBe(`[Summary of 6 earlier messages]\n${edited}`);
    expect(turns.slice(1).map((t) => t.content)).toEqual(TURNS.slice(6).map((t) => t.content));
  });

  it("keeps the PAL tool of every replaced turn: listed in the summary, and lost when an edit drops it", async () => {
    // A PAL-style chain: each exchange ran under one tool, which only the turns' toolName records.
    const id = await seed([
      { role: "user", content: "Why do sessions drop after a refresh?", toolName: "analyze", files: ["src/auth/session.ts"] },
      { role: "assistant", content: "refreshSession() never updates expiresAt.", toolName: "analyze", modelName: "gemini-2.5-pro" },
      { role: "user", content: "Review the refresh path with that in mind.", toolName: "codereview" },
      { role: "assistant", content: "Two issues: the stale expiry and a race between tabs.", toolName: "codereview", modelName: "o3" },
      { role: "user", content: "We still see an intermittent 401 in CI.", toolName: "debug" },
      {
        role: "assistant",
        content: "The retry reuses the old Authorization header; fixed by rebuilding it.",
        toolName: "debug",
        modelName: "gpt-5",
      },
    ]);
    const shown = await preview(id, { strategy: "full" });
    expect(shown.references.tools).toEqual(["analyze", "codereview", "debug"]);
    expect(shown.summary).toContain("- Tools: `analyze`, `codereview`, `debug`");
    expect(shown.lostReferences).toEqual({ paths: [], tools: [] });

    const edited = "analyze and debug found a stale expiry in src/auth/session.ts and a reused header.";
    const lossy = await preview(id, { strategy: "full", summary: edited });
    expect(lossy.lostReferences).toEqual({ paths: [], tools: ["codereview"] });
    const response = await post(id, { strategy: "full", summary: edited, apply: true });
    expect(response.status, await response.clone().text()).toBe(201);
    const { compaction } = await json<{ compaction: { lostReferences: { paths: string[]; tools: string[] } } }>(response);
    expect(compaction.lostReferences).toEqual({ paths: [], tools: ["codereview"] });
  });

  it("refuses a compaction that would not shrink the history, or that changes nothing (422)", async () => {
    const id = await seed();
    const before = await rowCounts();
    const bloated = `${"a long-winded summary ".repeat(2_000)}`;
    const shown = await preview(id, { strategy: "range", options: { direction: "from", at: 8 }, summary: bloated });
    expect(shown.refusal).toMatch(/not fewer than/);
    const refused = await expectError(
      await post(id, { strategy: "range", options: { direction: "from", at: 8 }, summary: bloated, apply: true }),
      422,
      "compaction_refused",
    );
    expect(refused.details).toMatchObject({ guard: "inflation" });
    const noop = await expectError(await post(id, { strategy: "window", options: { maxTurns: 40 } }), 422, "compaction_refused");
    expect(noop.message).toMatch(/^Nothing to compact/);
    expect(await rowCounts()).toEqual(before);
  });

  it("answers 400 naming the field for a bad strategy, options, turn or model, and 404 for an unknown thread", async () => {
    const id = await seed(TURNS.slice(0, 4));
    expect((await expectError(await post(id, { strategy: "squash" }), 400, "validation_failed")).message).toMatch(
      /^strategy: must be one of full, window, range, trim-tool-output/,
    );
    expect(
      (await expectError(await post(id, { strategy: "window", options: { maxTurns: -1 } }), 400, "validation_failed")).message,
    ).toMatch(/^options\.maxTurns: must be at least 0/);
    expect((await expectError(await post(id, { strategy: "range", options: { at: 1 } }), 400, "validation_failed")).message).toMatch(
      /^options\.direction/,
    );
    expect((await expectError(await post(id, { strategy: "full", options: { extra: 1 } }), 400, "validation_failed")).message).toMatch(
      /^options/,
    );
    expect(
      (await expectError(await post(id, { strategy: "range", options: { direction: "from", at: 4 } }), 400, "validation_failed")).message,
    ).toMatch(/^options\.at: the thread has 4 turns/);
    expect(
      (await expectError(await post(id, { strategy: "full", summarizer: "llm", model: "gpt-4o" }), 400, "validation_failed")).message,
    ).toMatch(/^model: /);
    expect(
      (await expectError(await post(id, { strategy: "full", targetModel: "no-such-model" }), 400, "validation_failed")).message,
    ).toMatch(/^targetModel: unknown model/);
    expect(
      (await expectError(await post(id, { strategy: "full", jobId: "3f1c2e4a-1111-4222-8333-444455556666" }), 400, "validation_failed"))
        .message,
    ).toMatch(/^jobId: only goes with apply/);
    await expectError(await post("3f1c2e4a-1111-4222-8333-444455556666", { strategy: "full" }), 404, "not_found");
    await expectError(await post("not-a-uuid", { strategy: "full" }), 404, "not_found");
  });
});

describe("the LLM summariser as a background job", () => {
  const llm = withFakeOpenAi((server) => ({ openaiCompatibleBaseUrl: server.baseUrl }));
  let fake: FakeOpenAi;
  beforeEach(() => {
    fake = llm.server;
  });

  const LLM = { strategy: "full", summarizer: "llm", model: "openai-compatible:local-model", instructions: "the token refresh" };

  it("runs in the background, sends the replaced turns with the instructions and no tools, and applies the summary as edited without asking again", async () => {
    fake.answerWith(
      answer(
        "Fixed the 401: src/auth/session.ts compared the refresh token before decoding (read_file). Added tests/auth/refresh.test.ts.",
      ),
    );
    const id = await seed();
    const started = await startJob(id, LLM);
    expect(started.status).toBe(202);
    const job = await settled((await json<{ job: Job }>(started)).job.id);
    expect(job.status).toBe("succeeded");
    expect(job.result?.summary).toContain("src/auth/session.ts");

    expect(fake.requests).toHaveLength(1);
    const sent = fake.requests[0]!.body;
    expect(sent.model).toBe("local-model");
    expect(sent.tools).toBeUndefined();
    expect(sent.messages[0]).toEqual({ role: "system", content: SUMMARIZER_SYSTEM_PROMPT });
    const text = sent.messages.map((m) => m.content).join("\n");
    for (const turn of TURNS) expect(text).toContain((turn.content as string).slice(0, 60));
    expect(sent.messages.at(-1)!.content).toContain("Focus on: the token refresh");

    const edited = `${job.result!.summary}\nEdited: also cache decoded tokens.`;
    const response = await post(id, { strategy: "full", apply: true, jobId: job.id, summary: edited });
    expect(response.status, await response.clone().text()).toBe(201);
    const { thread, compaction } = await json<{ thread: { id: string }; compaction: Record<string, unknown> }>(response);
    expect(compaction).toMatchObject({ summarizer: "llm", summarizerModel: "openai-compatible:local-model", summaryEdited: true });
    expect((await fetchThread(thread.id)).turns[0]!.content).toBe(`[Compacted conversation summary]\n${edited}`);
    expect(fake.requests).toHaveLength(1);
  });

  it("applies a job once, and not after the thread changed; refuses at once what would fail; a purge takes its jobs", async () => {
    fake.answerWith(
      answer(
        "A short summary of the refresh bug in src/auth/session.ts with read_file and tests/auth/refresh.test.ts and src/auth/tokens.ts.",
      ),
    );
    const id = await seed();
    const job = await settled((await json<{ job: Job }>(await startJob(id, LLM))).job.id);
    expect(job.status).toBe("succeeded");
    expect((await post(id, { strategy: "full", apply: true, jobId: job.id })).status).toBe(201);
    expect((await expectError(await post(id, { strategy: "full", apply: true, jobId: job.id }), 409, "conflict")).message).toMatch(
      /applied already/,
    );

    const changed = await settled((await json<{ job: Job }>(await startJob(id, LLM))).job.id);
    await newTurn(id, { role: "user", content: "One more thing." });
    expect((await expectError(await post(id, { strategy: "full", apply: true, jobId: changed.id }), 409, "conflict")).message).toMatch(
      /changed since this summary was written \(10 turns then, 11 now\)/,
    );

    const requestsBefore = fake.requests.length;
    const rows = await rowCounts();
    await expectError(await startJob(id, { ...LLM, model: "anthropic:claude-3-5-haiku-latest" }), 400, "validation_failed");
    await expectError(await startJob(id, { ...LLM, strategy: "window", options: { maxTurns: 40 } }), 422, "compaction_refused");
    await expectError(await startJob(id, { ...LLM, strategy: "range", options: { direction: "from", at: 99 } }), 400, "validation_failed");
    expect(fake.requests.length).toBe(requestsBefore);
    expect(await rowCounts()).toEqual(rows);

    expect((await api.deleteThread(id)).status).toBe(204);
    await expectError(await getJob(changed.id), 404, "not_found");
  });

  it("reports a provider failure on the job, and as 502 when previewed directly; nothing is written", async () => {
    fake.answerWith(fail(500, "The server had an error while processing your request."));
    const id = await seed(TURNS.slice(0, 4));
    const before = await rowCounts();
    const job = await settled((await json<{ job: Job }>(await startJob(id, LLM))).job.id);
    expect(job.status).toBe("failed");
    expect(job.error?.kind).toBe("provider");
    const direct = await expectError(await post(id, LLM), 502, "summarizer_failed");
    expect(direct.details).toMatchObject({ kind: "provider" });
    await expectError(await post(id, { strategy: "full", apply: true, jobId: job.id }), 409, "conflict");
    expect(await rowCounts()).toEqual(before);
  });

  it("can be cancelled while the model is still answering", async () => {
    fake.answerWith(hang);
    const id = await seed(TURNS.slice(0, 4));
    const { job } = await json<{ job: Job }>(await startJob(id, LLM));
    for (let i = 0; i < 100 && fake.requests.length === 0; i++) await sleep(20);
    expect(fake.requests).toHaveLength(1);
    const cancelled = await json<{ job: Job }>(await cancelJob(job.id));
    expect(cancelled.job.status).toBe("cancelled");
    await sleep(50);
    expect((await settled(job.id)).status).toBe("cancelled");
  });

  // Several app processes share one database: a poll or a cancel may reach one that does not run the job.
  it("reports a job another process runs as running while it is touched, and as cut off once untouched for 30 s", async () => {
    const id = await seed(TURNS.slice(0, 4));
    const elsewhere = await createJob(id, { strategy: "full" }, "Asking the model"); // a row this process does not run
    expect((await json<{ job: Job }>(await getJob(elsewhere.id))).job).toMatchObject({ status: "running", progress: "Asking the model" });
    const client = await db();
    await client.compactionJob.update({ where: { id: elsewhere.id }, data: { updatedAt: new Date(Date.now() - JOB_STALE_MS + 2_000) } });
    expect((await json<{ job: Job }>(await getJob(elsewhere.id))).job.status).toBe("running");
    await client.compactionJob.update({ where: { id: elsewhere.id }, data: { updatedAt: new Date(Date.now() - JOB_STALE_MS - 1_000) } });
    const cutOff = (await json<{ job: Job }>(await getJob(elsewhere.id))).job;
    expect(cutOff).toMatchObject({ status: "failed", error: { kind: "interrupted" } });
  });

  it("touches the job it runs, and stops the model call when another process cancels it", { timeout: 20_000 }, async () => {
    let callClosed = false;
    fake.answerWith((_request, res) => res.on("close", () => (callClosed = true)));
    const id = await seed(TURNS.slice(0, 4));
    const { job } = await json<{ job: Job }>(await startJob(id, LLM));
    for (let i = 0; i < 100 && fake.requests.length === 0; i++) await sleep(20);
    expect(fake.requests).toHaveLength(1);
    const client = await db();
    const before = (await client.compactionJob.findUniqueOrThrow({ where: { id: job.id } })).updatedAt;
    await sleep(JOB_HEARTBEAT_MS + 500);
    const touched = await client.compactionJob.findUniqueOrThrow({ where: { id: job.id } });
    expect(touched.updatedAt.getTime()).toBeGreaterThan(before.getTime());
    // What a cancel does in the process that received it: the row says cancelled; the runner is elsewhere.
    expect(await finishJob(job.id, { status: "cancelled", progress: "Cancelled" })).toBe(true);
    expect(callClosed).toBe(false);
    for (let i = 0; i < 100 && !callClosed; i++) await sleep(100);
    expect(callClosed).toBe(true);
    expect((await settled(job.id)).status).toBe("cancelled");
  });
});
