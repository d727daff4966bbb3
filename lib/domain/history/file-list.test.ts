import { describe, expect, it } from "vitest";
import { conversationFileList } from "./file-list";

describe("conversationFileList", () => {
  it("is newest first with the newest reference winning (PAL's docstring example)", () => {
    const turns = [{ files: ["main.py", "utils.py"] }, { files: ["test.py"] }, { files: ["main.py", "config.py"] }];
    expect(conversationFileList(turns)).toEqual(["main.py", "config.py", "test.py", "utils.py"]);
  });

  it("skips turns without files and handles no turns", () => {
    expect(conversationFileList([])).toEqual([]);
    expect(conversationFileList([{ files: null }, {}, { files: [] }])).toEqual([]);
    expect(conversationFileList([{ files: ["a.py"] }, { files: null }, { files: ["b.py"] }])).toEqual(["b.py", "a.py"]);
  });

  it("keeps a turn's own order and drops duplicates inside a turn", () => {
    expect(conversationFileList([{ files: ["z.py", "a.py", "z.py"] }])).toEqual(["z.py", "a.py"]);
  });

  it("works across a merged chain of three threads (the caller merges, oldest first)", () => {
    const parent = [{ files: ["/p/a.py"] }, { files: ["/p/b.py"] }];
    const child = [{ files: ["/p/a.py", "/c/c.py"] }];
    const grandchild = [{ files: ["/g/d.py"] }, { files: ["/p/b.py"] }];
    expect(conversationFileList([...parent, ...child, ...grandchild])).toEqual(["/p/b.py", "/g/d.py", "/p/a.py", "/c/c.py"]);
  });
});

describe("conversationFileList and images", () => {
  it("leaves images out", () => {
    expect(conversationFileList([{ files: ["a.py"], images: ["a.png"] }])).toEqual(["a.py"]);
  });
});
