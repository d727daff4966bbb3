import "server-only";
import { detectSecrets, redactionFor, searchableTurnText, turnTexts, type SecretMatch } from "@/lib/domain/secrets/detect";
import type { SecretKind } from "@/lib/domain/secrets/rules";
import { AppError } from "@/lib/domain/errors";
import { estimateTokens } from "@/lib/domain/tokens/tokens";
import { mayRead, type Reader } from "@/lib/domain/access";
import { db } from "../engine/client";
import { readableWhere } from "../engine/readable";
import { turnsAfter, type ScanRow } from "./dialect-secrets";
import { partsFromStored, storedParts } from "../engine/mappers";
import { threadsWritten } from "../threads/thread-writes";
import { WRITE_TRANSACTION } from "../engine/transactions";
import { SCAN_CURSOR_KEY as CURSOR_KEY } from "./scan-cursor";

/**
 * Findings of secrets in stored turns (lib/domain/secrets finds them): written by the scan that
 * follows writes of turns and backfills older ones (lib/secrets/scan.ts), listed by /api/secrets,
 * and removed with their text by a redaction in place. A finding holds a short hash of the
 * secret, never the value.
 */

export type SecretFindingRow = {
  id: number;
  threadId: string;
  threadTitle: string | null;
  turnId: string;
  turnIndex: number;
  field: string;
  kind: SecretKind;
  rules: string[];
  fingerprint: string;
  foundAt: string;
};

type ScannedTurn = ScanRow;

/** How far the scan has come: the last turn seq it scanned, and the last there is. */
export async function scanProgress(): Promise<{ scannedSeq: number; lastSeq: number; findings: number }> {
  const client = await db();
  const [cursor, last, findings] = await Promise.all([
    client.appSetting.findUnique({ where: { key: CURSOR_KEY } }),
    client.turn.aggregate({ _max: { seq: true } }),
    client.secretFinding.count(),
  ]);
  return { scannedSeq: Number(cursor?.value ?? 0), lastSeq: last._max.seq ?? 0, findings };
}

/** Where the scan stopped: the last turn seq it scanned (0 before it first ran). */
export async function scanCursor(): Promise<number> {
  return Number((await (await db()).appSetting.findUnique({ where: { key: CURSOR_KEY } }))?.value ?? 0);
}

/**
 * The next turns the scan has not read, after seq `after` (its cursor), in seq order: at most
 * `maxTurns` and about `maxBytes` of text (at least one turn); `full` when more may follow.
 */
export async function turnsToScan(
  after: number,
  batch: { maxTurns: number; maxBytes: number },
): Promise<{ turns: ScannedTurn[]; full: boolean }> {
  return turnsAfter(await db(), after, batch.maxTurns, batch.maxBytes);
}

/** Records what the scan found in turns up to `throughSeq` and moves the cursor there, at once. */
export async function recordScan(
  throughSeq: number,
  found: { turn: Pick<ScannedTurn, "seq" | "id" | "threadId" | "index">; field: string; match: SecretMatch }[],
): Promise<void> {
  const client = await db();
  const now = new Date();
  await client.$transaction(async (tx) => {
    if (found.length > 0) {
      await tx.secretFinding.deleteMany({ where: { turnSeq: { in: [...new Set(found.map((f) => f.turn.seq))] } } });
      await tx.secretFinding.createMany({
        data: found.map(({ turn, field, match }) => ({
          threadId: turn.threadId,
          turnSeq: turn.seq,
          turnId: turn.id,
          turnIndex: turn.index,
          field,
          kind: match.kind,
          rules: match.rules.join(","),
          start: match.start,
          end: match.end,
          fingerprint: match.fingerprint,
          foundAt: now,
        })),
      });
    }
    await tx.appSetting.upsert({
      where: { key: CURSOR_KEY },
      create: { key: CURSOR_KEY, value: String(throughSeq) },
      update: { value: String(throughSeq) },
    });
  }, WRITE_TRANSACTION);
}

/**
 * Findings across threads, paged by id: an admin's, every thread's (the title of a thread they may
 * not read left out); anyone else's, those of the threads they may read.
 */
export async function listSecretFindings(
  query: {
    threadId?: string;
    cursor?: number;
    limit: number;
  },
  reader: Reader,
): Promise<{ findings: SecretFindingRow[]; nextCursor: number | null; total: number }> {
  const client = await db();
  const where = {
    ...(query.threadId ? { threadId: query.threadId } : {}),
    ...(reader && reader.role !== "admin" ? { turn: { thread: readableWhere(reader) } } : {}),
  };
  const [rows, total] = await Promise.all([
    client.secretFinding.findMany({
      where: { ...where, ...(query.cursor ? { id: { gt: query.cursor } } : {}) },
      orderBy: { id: "asc" },
      take: query.limit + 1,
    }),
    client.secretFinding.count({ where }),
  ]);
  const page = rows.slice(0, query.limit);
  const titles = new Map(
    (
      await client.thread.findMany({
        where: { id: { in: [...new Set(page.map((r) => r.threadId))] } },
        select: { id: true, title: true, ownerId: true, visibility: true },
      })
    ).map((t) => [t.id, mayRead(reader, t) ? t.title : null]),
  );
  return {
    findings: page.map((r) => ({
      id: r.id,
      threadId: r.threadId,
      threadTitle: titles.get(r.threadId) ?? null,
      turnId: r.turnId,
      turnIndex: r.turnIndex,
      field: r.field,
      kind: r.kind as SecretKind,
      rules: r.rules.split(","),
      fingerprint: r.fingerprint,
      foundAt: r.foundAt.toISOString(),
    })),
    nextCursor: rows.length > query.limit ? page.at(-1)!.id : null,
    total,
  };
}

export async function threadFindingCount(threadId: string): Promise<number> {
  return (await db()).secretFinding.count({ where: { threadId } });
}

/** The value of the secret with this fingerprint in this turn (for a reveal), or null. */
export async function secretValue(threadId: string, turnId: string, fingerprint: string): Promise<string | null> {
  const turn = await (
    await db()
  ).turn.findFirst({
    where: { threadId, id: turnId },
    select: { content: true, parts: true, snapshots: { select: { position: true, content: true } } },
  });
  if (!turn) return null;
  for (const [, text] of turnTexts(turn)) {
    for (const m of detectSecrets(text)) if (m.fingerprint.endsWith(fingerprint)) return text.slice(m.start, m.end);
  }
  return null;
}

/**
 * Redacts secrets in place, for good: the turn's content, parts and snapshots get the redaction
 * marker instead (every secret of the turn with this fingerprint, or every secret when
 * `fingerprint` is null), its estimate is counted again, its stored tokenizer counts go (they
 * are counted again when asked for), and each redaction is recorded on the thread.
 */
export async function redactInPlace(
  threadId: string,
  target: { turnId: string; fingerprint: string | null } | null,
): Promise<{ redacted: number }> {
  const client = await db();
  const turnIds = target
    ? [target.turnId]
    : [...new Set((await client.secretFinding.findMany({ where: { threadId }, select: { turnId: true } })).map((f) => f.turnId))];
  if (turnIds.length === 0) throw new AppError("not_found", `Thread ${threadId} has no secret to redact.`);
  let redacted = 0;
  await client.$transaction(async (tx) => {
    for (const turnId of turnIds) {
      const turn = await tx.turn.findFirst({
        where: { threadId, id: turnId },
        select: { seq: true, content: true, parts: true, tokenEstimate: true, snapshots: { select: { position: true, content: true } } },
      });
      if (!turn) continue;
      const pick = (m: SecretMatch) => target?.fingerprint == null || m.fingerprint === target.fingerprint;
      const done: SecretMatch[] = [];
      const redact = (text: string) => {
        let out = "";
        let at = 0;
        for (const m of detectSecrets(text).filter(pick)) {
          out += text.slice(at, m.start) + redactionFor(m);
          at = m.end;
          done.push(m);
        }
        return out + text.slice(at);
      };
      const content = redact(turn.content);
      // Parts are redacted as values (each string), so their JSON stays valid.
      const redactedParts =
        turn.parts === null ? null : (redactStrings(partsFromStored(turn.parts, turn.content), redact) as { type: string }[]);
      const parts = redactedParts === null ? null : storedParts(redactedParts, content);
      const tokenEstimate = estimateTokens(content);
      // A secret the redaction left (another fingerprint) stays masked for search.
      await tx.turn.update({
        where: { seq: turn.seq },
        data: { content, searchContent: searchableTurnText(content, redactedParts), parts, tokenEstimate },
      });
      for (const s of turn.snapshots)
        await tx.fileSnapshot.update({
          where: { turnSeq_position: { turnSeq: turn.seq, position: s.position } },
          data: { content: redact(s.content) },
        });
      await tx.turnTokenCount.deleteMany({ where: { turnSeq: turn.seq } });
      await tx.thread.update({ where: { id: threadId }, data: { tokenEstimate: { increment: tokenEstimate - turn.tokenEstimate } } });
      // Estimated usage counts the turns before a response: the thread's usage is summed again.
      await tx.usageThread.updateMany({ where: { threadId }, data: { turnCount: -1 } });
      await tx.secretFinding.deleteMany({
        where: { turnSeq: turn.seq, ...(target?.fingerprint ? { fingerprint: target.fingerprint } : {}) },
      });
      const unique = [...new Map(done.map((m) => [m.fingerprint, m])).values()];
      if (unique.length > 0)
        await tx.secretRedaction.createMany({
          data: unique.map((m) => ({ threadId, turnId, kind: m.kind, fingerprint: m.fingerprint, redactedAt: new Date() })),
        });
      redacted += unique.length;
    }
  }, WRITE_TRANSACTION);
  threadsWritten([threadId]);
  return { redacted };
}

function redactStrings(value: unknown, redact: (s: string) => string): unknown {
  if (typeof value === "string") return redact(value);
  if (Array.isArray(value)) return value.map((v) => redactStrings(v, redact));
  if (value !== null && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redactStrings(v, redact)]));
  return value;
}

const sendKey = (threadId: string) => `secrets.sendToModels:${threadId}`;

/** The thread's setting: true when its secrets go to models as they are (off unless turned on). */
export async function threadSendsSecrets(threadId: string): Promise<boolean> {
  return (await (await db()).appSetting.findUnique({ where: { key: sendKey(threadId) } }))?.value === "on";
}

export async function setThreadSendsSecrets(threadId: string, on: boolean): Promise<void> {
  const client = await db();
  if (on)
    await client.appSetting.upsert({
      where: { key: sendKey(threadId) },
      create: { key: sendKey(threadId), value: "on" },
      update: { value: "on" },
    });
  else await client.appSetting.deleteMany({ where: { key: sendKey(threadId) } });
}
