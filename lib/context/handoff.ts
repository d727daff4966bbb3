import "server-only";
import { unknownModel } from "@/lib/context/build-context";
import { AppError } from "@/lib/domain/errors";
import { orchestratorHandoff, type HandoffAnswer, type HandoffInput } from "@/lib/domain/history/handoff";
import { findModel } from "@/lib/models/catalog";
import { countTexts } from "@/lib/tokenizers/background-counter";
import { DEFAULT_TOKENIZER_ID, getTokenizer } from "@/lib/tokenizers/registry";
import type { HandoffQuery } from "@/lib/validation/handoff";
import { db } from "../db/engine/client";
import { listCustomModels } from "../db/settings/custom-models";
import { getChainThreads, getThread } from "../db/threads/threads";

/**
 * A thread (or its chain, oldest first) handed over as the orchestrator seed's conversation
 * history (lib/domain/history/handoff.ts). `protect` replaces the secrets in each turn's content before it
 * is validated and cut: masks for people, redactions for agents, and never half a secret left at a cut.
 */
export async function threadHandoff(threadId: string, query: HandoffQuery, protect: (text: string) => string): Promise<HandoffAnswer> {
  const threads = query.chain ? await getChainThreads(threadId) : [await getThread(threadId)];
  const client = await db();
  const rows = await client.turn.findMany({
    where: { threadId: { in: threads.map((t) => t.id) } },
    select: { threadId: true, index: true, role: true, content: true },
    orderBy: [{ threadId: "asc" }, { index: "asc" }],
  });
  const order = new Map(threads.map((t, i) => [t.id, i]));
  rows.sort((a, b) => order.get(a.threadId)! - order.get(b.threadId)! || a.index - b.index);
  const total = rows.length;
  const from = query.from ?? 1;
  const to = query.to ?? total;
  if (total > 0 && from > total) throw outOfRange("from", `must be at most ${total}, the number of turns`);
  if (to > total) throw outOfRange("to", `must be at most ${total}, the number of turns`);
  const inputs: HandoffInput[] = rows
    .slice(from - 1, to)
    .map((row) => ({ role: row.role, content: protect(row.content), threadId: row.threadId, turnIndex: row.index }));
  const handoff = orchestratorHandoff(inputs);
  const answer: HandoffAnswer = { format: "orchestrator", ...handoff, range: { from: total === 0 ? 0 : from, to, total } };
  if (query.model) {
    const custom = await listCustomModels();
    const model = findModel(query.model, custom);
    if (!model) throw unknownModel(query.model, custom);
    const counter = getTokenizer(model.tokenizer ?? DEFAULT_TOKENIZER_ID);
    const [counted] = await countTexts(counter.id, [handoff.text]);
    answer.tokens = { tokenizer: counter.id, count: counted!.tokens, exact: counter.exact && !counted!.estimated };
  }
  return answer;
}

function outOfRange(field: "from" | "to", message: string): AppError {
  return new AppError("validation_failed", `${field}: ${message}`, [{ field, message }]);
}
