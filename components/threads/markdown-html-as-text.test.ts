import { renderToStaticMarkup } from "react-dom/server";
import { createElement } from "react";
import { describe, expect, it } from "vitest";
import { MarkdownContent } from "./markdown";

const render = (text: string) => renderToStaticMarkup(createElement(MarkdownContent, { text }));

describe("conversation Markdown", () => {
  it("shows inline and block HTML as text", () => {
    const html = render('hi <script>alert(1)</script>\n\n<img src=x onerror="alert(2)">\n\n<div onclick="x">block</div>');
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(html).toContain("&lt;img src=x onerror=&quot;alert(2)&quot;&gt;");
    expect(html).toContain("<p>&lt;div onclick=&quot;x&quot;&gt;block&lt;/div&gt;</p>");
    expect(html).not.toMatch(/<(script|img)\b|<div onclick/);
  });

  it("drops javascript: URLs and never loads images", () => {
    const html = render("[a](javascript:alert(1)) [b](https://example.com) ![cat](https://example.com/c.png)");
    expect(html).not.toContain("javascript:");
    expect(html).toContain('href="https://example.com"');
    expect(html).toContain("[image: cat — https://example.com/c.png]");
    expect(html).not.toContain("<img");
  });

  it("highlights fenced code", () => {
    expect(render("```ts\nconst a = 1;\n```")).toContain('<span class="hljs-keyword">const</span>');
  });
});
