import { describe, expect, it } from "vitest";
import { turnPreviewText } from "./turn-preview";

describe("turn previews", () => {
  it("shows a tool call as its name and what it did, a result as its text, never JSON or escape codes", () => {
    const assistant = turnPreviewText({
      role: "assistant",
      content: '[Bash] {"command":"bd show x"}',
      parts: [
        { type: "text", text: "Let me look." },
        { type: "tool_call", id: "c1", name: "Bash", arguments: { command: "bd show x", description: "Show it" } },
        {
          type: "tool_call",
          id: "c2",
          name: "shell",
          arguments: {
            command: ["bash", "-lc", "applypatch << 'P'\n*** Begin Patch\n*** Update File: go.mod\n@@\n-a\n+b\n*** End Patch\nP"],
          },
        },
      ],
    });
    expect(assistant).toBe("Let me look.\nBash: bd show x\nshell: go.mod");
    const tool = turnPreviewText({
      role: "tool",
      content: "x",
      parts: [{ type: "tool_result", toolCallId: "c1", content: [{ type: "text", text: "\u001b[1mok\u001b[22m" }] }],
    });
    expect(tool).toBe("ok");
    expect(
      turnPreviewText({
        role: "user",
        content: "<command-name>/compact</command-name>\n<command-message>compact</command-message>\n<command-args></command-args>",
        parts: null,
      }),
    ).toBe("/compact");
  });
});
