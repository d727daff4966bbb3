import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/engine/client";
import { ftsMatch, run } from "@/lib/db/engine/dialect";
import { searchTerms, toFtsMatch } from "@/lib/domain/threads/search";
import { newThread, newTurn } from "@/lib/testing/integration";
import { ON_POSTGRES } from "@/lib/testing/source-sync";

/** A prefix no other test writes: letters only. */
const stem = () =>
  `zq${randomUUID()
    .replace(/[^a-f]/g, "")
    .slice(0, 8)}`;

async function matchingSeqs(match: string): Promise<number[]> {
  const rows = await run<{ seq: number | bigint }[]>(
    await db(),
    "sqlite",
    `SELECT rowid AS seq FROM "TurnSearch" WHERE "TurnSearch" MATCH ? ORDER BY rowid`,
    match,
  );
  return rows.map((row) => Number(row.seq));
}

// SQLite's full-text index only: PostgreSQL matches prefixes through its GIN index (toTsQuery).
describe.skipIf(ON_POSTGRES)("ftsMatch (SQLite)", () => {
  it("asks a prefix as the OR of the index's words that start with it, and finds the same turns", async () => {
    const s = stem();
    const thread = await newThread({ toolName: "chat" });
    await newTurn(thread.id, { role: "user", content: `${s} and ${s}ing, then ${s}ed` });
    await newTurn(thread.id, { role: "assistant", content: `only ${s}ed here, and ${s}日本 too` });
    await newTurn(thread.id, { role: "assistant", content: `x${s} is no word that starts with it` });
    await newTurn(thread.id, { role: "user", content: `${s.slice(0, -1)} is shorter` });

    const match = await ftsMatch(await db(), [s]);
    expect(match).toBe(`("${s}" OR "${s}ed" OR "${s}ing" OR "${s}日本")`);
    const seqs = await matchingSeqs(match);
    expect(seqs).toHaveLength(2);
    expect(seqs).toEqual(await matchingSeqs(toFtsMatch([s])));
  });

  it("joins terms with AND, each asked its own way", async () => {
    const [a, b] = [stem(), stem()];
    const thread = await newThread({ toolName: "chat" });
    await newTurn(thread.id, { role: "user", content: `${a}one with ${b}` });
    await newTurn(thread.id, { role: "user", content: `${a}two alone` });
    const terms = searchTerms(`${a} ${b} on`);
    const match = await ftsMatch(await db(), terms);
    // "on" is short: a whole word, as toFtsMatch has it (and absent here).
    expect(match).toBe(`("${a}one" OR "${a}two") AND ("${b}") AND "on"`);
    expect(await matchingSeqs(match)).toEqual(await matchingSeqs(toFtsMatch(terms)));
  });

  it("keeps the prefix form without words to name, with too many, and for a term the tokenizer may fold", async () => {
    const s = stem();
    const thread = await newThread({ toolName: "chat" });
    // 65 words that start with the stem: one more than are named.
    await newTurn(thread.id, { role: "user", content: Array.from({ length: 65 }, (_, i) => `${s}w${i}`).join(" ") });
    await newTurn(thread.id, { role: "user", content: `Café crème for ${s}` });
    const client = await db();
    expect(await ftsMatch(client, [s])).toBe(`"${s}"*`);
    expect(await matchingSeqs(await ftsMatch(client, [s]))).toHaveLength(2);
    expect(await ftsMatch(client, [stem()])).toMatch(/^"zq[a-f]*"\*$/);
    // The index holds "cafe": a term with a diacritic keeps its prefix form, which the tokenizer folds too.
    const [cafe] = searchTerms("Café");
    expect(await ftsMatch(client, [cafe!])).toBe(`"café"*`);
    expect(await matchingSeqs(await ftsMatch(client, [cafe!]))).toEqual(await matchingSeqs(await ftsMatch(client, ["cafe"])));
  });
});
