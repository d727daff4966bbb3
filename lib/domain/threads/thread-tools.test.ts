import { describe, expect, it } from "vitest";
import { threadTools, toolCallNames, toolKey, toolOptions } from "./thread-tools";

const parts = (...names: string[]) => JSON.stringify(names.map((name, i) => ({ type: "tool_call", id: `c${i}`, name, arguments: {} })));

describe("threadTools", () => {
  it("takes tool calls from parts and tool names from turns, each once whatever its case", () => {
    const tools = threadTools({ source: "import:claude-code", toolName: "claude-code" }, [
      { toolName: null, parts: parts("Bash", "Read") },
      { toolName: null, parts: JSON.stringify([{ type: "tool_result", toolCallId: "c0", content: "ok" }]) },
      { toolName: "bash", parts: null },
      { toolName: null, parts: "not json" },
    ]);
    expect(tools).toEqual([
      { key: "bash", name: "Bash" },
      { key: "read", name: "Read" },
    ]);
  });

  it("leaves an agent's own name out, and keeps an API or PAL thread's tool", () => {
    expect(threadTools({ source: "import:pi", toolName: "pi" }, [])).toEqual([]);
    expect(threadTools({ source: "api", toolName: "chat" }, [])).toEqual([{ key: "chat", name: "chat" }]);
    expect(threadTools({ source: "import:pal", toolName: "analyze" }, [{ toolName: "analyze", parts: null }])).toEqual([
      { key: "analyze", name: "analyze" },
    ]);
  });

  it("reads no names from parts without tool calls", () => {
    expect(toolCallNames(null)).toEqual([]);
    expect(toolCallNames(JSON.stringify({ type: "tool_call", name: "x" }))).toEqual([]);
    expect(toolCallNames(JSON.stringify([{ type: "text", text: '"tool_call"' }]))).toEqual([]);
  });
});

describe("toolOptions", () => {
  it("lists each tool once by key, spelled as most threads spell it", () => {
    const options = toolOptions([
      { key: "bash", name: "bash", threads: 2 },
      { key: "bash", name: "Bash", threads: 5 },
      { key: "analyze", name: "analyze", threads: 1 },
    ]);
    expect(options).toEqual([
      { value: "analyze", label: "analyze" },
      { value: "bash", label: "Bash" },
    ]);
    expect(toolKey(" Bash ")).toBe("bash");
  });
});
