import { describe, expect, it } from "vitest";
import { apiTokenKeys } from "./api-tokens";
import { compactionKeys, type CompactionRequestBody } from "./compactions";
import { makeQueryClient } from "./query-client";
import { searchKeys } from "./search";
import { shareKeys } from "./shares";
import { sourceKeys } from "./sources";
import { threadKeys } from "./threads";

const body: CompactionRequestBody = { strategy: "full", summarizer: "extractive", options: {} };
const threadId = "0b3f4c56-1d2e-4f00-8a9b-123456789abc";

/** Every key each factory makes, beside the root it must start with. */
const families = [
  {
    root: threadKeys.all,
    keys: [
      threadKeys.list({ q: "x" }),
      threadKeys.listHeads(),
      threadKeys.listHead({}),
      threadKeys.turn("/api/threads/t/turns/1"),
      threadKeys.context(threadId, { model: "gpt-4o", contextWindow: "", mode: "exact" }),
      threadKeys.handoff(threadId, { chain: true }),
      threadKeys.reader(threadId),
      threadKeys.turnBlock(threadId, 2),
      threadKeys.outline(threadId),
      threadKeys.find(threadId, "auth"),
      threadKeys.growth(threadId, 10),
    ],
  },
  {
    root: compactionKeys.all,
    keys: [
      compactionKeys.preview(threadId, body),
      compactionKeys.job("job-1"),
      compactionKeys.latestJob(threadId),
      compactionKeys.turns(threadId, 0, 50),
    ],
  },
  { root: apiTokenKeys.all, keys: [apiTokenKeys.list()] },
  { root: searchKeys.all, keys: [searchKeys.hits("auth")] },
  { root: sourceKeys.all, keys: [sourceKeys.status()] },
  { root: shareKeys.all, keys: [shareKeys.list(null), shareKeys.list(threadId)] },
];

describe("query key factories", () => {
  it("start every key with its family's root, and no two families share a root", () => {
    for (const { root, keys } of families) for (const key of keys) expect(key.slice(0, root.length)).toEqual([...root]);
    const roots = families.map(({ root }) => JSON.stringify(root));
    expect(new Set(roots).size).toBe(roots.length);
  });

  it("let the root drop a whole family from a cache, and only that family", () => {
    const client = makeQueryClient();
    for (const { keys } of families) for (const key of keys) client.setQueryData(key, "data");
    client.removeQueries({ queryKey: compactionKeys.all });
    for (const { root, keys } of families) {
      for (const key of keys) expect(client.getQueryData(key)).toBe(root === compactionKeys.all ? undefined : "data");
    }
  });

  it("put the list's heads under one key that every filter's head starts with", () => {
    const client = makeQueryClient();
    client.setQueryData(threadKeys.listHead({ q: "a" }), 1);
    client.setQueryData(threadKeys.listHead({ tool: "Bash" }), 2);
    client.setQueryData(threadKeys.list({ q: "a" }), 3);
    expect(client.getQueriesData({ queryKey: threadKeys.listHeads() }).map(([, data]) => data)).toEqual([1, 2]);
  });

  it("tell a thread's reader queries apart from another thread's", () => {
    const other = "1c4a5d67-2e3f-4a11-9bac-23456789abcd";
    expect(threadKeys.outline(threadId).slice(0, threadKeys.reader(threadId).length)).toEqual([...threadKeys.reader(threadId)]);
    expect(threadKeys.outline(other).slice(0, threadKeys.reader(threadId).length)).not.toEqual([...threadKeys.reader(threadId)]);
  });
});

describe("makeQueryClient", () => {
  it("gives queries the app's defaults: fresh for 30 s, one retry", () => {
    expect(makeQueryClient().getDefaultOptions().queries).toMatchObject({ staleTime: 30_000, retry: 1 });
  });
});
