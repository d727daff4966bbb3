/** Support for the export and import API tests: threadline/v1 documents, built and moved through the API. */
import { expect } from "vitest";
import type { Thread } from "@/lib/domain/types";
import { json } from "./api";
import { api, newThread, newTurn } from "./integration";

export type ImportResult = { threadIds: string[]; turnCount: number; warnings: string[] };
export type NativeDoc = { format: string; threads: (Record<string, unknown> & { id: string; turns: Record<string, unknown>[] })[] };

/** A chain of three threads using every stored field the API can write. */
export async function buildRichChain(): Promise<Thread[]> {
  const root = await newThread({
    toolName: "consensus",
    initialContext: {
      prompt: "Décide: REST or gRPC? 🤔",
      models: [
        { model: "gpt-5", stance: "for" },
        { model: "gemini-2.5-pro", stance: "against" },
      ],
      nested: { deep: { deeper: [1, 2.5, -3, true, null, "ß"] } },
      empty: {},
    },
  });
  await newTurn(root.id, {
    role: "user",
    content: 'Compare REST and gRPC for our 内部 services 🚀\nLine two\twith a tab, "quotes" and \\backslashes\\.',
    files: ["/repo/api/server.ts", "/repo/docs/ADR-7 design (final).md"],
    images: ["/tmp/diagram 1.png"],
    toolName: "consensus",
    fileSnapshots: [{ path: "/repo/api/server.ts", content: "export const server = 1;\n// 内部 ✅\n" }],
  });
  await newTurn(root.id, {
    role: "assistant",
    content: "gRPC wins on latency. ✅",
    toolName: "consensus",
    modelProvider: "openai",
    modelName: "gpt-5",
    modelMetadata: {
      thinking_mode: "high",
      usage: { input_tokens: 1234, output_tokens: 567, details: { cached: [0, 12] } },
      temperature: 0.2,
    },
    parts: [
      { type: "thinking", text: "Weigh HTTP/2 multiplexing…", signature: "sig==" },
      { type: "tool_call", id: "call_1", name: "read_file", arguments: { path: "/repo/api/server.ts", lines: [1, 40] } },
      { type: "tool_result", toolCallId: "call_1", content: { text: "export const server = …", truncated: false }, isError: false },
      { type: "text", text: "gRPC wins on latency. ✅" },
      { type: "image", path: "/tmp/diagram 1.png", mediaType: "image/png", alt: "diagram" },
    ],
  });
  const middle = await newThread({ toolName: "codereview", parentThreadId: root.id, title: "Follow-up: review the proto files" });
  await newTurn(middle.id, { role: "user", content: "Review these protos", files: ["/repo/proto/a.proto"] });
  await newTurn(middle.id, {
    role: "assistant",
    content: "Zoë says: 👩‍👩‍👧 family emoji, RTL مرحبا, combining é",
    modelProvider: "google",
    modelName: "gemini-2.5-pro",
    modelMetadata: { safety: [{ category: "HARM", probability: "LOW" }] },
    parts: [{ type: "tool_result", toolCallId: "x", content: ["a", 1, null], isError: true, extra: { kept: "yes" } }],
  });
  const leaf = await newThread({ toolName: "chat", parentThreadId: middle.id });
  await newTurn(leaf.id, { role: "system", content: "" });
  await newTurn(leaf.id, { role: "tool", content: "tool output\u0000with a NUL", toolName: "shell" });
  await newTurn(leaf.id, { role: "user", content: "Thanks! 🙏" });
  return [root, middle, leaf];
}

/** A thread (or with ?chain=1 its chain) exported as threadline/v1 text (fails the test on any other status). */
export async function exportText(id: string, query = ""): Promise<string> {
  const response = await api.exportThread(id, query);
  expect(response.status, await response.clone().text()).toBe(200);
  return response.text();
}

/** Imports through POST /api/import and returns the result (fails the test on any other status than 201). */
export async function importOk(body: unknown, query = ""): Promise<ImportResult> {
  const response = await api.importDocuments(body, query);
  expect(response.status, await response.clone().text()).toBe(201);
  return json<ImportResult>(response);
}

/** A small valid document; ids are fresh unless given. */
export function nativeDocument(threads: Partial<NativeDoc["threads"][number]>[]): NativeDoc {
  return {
    format: "threadline/v1",
    threads: threads.map((thread) => ({
      id: crypto.randomUUID(),
      toolName: "chat",
      createdAt: "2025-01-01T10:00:00.000Z",
      lastUpdatedAt: "2025-01-01T11:00:00.000Z",
      expiresAt: null,
      turns: [
        { id: crypto.randomUUID(), role: "user", content: "hello", timestamp: "2025-01-01T10:00:00.000Z" },
        { id: crypto.randomUUID(), role: "assistant", content: "hi there", timestamp: "2025-01-01T10:05:00.000Z", modelName: "m1" },
      ],
      ...thread,
    })),
  };
}
