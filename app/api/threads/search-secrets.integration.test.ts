import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { GET as findRoute } from "@/app/api/threads/[id]/find/route";
import { db } from "@/lib/db/engine/client";
import { databaseKind } from "@/lib/db/engine/create-client";
import { forkThread } from "@/lib/db/threads/forks";
import { secretSamples } from "@/lib/domain/testing/secret-samples";
import { scanForSecrets } from "@/lib/secrets/scan";
import { json, jsonRequest, params } from "@/lib/testing/api";
import { api, newThread, newTurn } from "@/lib/testing/integration";

/**
 * Search must not be an oracle for a masked secret: a probe grew `AKIA` one character at a time
 * through the list's search (a word prefix in turns, a substring in titles) and recovered a whole
 * key in 215 requests. Here the same attack runs against every way turns and titles are written,
 * through the list's search and find in thread.
 */

const [awsKey, githubToken] = ["aws-access-key", "github-token"].map((kind) => secretSamples(5).find((s) => s.kind === kind)!);
const ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789_";

async function listed(q: string): Promise<string[]> {
  const response = await api.listThreads({ q, limit: "100" });
  expect(response.status).toBe(200);
  return (await json<{ items: { id: string }[] }>(response)).items.map((item) => item.id);
}

async function foundIn(threadId: string, q: string): Promise<number[]> {
  const response = await findRoute(
    jsonRequest("GET", `/api/threads/${threadId}/find?q=${encodeURIComponent(q)}`),
    params({ id: threadId }),
  );
  expect(response.status).toBe(200);
  return (await json<{ indexes: number[] }>(response)).indexes;
}

/**
 * The attacker's loop: from a prefix everyone knows (the rule's), add the character whose query
 * still finds the target, until none does. Answers what it recovered, lower-cased as search reads it.
 */
async function prefixAttack(known: string, finds: (q: string) => Promise<boolean>): Promise<string> {
  let recovered = known.toLowerCase();
  for (let step = 0; step < 64; step++) {
    let next: string | null = null;
    for (const c of ALPHABET) {
      if (await finds(recovered + c)) {
        next = c;
        break;
      }
    }
    if (next === null) break;
    recovered += next;
  }
  return recovered;
}

/** Every way a turn and a title get written, each holding both secrets: ids of the threads. */
async function threadsHoldingSecrets(): Promise<{ name: string; id: string; secretTurn: number }[]> {
  const marker = `seal${randomUUID().slice(0, 8)}`;
  const text = `${marker} ${awsKey!.line(awsKey!.value)} and ${githubToken!.line(githubToken!.value)}`;

  // Appended through the API: the first user turn gives the thread its title.
  const appended = await newThread({ toolName: "chat" });
  await newTurn(appended.id, { role: "user", content: text });
  await newTurn(appended.id, { role: "assistant", content: `${marker} noted` });

  // A Threadline document (bulk insert, title as given).
  const documentId = randomUUID();
  const now = new Date().toISOString();
  const imported = await api.importDocuments({
    format: "threadline/v1",
    threads: [
      {
        id: documentId,
        title: `Deploy with ${awsKey!.value}`,
        toolName: "chat",
        createdAt: now,
        lastUpdatedAt: now,
        turns: [
          { id: randomUUID(), role: "user", content: `${marker} please`, timestamp: now },
          { id: randomUUID(), role: "assistant", content: text, timestamp: now },
        ],
      },
    ],
  });
  expect(imported.status).toBe(201);

  // A transcript through the import writer (a role/content list; its title comes from the prompt).
  const transcript = await api.importDocuments(
    [
      { role: "user", content: text },
      { role: "assistant", content: `${marker} done` },
    ],
    `?name=${marker}.json`,
  );
  expect(transcript.status, await transcript.clone().text()).toBe(201);
  // Not masked in the answer (a report of what was imported), so as not to hide the id.
  const transcriptId = (await json<{ threadIds: string[] }>(transcript)).threadIds[0]!;

  // A fork (derived threads: bulk insert, title from the source's).
  const { thread: fork } = await forkThread(appended.id, 1, null);
  return [
    { name: "appended", id: appended.id, secretTurn: 0 },
    { name: "document", id: documentId, secretTurn: 1 },
    { name: "transcript", id: transcriptId, secretTurn: 0 },
    { name: "fork", id: fork.id, secretTurn: 0 },
  ];
}

describe("search over what people may see", () => {
  it("recovers nothing of a secret by growing a query one character at a time", { timeout: 120_000 }, async () => {
    const threads = await threadsHoldingSecrets();
    for (const thread of threads) {
      // The turn is found by its other words (the attack below would find it if it could).
      expect(await foundIn(thread.id, "noted done please seal"), thread.name).toEqual([]);
      expect(await foundIn(thread.id, "aws access key"), thread.name).toContain(thread.secretTurn);
      for (const secret of [awsKey!, githubToken!]) {
        const known = secret.value.slice(0, 4);
        const inList = await prefixAttack(known, async (q) => (await listed(q)).includes(thread.id));
        expect(inList, `${thread.name}: the list's search gave away part of a ${secret.kind}`).toBe(known.toLowerCase());
        const inThread = await prefixAttack(known, async (q) => (await foundIn(thread.id, q)).length > 0);
        expect(inThread, `${thread.name}: find in thread gave away part of a ${secret.kind}`).toBe(known.toLowerCase());
      }
      // Nor is any longer piece of either found, by title or by words.
      for (const secret of [awsKey!, githubToken!]) {
        for (const piece of [secret.value.slice(0, 12), secret.value.slice(4, 16), secret.value.slice(-10)]) {
          expect(await listed(piece), `${thread.name}: ${secret.kind} piece`).not.toContain(thread.id);
          expect(await foundIn(thread.id, piece), `${thread.name}: ${secret.kind} piece`).toEqual([]);
        }
      }
    }
  });

  it("still finds the words around a secret, and the secret's own label", async () => {
    const [appended] = await threadsHoldingSecrets();
    expect(await listed("export aws_access_key_id")).toContain(appended!.id);
    expect(await listed("git clone")).toContain(appended!.id);
    // The masked copy is what search reads: the mask's label is a word like any other.
    expect(await foundIn(appended!.id, "GitHub token")).toEqual([0]);
  });

  it("hides what was stored before the masked copies until the scan has written them, then finds only the masked text", async () => {
    const [appended] = await threadsHoldingSecrets();
    const client = await db();
    const key = awsKey!.value.slice(0, 10);
    // As the migration leaves a database written before: the copies hidden ("") and the scan to do.
    await client.turn.updateMany({ where: { threadId: appended!.id }, data: { searchContent: "" } });
    await client.thread.update({ where: { id: appended!.id }, data: { searchTitle: "" } });
    await client.appSetting.upsert({
      where: { key: "search.hiddenUntilMasked" },
      create: { key: "search.hiddenUntilMasked", value: "pending" },
      update: {},
    });
    expect(await listed(key)).not.toContain(appended!.id);
    expect(await listed("export")).not.toContain(appended!.id);

    await scanForSecrets();
    expect(await listed("export")).toContain(appended!.id);
    expect(await listed(key)).not.toContain(appended!.id);
    expect(await client.appSetting.findUnique({ where: { key: "search.hiddenUntilMasked" } })).toBeNull();
    const stored = await client.turn.findMany({
      where: { threadId: appended!.id },
      orderBy: { index: "asc" },
      select: { searchContent: true },
    });
    expect(stored.map((t) => t.searchContent === null)).toEqual([false, true]);
  });

  it("masks a turn for search when the scan finds a secret a write left unmasked", async () => {
    const [appended] = await threadsHoldingSecrets();
    const client = await db();
    const key = awsKey!.value.slice(0, 10);
    // A write that forgot the masked copy: search reads the content itself.
    await client.turn.updateMany({ where: { threadId: appended!.id }, data: { searchContent: null } });
    expect(await listed(key)).toContain(appended!.id);
    const kind = databaseKind(client);
    // Scanned again from the start, as after a restart.
    await client.appSetting.deleteMany({ where: { key: "secrets.scannedSeq" } });
    await scanForSecrets();
    expect(await listed(key), kind).not.toContain(appended!.id);
    expect(await listed("export")).toContain(appended!.id);
  });
});
