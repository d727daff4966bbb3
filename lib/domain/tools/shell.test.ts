import { describe, expect, it } from "vitest";
import { editDiff, editsDiff, parseApplyPatch } from "./patch";
import { argvToCommand, patchInShellCommand, shellQuote } from "./shell";

describe("shell quoting", () => {
  it("leaves plain words bare and quotes the rest as a shell reads it back", () => {
    expect(shellQuote("ls")).toBe("ls");
    expect(shellQuote("src/a-b_c.ts")).toBe("src/a-b_c.ts");
    expect(shellQuote("")).toBe("''");
    expect(shellQuote("two words")).toBe("'two words'");
    expect(shellQuote("$HOME")).toBe("'$HOME'");
    expect(shellQuote("it's")).toBe("'it'\\''s'");
    expect(shellQuote("a;b|c&d")).toBe("'a;b|c&d'");
  });

  it("joins an argv array, unwrapping shells' -c scripts with their real line breaks", () => {
    expect(argvToCommand(["rg", "-n", "TODO list", "src"])).toBe("rg -n 'TODO list' src");
    expect(argvToCommand(["bash", "-lc", "set -e\necho 'hi'"])).toBe("set -e\necho 'hi'");
    expect(argvToCommand(["/bin/zsh", "-c", "ls"])).toBe("ls");
    expect(argvToCommand(["env", "bash", "-c", "pwd"])).toBe("pwd");
    expect(argvToCommand(["pwsh", "-Command", "Get-ChildItem"])).toBe("Get-ChildItem");
    // Not a -c flag: shown as words.
    expect(argvToCommand(["bash", "script.sh", "x"])).toBe("bash script.sh x");
    expect(argvToCommand(["python", "-c", "print('a b')"])).toBe("python -c 'print('\\''a b'\\'')'");
  });
});

describe("apply_patch", () => {
  it("finds the patch in a heredoc, with or without a cd before it", () => {
    const heredoc = "applypatch << 'PATCH'\n*** Begin Patch\n*** Update File: go.mod\n@@\n-go 1.24.0\n+go 1.24\n*** End Patch\nPATCH";
    expect(patchInShellCommand(heredoc)).toBe("*** Begin Patch\n*** Update File: go.mod\n@@\n-go 1.24.0\n+go 1.24\n*** End Patch");
    expect(patchInShellCommand("cd repo && apply_patch <<'EOF'\n*** Begin Patch\n*** Add File: a\n+x\n*** End Patch\nEOF")).toContain(
      "*** Add File: a",
    );
    expect(patchInShellCommand("cat <<'EOF'\n*** Begin Patch\nEOF")).toBeNull();
    expect(patchInShellCommand("apply_patch --help")).toBeNull();
  });

  it("splits files, keeps hunks, moves and additions, and stops at the end marker", () => {
    const files = parseApplyPatch("*** Begin Patch\r\n*** Update File: a.ts\r\n@@ fn\r\n ctx\r\n-old\r\n+new\r\n*** End Patch\r\ntrailing");
    expect(files).toEqual([{ path: "a.ts", action: "update", moveTo: null, diff: "@@ fn\n ctx\n-old\n+new" }]);
    expect(parseApplyPatch("no headers here")).toBeNull();
  });
});

describe("edits as diffs", () => {
  it("marks what changed between the lines the old and new text share, three of them at most", () => {
    expect(editDiff("a\nb\nc\nd\ne\nf", "a\nb\nc\nd\nX\nf")).toBe(" b\n c\n d\n-e\n+X\n f");
    expect(editDiff("", "new")).toBe("+new");
    expect(editDiff("gone", "")).toBe("-gone");
    expect(editDiff("same", "same")).toBe(" same");
    expect(editDiff("x\nx", "x")).toBe(" x\n-x");
  });

  it("heads each of several edits", () => {
    expect(
      editsDiff([
        { oldText: "a", newText: "b" },
        { oldText: "c", newText: "d" },
      ]),
    ).toBe("@@ edit 1 of 2 @@\n-a\n+b\n@@ edit 2 of 2 @@\n-c\n+d");
  });
});
