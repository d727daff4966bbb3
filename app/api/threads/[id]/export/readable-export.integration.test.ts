/**
 * Integration tests (real database) of the readable exports: GET /api/threads/:id/export with
 * format=html|md (redacted by default, sub-agents, chains, the 400s) and POST, the encrypted HTML.
 * The sub-agent case is the real Claude Code session of fixtures/real whose Task call started an
 * agent file.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { secretSamples } from "@/lib/domain/testing/secret-samples";
import { importFile } from "@/lib/imports/import-file";
import { jsonRequest, params } from "@/lib/testing/api";
import { api, expectError, expireThread, newThread, newTurn } from "@/lib/testing/integration";
import { POST } from "./route";

const DIR = "-home-USER-projects-spotter-worktrees-spotter-4te";
const SESSION = `${DIR}/ae4a77f8-aedd-4bc1-888f-c94edc91af04.jsonl`;
const AGENT = `${DIR}/ae4a77f8-aedd-4bc1-888f-c94edc91af04/subagents/agent-aac57f5.jsonl`;
const read = (relative: string) => readFileSync(path.join(process.cwd(), "fixtures/real/claude-code/projects", relative), "utf8");
const sample = secretSamples(41).find((s) => s.rule === "github-pat")!;

async function exported(id: string, query: string): Promise<{ text: string; type: string | null; disposition: string | null }> {
  const response = await api.exportThread(id, query);
  const text = await response.text();
  expect(response.status, text.slice(0, 300)).toBe(200);
  return { text, type: response.headers.get("content-type"), disposition: response.headers.get("content-disposition") };
}

async function threadWithSecret(title: string) {
  const thread = await newThread({ toolName: "chat", title });
  await newTurn(thread.id, { role: "user", content: `Deploy with ${sample.value} please` });
  await newTurn(thread.id, { role: "assistant", content: "Deployed **now**.", modelName: "claude-sonnet-4-5" });
  return thread;
}

describe("GET /api/threads/:id/export?format=html|md", () => {
  it("writes HTML and Markdown attachments, secrets redacted unless redact=0", async () => {
    const thread = await threadWithSecret("Release night");
    const html = await exported(thread.id, "?format=html");
    expect(html.type).toBe("text/html; charset=utf-8");
    expect(html.disposition).toBe(`attachment; filename="threadline-${thread.id}-redacted.html"`);
    expect(html.text).toMatch(/^<!doctype html>/);
    expect(html.text).toContain("<strong>now</strong>");
    expect(html.text).not.toContain(sample.value);
    expect(html.text).toMatch(/\[REDACTED:github-token:[0-9a-f]+\]/);

    const md = await exported(thread.id, "?format=md");
    expect(md.type).toBe("text/markdown; charset=utf-8");
    expect(md.disposition).toBe(`attachment; filename="threadline-${thread.id}-redacted.md"`);
    expect(md.text).toMatch(/^# Release night\n[\s\S]*?\n\n_Secrets found in this conversation are hidden/);
    expect(md.text).toContain("# Release night");
    expect(md.text).toMatch(/## #2 · Assistant · claude-sonnet-4-5 · /);
    expect(md.text).not.toContain(sample.value);

    const stored = await exported(thread.id, "?format=md&redact=0");
    expect(stored.disposition).toBe(`attachment; filename="threadline-${thread.id}.md"`);
    expect(stored.text).toContain(sample.value);
    // json keeps its default: lossless.
    expect((await exported(thread.id, "")).text).toContain(sample.value);
  });

  it("exports a chain oldest first, with -chain in the name", async () => {
    const root = await newThread({ toolName: "chat", title: "First part" });
    await newTurn(root.id, { role: "user", content: "part one" });
    const leaf = await newThread({ toolName: "chat", title: "Second part", parentThreadId: root.id });
    await newTurn(leaf.id, { role: "user", content: "part two" });
    for (const format of ["html", "md"]) {
      const { text, disposition } = await exported(leaf.id, `?format=${format}&chain=1`);
      expect(disposition).toBe(`attachment; filename="threadline-${leaf.id}-chain-redacted.${format}"`);
      const heading = (title: string) =>
        format === "html"
          ? text.indexOf(`<h2 class="thread-title">${title}</h2>`)
          : (new RegExp(`^# ${title}$`, "m").exec(text)?.index ?? -1);
      expect(heading("First part")).toBeGreaterThan(-1);
      expect(heading("First part")).toBeLessThan(text.lastIndexOf("part one"));
      expect(text.lastIndexOf("part one")).toBeLessThan(heading("Second part"));
      expect(heading("Second part")).toBeLessThan(text.lastIndexOf("part two"));
    }
    expect((await exported(leaf.id, "?format=md")).text).not.toContain("part one");
  });

  it("inlines the real Claude Code sub-agent under the Task call that started it", async () => {
    const [session, agent] = [await importFile(SESSION, read(SESSION)), await importFile(AGENT, read(AGENT))];
    const id = session.threadIds[0]!;
    const agentTurn = JSON.parse(read(AGENT).split("\n")[0]!) as { message: { content: string } };
    const agentPrompt = agentTurn.message.content.slice(0, 60);

    const without = await exported(id, "?format=html");
    expect(without.text).not.toContain(`id="turn-`.concat(agent.threadIds[0]!));
    const html = await exported(id, "?format=html&subagents=1");
    const fold = html.text.indexOf(`<details class="fold subagent">`);
    expect(fold).toBeGreaterThan(-1);
    // Inside the Task call's card, after the call's name.
    const call = html.text.lastIndexOf(`<code class="tool-name">Task</code>`, fold);
    expect(call).toBeGreaterThan(-1);
    expect(html.text.slice(fold, fold + 400)).toContain("Sub-agent: Search hex.pm for the latest versions");

    const md = await exported(id, "?format=md&subagents=1");
    expect(md.text).toMatch(/\n### Sub-agent: Search hex\.pm for the latest versions/);
    expect(md.text).toMatch(/\n#### #1 · User · /);
    expect(md.text.indexOf("### Sub-agent:")).toBeGreaterThan(md.text.indexOf("**Sub-agent: `Task`**"));
    expect((await exported(id, "?format=md")).text).not.toContain("### Sub-agent:");
    expect(md.text).toContain(agentPrompt.split("\n")[0]!.slice(0, 30));
  });

  it("refuses an unknown format and bad flags, naming the field", async () => {
    const thread = await threadWithSecret("Bad queries");
    const fields = async (query: string) =>
      ((await expectError(await api.exportThread(thread.id, query), 400, "validation_failed")).details as { field: string }[]).map(
        (d) => d.field,
      );
    expect(await fields("?format=pdf")).toEqual(["format"]);
    expect(await fields("?format=html&subagents=yes")).toEqual(["subagents"]);
    expect(await fields("?format=html&redact=maybe")).toEqual(["redact"]);
    expect(await fields("?subagents=1")).toEqual(["subagents"]);
  });

  it("does not find an expired thread unless includeExpired=1, nor an unknown one", async () => {
    const thread = await threadWithSecret("Old");
    await expireThread(thread.id);
    await expectError(await api.exportThread(thread.id, "?format=html"), 404, "expired");
    expect((await exported(thread.id, "?format=html&includeExpired=1")).text).toContain("Old");
    await expectError(await api.exportThread("00000000-0000-4000-8000-000000000000", "?format=md"), 404, "not_found");
  });
});

describe("POST /api/threads/:id/export (encrypted HTML)", () => {
  const post = (id: string, body: unknown) => POST(jsonRequest("POST", `/api/threads/${id}/export`, body), params({ id }));

  it("answers an encrypted HTML attachment holding none of the thread's text", async () => {
    const thread = await threadWithSecret("Encrypted night");
    const response = await post(thread.id, { format: "html", password: "a long passphrase" });
    const text = await response.text();
    expect(response.status, text.slice(0, 300)).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(response.headers.get("content-disposition")).toBe(`attachment; filename="threadline-${thread.id}-encrypted.html"`);
    expect(text).toMatch(/^<!doctype html>/i);
    for (const plain of ["Encrypted night", "Deployed", sample.value]) expect(text).not.toContain(plain);
  });

  it("refuses a short password, another format and unknown fields, naming them", async () => {
    const thread = await threadWithSecret("Refusals");
    const fields = async (body: unknown) =>
      ((await expectError(await post(thread.id, body), 400, "validation_failed")).details as { field: string }[]).map((d) => d.field);
    expect(await fields({ format: "html", password: "short" })).toEqual(["password"]);
    expect(await fields({ format: "md", password: "long enough" })).toEqual(["format"]);
    expect(await fields({ format: "html" })).toEqual(["password"]);
    expect(await fields({ format: "html", password: "long enough", extra: 1 })).toEqual(["(body)"]);
  });
});
