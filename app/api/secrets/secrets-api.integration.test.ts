/**
 * Secrets in transcripts, end to end on the test file's real database (SQLite, and PostgreSQL in
 * its pass): every rule's sample appended through the API is found by the scan, masked in every
 * answer, revealed one at a time, redacted in exports and in place, and never sent to a model
 * (a small OpenAI-compatible server on 127.0.0.1 records what it received).
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { POST as sendMessage } from "@/app/api/threads/[id]/messages/route";
import { POST as compact } from "@/app/api/threads/[id]/compactions/route";
import { GET as listTurnsRoute } from "@/app/api/threads/[id]/turns/route";
import { PUT as putSecretSettings } from "@/app/api/threads/[id]/secret-settings/route";
import { GET as listSecrets } from "./route";
import { POST as reveal } from "./reveal/route";
import { POST as redact } from "./redact/route";
import { db } from "@/lib/db/engine/client";
import { fingerprintOf } from "@/lib/domain/secrets/detect";
import { secretSamples } from "@/lib/domain/testing/secret-samples";
import { scanForSecrets } from "@/lib/secrets/scan";
import { json, jsonRequest, params } from "@/lib/testing/api";
import { answer, type FakeOpenAi } from "@/lib/testing/fake-openai";
import { withFakeOpenAi } from "@/lib/testing/fake-openai-env";
import { api, newThread, newTurn, restoreServerEnv } from "@/lib/testing/integration";

const llm = withFakeOpenAi((server) => ({
  openaiCompatibleBaseUrl: server.baseUrl,
  openaiCompatibleApiKey: "test-key",
  chatModel: "openai-compatible:test-model",
  compactionModel: "openai-compatible:test-model",
}));
let fake: FakeOpenAi;
beforeEach(() => {
  fake = llm.server;
  fake.answerWith(answer("Noted."));
});
afterEach(() => restoreServerEnv());

const samples = secretSamples(5);

async function threadWithSecrets(): Promise<string> {
  const thread = await newThread({ toolName: "claude-code" });
  for (const [i, sample] of samples.entries()) {
    await newTurn(thread.id, { role: i % 2 === 0 ? "user" : "assistant", content: `step ${i}: ${sample.line(sample.value)}` });
  }
  await newTurn(thread.id, {
    role: "assistant",
    content: "Running the tool",
    parts: [{ type: "tool_call", id: "call_1", name: "Bash", arguments: { command: `export TOKEN=${samples[2]!.value}` } }],
  });
  await scanForSecrets();
  return thread.id;
}

function expectNoSecret(text: string): void {
  for (const sample of samples) expect(text, sample.rule).not.toContain(sample.value);
}

describe("secrets in transcripts", () => {
  it("finds one secret per sample, of its kind, and lists them without their values", async () => {
    const id = await threadWithSecrets();
    const response = await listSecrets(jsonRequest("GET", `/api/secrets?threadId=${id}&limit=500`));
    const text = await response.text();
    expectNoSecret(text);
    const body = JSON.parse(text) as {
      findings: { kind: string; fingerprint: string; field: string; turnIndex: number }[];
      total: number;
      scan: { scannedSeq: number; lastSeq: number };
    };
    expect(body.scan.scannedSeq).toBe(body.scan.lastSeq);
    const inContent = body.findings.filter((f) => f.field === "content");
    expect(inContent.map((f) => f.kind)).toEqual(samples.map((s) => s.kind));
    expect(inContent.map((f) => f.fingerprint)).toEqual(samples.map((s) => fingerprintOf(s.value)));
    expect(body.findings.some((f) => f.field === "parts" && f.turnIndex === samples.length)).toBe(true);
  });

  it("masks every answer that carries turn text, and reveals one value on request", async () => {
    const id = await threadWithSecrets();
    for (const response of [
      await api.getThread(id),
      await listTurnsRoute(jsonRequest("GET", `/api/threads/${id}/turns?limit=200`), params({ id })),
      await api.getTurn(id, 0),
      await api.chain(id),
      await api.listThreads(),
    ]) {
      const text = await response.text();
      expectNoSecret(text);
    }
    const turns = (
      await json<{ items: { id: string; content: string }[] }>(
        await listTurnsRoute(jsonRequest("GET", `/api/threads/${id}/turns?limit=200`), params({ id })),
      )
    ).items;
    expect(turns[0]!.content).toContain(`[AWS access key …${fingerprintOf(samples[0]!.value).slice(-4)}]`);
    const revealed = await json<{ value: string }>(
      await reveal(
        jsonRequest("POST", "/api/secrets/reveal", {
          threadId: id,
          turnId: turns[0]!.id,
          fingerprint: fingerprintOf(samples[0]!.value).slice(-4),
        }),
      ),
    );
    expect(revealed.value).toBe(samples[0]!.value);
  });

  it("exports losslessly by default and redacted with ?redact=1", async () => {
    const id = await threadWithSecrets();
    const lossless = await (await api.exportThread(id)).text();
    for (const sample of samples) expect(lossless).toContain(JSON.stringify(sample.value).slice(1, -1));
    const redacted = await (await api.exportThread(id, "?redact=1")).text();
    expectNoSecret(redacted);
    expect(redacted).toContain(`[REDACTED:github-token:${fingerprintOf(samples[2]!.value)}]`);
  });

  it("sends no secret to a model: chat replies and LLM summaries get the redacted text", async () => {
    const id = await threadWithSecrets();
    const reply = await sendMessage(jsonRequest("POST", `/api/threads/${id}/messages?stream=0`, { content: "What next?" }), params({ id }));
    expect(reply.status, await reply.clone().text()).toBe(201);
    await reply.text();
    const summary = await compact(
      jsonRequest("POST", `/api/threads/${id}/compactions`, { strategy: "full", summarizer: "llm" }),
      params({ id }),
    );
    expect(summary.status).toBe(200);
    expect(fake.requests.length).toBeGreaterThanOrEqual(2);
    for (const request of fake.requests) {
      const sent = JSON.stringify(request.body);
      expectNoSecret(sent);
      expect(sent).toContain("[REDACTED:");
    }
  });

  it("sends a thread's secrets to the model only once its setting is turned on, with a confirmation", async () => {
    const id = await threadWithSecrets();
    const set = (body: unknown) => putSecretSettings(jsonRequest("PUT", `/api/threads/${id}/secret-settings`, body), params({ id }));
    expect((await set({ sendToModels: true })).status).toBe(400);
    expect((await set({ sendToModels: true, confirm: true })).status).toBe(200);
    const reply = await sendMessage(jsonRequest("POST", `/api/threads/${id}/messages?stream=0`, { content: "What next?" }), params({ id }));
    expect(reply.status, await reply.clone().text()).toBe(201);
    // The answer is masked all the same; the model got the history as stored.
    expectNoSecret(await reply.text());
    expect(JSON.stringify(fake.requests.at(-1)!.body)).toContain(samples[2]!.value);
    expect((await set({ sendToModels: false })).status).toBe(200);
  });

  it("redacts in place for good, updates the counts and records it on the thread", async () => {
    const id = await threadWithSecrets();
    const before = await (await db()).thread.findUnique({ where: { id } });
    const refused = await redact(jsonRequest("POST", "/api/secrets/redact", { threadId: id }));
    expect(refused.status).toBe(400);
    const done = await json<{ redacted: number }>(
      await redact(jsonRequest("POST", "/api/secrets/redact", { threadId: id, confirm: true })),
    );
    expect(done.redacted).toBeGreaterThanOrEqual(samples.length);
    const stored = await (await db()).turn.findMany({ where: { threadId: id } });
    expectNoSecret(JSON.stringify(stored));
    expect(await (await db()).secretFinding.count({ where: { threadId: id } })).toBe(0);
    expect(await (await db()).secretRedaction.count({ where: { threadId: id } })).toBeGreaterThanOrEqual(samples.length);
    const after = await (await db()).thread.findUnique({ where: { id } });
    expect(after!.tokenEstimate).not.toBe(before!.tokenEstimate);
  });
});
