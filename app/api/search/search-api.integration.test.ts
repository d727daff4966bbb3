import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { GET as searchRoute } from "@/app/api/search/route";
import { db } from "@/lib/db/engine/client";
import { databaseKind } from "@/lib/db/engine/create-client";
import { secretSamples } from "@/lib/domain/testing/secret-samples";
import { scanForSecrets } from "@/lib/secrets/scan";
import { json, jsonRequest } from "@/lib/testing/api";
import { newThread, newTurn } from "@/lib/testing/integration";

type Hit = {
  threadId: string;
  threadTitle: string | null;
  turnId: string;
  turnIndex: number;
  role: string;
  snippet: string;
  highlights: [number, number][];
};
type Page = { items: Hit[]; nextCursor: string | null };

const search = (query: string) => searchRoute(jsonRequest("GET", `/api/search${query}`));

async function hits(q: string, extra = ""): Promise<Page> {
  const response = await search(`?q=${encodeURIComponent(q)}${extra}`);
  expect(response.status, await response.clone().text()).toBe(200);
  return json<Page>(response);
}

/** A word no other test writes: letters only, so it is one word to both databases. */
function word(): string {
  return `zq${randomUUID()
    .replace(/[^a-f]/g, "")
    .slice(0, 10)}`;
}

/** The highlighted pieces of a hit's snippet, lower-cased. */
function marked(hit: Hit): string[] {
  return hit.highlights.map(([start, end]) => hit.snippet.slice(start, end).toLowerCase());
}

describe("GET /api/search", () => {
  it("answers the turns that match with a snippet, the matches' offsets in it and the 1-based turn number", async () => {
    const w = word();
    const thread = await newThread({ toolName: "chat", title: `Search ${w}` });
    await newTurn(thread.id, { role: "user", content: "Nothing to find in the first turn." });
    await newTurn(thread.id, {
      role: "assistant",
      content: `The session drops after a refresh because ${w}Cookie expires before the ${w} token is renewed.`,
    });

    const page = await hits(w);
    expect(page.items).toHaveLength(1);
    const [hit] = page.items;
    expect(hit).toMatchObject({ threadId: thread.id, threadTitle: `Search ${w}`, turnIndex: 2, role: "assistant" });
    expect(hit!.snippet).toContain("session drops after a refresh");
    // A prefix matches the longer word as the list's search does; each highlight is one match.
    expect(marked(hit!)).toEqual([`${w}cookie`, w]);
    expect(page.nextCursor).toBeNull();
  });

  it("finds words in tool call arguments and tool outputs the content does not hold", async () => {
    const [inArgs, inOutput] = [word(), word()];
    const thread = await newThread({ toolName: "chat" });
    await newTurn(thread.id, { role: "user", content: "List the files" });
    await newTurn(thread.id, {
      role: "assistant",
      content: "Running it.",
      parts: [
        { type: "text", text: "Running it." },
        { type: "tool_call", id: "call-1", name: "bash", arguments: { command: `grep -rn ${inArgs} src/` } },
      ],
    });
    await newTurn(thread.id, {
      role: "tool",
      content: "(output)",
      parts: [{ type: "tool_result", toolCallId: "call-1", content: `src/a.ts:12: const ${inOutput} = 1;\nsrc/b.ts:3: export {}` }],
    });

    const [call] = (await hits(inArgs)).items;
    expect(call).toMatchObject({ threadId: thread.id, turnIndex: 2, role: "assistant" });
    expect(call!.snippet).toContain("grep -rn");
    expect(marked(call!)).toEqual([inArgs]);
    const [output] = (await hits(inOutput)).items;
    expect(output).toMatchObject({ threadId: thread.id, turnIndex: 3, role: "tool" });
    expect(marked(output!)).toEqual([inOutput]);
  });

  it("ranks the best hits first and pages through every hit once", async () => {
    const w = word();
    const thread = await newThread({ toolName: "chat" });
    const filler = "and then the reader went on through a long paragraph about other things entirely ".repeat(6);
    await newTurn(thread.id, { role: "user", content: `${filler} ${w}` });
    for (let i = 0; i < 5; i++) await newTurn(thread.id, { role: "assistant", content: `${filler} reply ${i} mentions ${w} once` });
    await newTurn(thread.id, { role: "user", content: `${w} ${w} ${w}` });

    const first = await hits(w, "&limit=3");
    // The short turn that is all matches beats the long ones that mention the word once.
    expect(first.items[0]!.turnIndex).toBe(7);
    expect(first.nextCursor).not.toBeNull();
    const seen = [...first.items];
    let cursor = first.nextCursor;
    while (cursor) {
      const page = await hits(w, `&limit=3&cursor=${cursor}`);
      seen.push(...page.items);
      cursor = page.nextCursor;
    }
    expect(seen.map((hit) => hit.turnIndex).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(new Set(seen.map((hit) => hit.turnId)).size).toBe(7);
  });

  it("takes up to 100 hits a page, 20 when not told", async () => {
    const w = word();
    const thread = await newThread({ toolName: "chat" });
    for (let i = 0; i < 22; i++) await newTurn(thread.id, { role: i % 2 === 0 ? "user" : "assistant", content: `turn ${i} says ${w}` });
    expect((await hits(w)).items).toHaveLength(20);
    const all = await hits(w, "&limit=100");
    expect(all.items).toHaveLength(22);
    expect(all.nextCursor).toBeNull();
  });

  it("refuses a missing or empty q, a bad limit and a cursor it did not issue, naming the parameter", async () => {
    const cases: [string, string][] = [
      ["", "q"],
      ["?q=", "q"],
      ["?q=%20%20", "q"],
      ["?q=%21%3F", "q"],
      ["?q=a&q=b", "q"],
      ["?q=deploy&limit=101", "limit"],
      ["?q=deploy&limit=0", "limit"],
      ["?q=deploy&limit=1e1", "limit"],
      ["?q=deploy&limit=010", "limit"],
      ["?q=deploy&cursor=not-a-cursor", "cursor"],
      [`?q=deploy&cursor=${Buffer.from("hit:NaN|1").toString("base64url")}`, "cursor"],
    ];
    for (const [query, field] of cases) {
      const response = await search(query);
      expect(response.status, query).toBe(400);
      const body = await json<{ error: { code: string; message: string; details: { field: string }[] } }>(response);
      expect(body.error.code, query).toBe("validation_failed");
      expect(body.error.message.startsWith(`${field}:`), `${query}: ${body.error.message}`).toBe(true);
      expect(body.error.details[0]!.field, query).toBe(field);
    }
  });

  it("cuts the snippet around a match deep in a long text, and past a look-alike that is not a match", async () => {
    const w = word();
    const thread = await newThread({ toolName: "chat" });
    // Multi-byte filler before the match: the snippet is cut by characters, not bytes.
    const deep = `${"Ünïcödé fïllér wörds without the term. ".repeat(2_500)}The ${w} happened here at last. ${"Trailing words. ".repeat(100)}`;
    await newTurn(thread.id, { role: "user", content: deep });
    // PostgreSQL's parser reads a URL's path as one word ("/…page"), which its search does not
    // match; the snippet still comes from the match further on.
    const lookAlike = `Logs at http://example.com/${w}page today. ${"Filler words without the term. ".repeat(100)}Then ${w} broke the build.`;
    await newTurn(thread.id, { role: "assistant", content: lookAlike });

    const page = await hits(w);
    const [first, second] = [1, 2].map((turnIndex) => page.items.find((hit) => hit.turnIndex === turnIndex));
    expect(first?.snippet).toContain(`The ${w} happened here`);
    expect(first!.snippet.length).toBeLessThan(400);
    expect(marked(first!)).toEqual([w]);
    expect(second, JSON.stringify(page.items)).toBeDefined();
    expect(marked(second!).length).toBeGreaterThan(0);
    for (const mark of marked(second!)) expect(mark.startsWith(w)).toBe(true);
    if (databaseKind(await db()) === "postgres") expect(second!.snippet).toContain(`${w} broke the build`);
  });

  it("cuts snippets from the masked text: a secret near a match shows as its mask, never its value", async () => {
    const aws = secretSamples(5).find((s) => s.kind === "aws-access-key")!;
    const w = word();
    const thread = await newThread({ toolName: "chat" });
    await newTurn(thread.id, { role: "user", content: `Deploy ${w} with ${aws.line(aws.value)} then restart` });
    await newTurn(thread.id, {
      role: "assistant",
      content: "Checking.",
      parts: [{ type: "tool_call", id: "call-env", name: "bash", arguments: { command: `env ${w}`, output: aws.line(aws.value) } }],
    });
    const page = await hits(w);
    expect(page.items).toHaveLength(2);
    for (const hit of page.items) {
      expect(hit.snippet).toContain("[AWS access key …");
      expect(hit.snippet).not.toContain(aws.value);
      expect(hit.snippet).not.toContain(aws.value.slice(0, 10));
      expect(marked(hit)).toEqual([w]);
    }
    // Nor does a piece of the key find anything.
    expect((await hits(aws.value.slice(0, 12))).items.filter((hit) => hit.threadId === thread.id)).toEqual([]);
  });

  it("reads the tool text of turns stored before search read it once the scan has written their copy", async () => {
    const w = word();
    const thread = await newThread({ toolName: "chat" });
    await newTurn(thread.id, {
      role: "assistant",
      content: "Calling.",
      parts: [{ type: "tool_call", id: "c", name: "bash", arguments: { command: `ls ${w}` } }],
    });
    const client = await db();
    // As the migration leaves a turn with tool parts: hidden ("") until the scan writes its copy.
    await client.turn.updateMany({ where: { threadId: thread.id }, data: { searchContent: "" } });
    await client.appSetting.upsert({
      where: { key: "search.hiddenUntilMasked" },
      create: { key: "search.hiddenUntilMasked", value: "pending" },
      update: {},
    });
    expect((await hits(w)).items).toEqual([]);
    await scanForSecrets();
    const [hit] = (await hits(w)).items;
    expect(hit, databaseKind(client)).toMatchObject({ threadId: thread.id, turnIndex: 1 });
    expect(marked(hit!)).toEqual([w]);
  });
});
