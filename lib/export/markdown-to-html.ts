/**
 * Conversation Markdown as an HTML string, through the plugins the thread page uses
 * (components/threads/markdown.tsx): GFM, raw HTML shown as text (remarkHtmlAsText), sanitised
 * (which drops javascript: and other unsafe URLs), code highlighted without guessing languages.
 * Then what the page's components do: headings sit below the turn's (h1 becomes h3), an image is
 * its label and address (never fetched), a link whose address sanitising removed is plain text.
 * Terminal escape codes are dropped, as on the page.
 */
import type { Element, ElementContent, Root, RootContent } from "hast";
import { toHtml } from "hast-util-to-html";
import rehypeHighlight from "rehype-highlight";
import rehypeSanitize from "rehype-sanitize";
import remarkGfm from "remark-gfm";
import remarkParse from "remark-parse";
import remarkRehype from "remark-rehype";
import { unified } from "unified";
import { stripAnsi } from "@/lib/domain/display/ansi";
import { remarkHtmlAsText } from "@/lib/markdown/html-as-text";

const DEMOTED: Record<string, string> = { h1: "h3", h2: "h4", h3: "h5", h4: "h6", h5: "h6", h6: "h6" };

/** rehype plugin, after sanitising: the page's components, as plain elements. */
function rehypeAsThePage() {
  return (tree: Root) => {
    tree.children = tree.children.map(asThePage) as RootContent[];
  };
}

function asThePage<N extends RootContent | ElementContent>(node: N): N | Element {
  if (node.type !== "element") return node;
  const element = node as Element;
  if (element.tagName in DEMOTED) element.tagName = DEMOTED[element.tagName]!;
  if (element.tagName === "img") return imageLabel(element);
  if (element.tagName === "a") {
    const href = element.properties.href;
    if (typeof href !== "string" || href === "")
      return { type: "element", tagName: "span", properties: { title: "link removed" }, children: element.children.map(asThePage) };
    element.properties = { href, rel: ["noopener", "noreferrer", "nofollow"] };
  }
  element.children = element.children.map(asThePage);
  return element;
}

function imageLabel(image: Element): Element {
  const alt = typeof image.properties.alt === "string" && image.properties.alt ? `: ${image.properties.alt}` : "";
  const src = typeof image.properties.src === "string" && image.properties.src ? ` — ${image.properties.src}` : "";
  return {
    type: "element",
    tagName: "span",
    properties: { className: ["image-label"] },
    children: [{ type: "text", value: `[image${alt}${src}]` }],
  };
}

const processor = unified()
  .use(remarkParse)
  .use(remarkGfm)
  .use(remarkHtmlAsText)
  .use(remarkRehype)
  .use(rehypeSanitize)
  .use(rehypeHighlight, { detect: false })
  .use(rehypeAsThePage);

/** Untrusted Markdown as sanitised HTML (a fragment, inside a `div class="markdown"`). */
export function markdownToHtml(text: string): string {
  const tree = processor.runSync(processor.parse(stripAnsi(text))) as Root;
  return `<div class="markdown">${toHtml(tree)}</div>`;
}
