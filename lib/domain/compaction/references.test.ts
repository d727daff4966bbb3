import { describe, expect, it } from "vitest";
import { collectReferences, looksLikePath, missingReferences, pathsInText } from "./references";
import { authRefreshTurns } from "../testing/auth-refresh-turns";
import { assistant, call, result, turnsOf, user } from "../testing/compaction-turns";

describe("pathsInText", () => {
  it("finds relative, absolute, home and Windows paths", () => {
    const text = "Edit src/auth/session.ts, then ./lib/x.ts: and /home/me/project. See ~/notes/todo (and C:\\Users\\me\\a.txt).";
    expect(pathsInText(text)).toEqual(["src/auth/session.ts", "./lib/x.ts", "/home/me/project", "~/notes/todo", "C:\\Users\\me\\a.txt"]);
  });

  it("keeps Next.js route segments and drops the prose's brackets and punctuation", () => {
    expect(pathsInText("In app/(dash)/[id]/page.tsx; (src/a.ts) and 'lib/a.test.tsx'.")).toEqual([
      "app/(dash)/[id]/page.tsx",
      "src/a.ts",
      "lib/a.test.tsx",
    ]);
    expect(pathsInText("at src/a.ts:42 and src/b.ts#L10")).toEqual(["src/a.ts", "src/b.ts"]);
  });

  it("ignores URLs, versions, dates, ratios and words with slashes", () => {
    const text =
      "See https://a.b/c/d.html, https://x.io/view?file=docs/a.md, www.x.com/a/b.html and example.com/docs/x.html. v1.2.3, 2024/01/02, /2024/01/02, 200/200 runs, and/or, I/O, text/plain, session.ts";
    expect(pathsInText(text)).toEqual([]);
  });

  it("judges a whole string the same way", () => {
    expect(looksLikePath("src/a.ts")).toBe(true);
    expect(looksLikePath("/etc/hosts")).toBe(true);
    expect(looksLikePath("hello world")).toBe(false);
    expect(looksLikePath("https://x.io/a.ts")).toBe(false);
    expect(looksLikePath("src/a.ts.")).toBe(false);
  });
});

describe("collectReferences", () => {
  it("collects paths from files, images, tool arguments and text, in order of first appearance", () => {
    const turns = turnsOf(
      user("Look at src/auth/session.ts please", { files: ["src/auth/tokens.ts"], images: ["shots/a.png"] }),
      call("c1", "Read", { file_path: "README" }),
      result("c1", "contents of README, see docs/intro.md"),
      call("c2", "MultiEdit", {
        edits: [{ filePath: "lib/x.ts" }],
        paths: ["a/b.py", "c/d.py"],
        note: "lib/y.ts",
        notebook_path: "nb/n.ipynb",
      }),
      call("c3", "Bash", { command: "pytest tests/test_auth.py -q", description: "run the tests" }),
      assistant("Updated src/auth/session.ts and lib/x.ts.", { files: ["src/auth/session.ts"] }),
    );
    expect(collectReferences(turns).paths).toEqual([
      "src/auth/tokens.ts",
      "shots/a.png",
      "src/auth/session.ts",
      "README",
      "docs/intro.md",
      "lib/x.ts",
      "a/b.py",
      "c/d.py",
      "lib/y.ts",
      "nb/n.ipynb",
      "tests/test_auth.py",
    ]);
  });

  it("collects the tool of every turn (a PAL turn's attribution, a tool turn's tool) and of every tool call", () => {
    const turns = turnsOf(
      user("hi", { toolName: "chat" }),
      assistant("hello", { toolName: "chat" }),
      user("review it", { toolName: "codereview" }),
      { role: "tool", content: "output", toolName: "bash" },
      call("c1", "read_file"),
      { ...result("c1"), toolName: "read_file" },
      call("c2", "grep"),
    );
    expect(collectReferences(turns).tools).toEqual(["chat", "codereview", "bash", "read_file", "grep"]);
  });

  it("reads the auth-refresh debugging run, with the PAL tool of each turn", () => {
    expect(collectReferences(authRefreshTurns())).toEqual({
      paths: ["src/auth/session.ts", "src/auth/tokens.ts", "src/auth/refresh.ts", "tests/auth/refresh.test.ts", "screenshots/ci-401.png"],
      tools: ["analyze", "codereview", "debug", "read_file"],
    });
  });
});

describe("missingReferences", () => {
  const refs = { paths: ["src/a.ts", "src/b.ts"], tools: ["read", "grep"] };

  it("reports paths not found verbatim and tools not found as whole words", () => {
    expect(missingReferences(refs, "Changed `src/a.ts` with read_file and grep.")).toEqual({ paths: ["src/b.ts"], tools: ["read"] });
  });

  it("reports nothing when the summary keeps every reference", () => {
    expect(missingReferences(refs, "src/a.ts, src/b.ts; tools: read, grep")).toEqual({ paths: [], tools: [] });
  });

  it("reports a PAL tool an edited summary no longer names", () => {
    const refs = collectReferences(authRefreshTurns());
    const edited = `Ran analyze, then debug with read_file on ${refs.paths.join(", ")}.`;
    expect(missingReferences(refs, edited)).toEqual({ paths: [], tools: ["codereview"] });
  });

  it("does not accept a shortened path", () => {
    expect(missingReferences({ paths: ["src/auth/session.ts"], tools: [] }, "session.ts").paths).toEqual(["src/auth/session.ts"]);
  });
});
