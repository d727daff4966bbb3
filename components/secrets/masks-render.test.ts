import { createElement, type ReactNode } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { AnsiText } from "@/components/threads/ansi";
import { MarkdownContent } from "@/components/threads/markdown";
import { fingerprintOf, maskSecrets } from "@/lib/domain/secrets/detect";
import { secretSamples } from "@/lib/domain/testing/secret-samples";
import { SecretMaskScope, SecretRevealProvider } from "./secret-mask";

const github = secretSamples(9).find((s) => s.rule === "github-pat")!;
const end = fingerprintOf(github.value).slice(-4);
const masked = maskSecrets(`Cloned with ${github.value} today`);
const label = `Reveal the GitHub token …${end}`;

function render(node: ReactNode, allowed: boolean): string {
  return renderToStaticMarkup(
    createElement(
      SecretRevealProvider,
      { allowed } as Parameters<typeof SecretRevealProvider>[0],
      createElement(SecretMaskScope, { threadId: "t", turnId: "u" } as Parameters<typeof SecretMaskScope>[0], node),
    ),
  );
}

const buttons = (html: string) => [...html.matchAll(/<button[^>]*aria-label="([^"]*)"/g)].map((m) => m[1]);

describe("masks in a turn's text", () => {
  it("are reveal buttons in Markdown, prose and highlighted code alike, for those allowed", () => {
    const html = render(
      createElement(MarkdownContent, { text: `${masked}\n\n\`\`\`bash\ngit clone ${masked}\n\`\`\`\n\n- item ${masked}` }),
      true,
    );
    expect(buttons(html)).toEqual([label, label, label]);
    expect(html).not.toContain(github.value);
  });

  it("stay text inside a link (a button there would follow the link too)", () => {
    const html = render(createElement(MarkdownContent, { text: `[see ${masked}](https://example.com/x)` }), true);
    expect(buttons(html)).toEqual([]);
    expect(html).toMatch(/<a [^>]*>see Cloned with \[GitHub token …[0-9a-f]{4}\] today<\/a>/);
  });

  it("are reveal buttons in plain and terminal text", () => {
    expect(buttons(render(createElement(AnsiText, { text: masked }), true))).toEqual([label]);
    expect(buttons(render(createElement(AnsiText, { text: `\u001b[31m${masked}\u001b[0m` }), true))).toEqual([label]);
  });

  it("are text, not buttons, for those not allowed (members with sign-in on)", () => {
    for (const node of [createElement(MarkdownContent, { text: masked }), createElement(AnsiText, { text: masked })]) {
      const html = render(node, false);
      expect(buttons(html)).toEqual([]);
      expect(html).toContain(`[GitHub token …${end}]`);
    }
  });
});
