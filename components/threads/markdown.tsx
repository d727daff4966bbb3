import Markdown, { type Components } from "react-markdown";
import rehypeHighlight from "rehype-highlight";
import rehypeSanitize from "rehype-sanitize";
import remarkGfm from "remark-gfm";
import { remarkHtmlAsText } from "@/lib/markdown/html-as-text";

const components: Components = {
  // Never fetch what a conversation points at: an image is shown as its label and address.
  img: ({ alt, src }) => (
    <span className="rounded bg-zinc-100 px-1 py-0.5 font-mono text-xs text-zinc-600">
      [image{alt ? `: ${alt}` : ""}{typeof src === "string" && src ? ` — ${src}` : ""}]
    </span>
  ),
  // Sanitising drops an unsafe href (javascript: and the like) and leaves the anchor: show its
  // text as plain text, not as something that looks like a link and goes nowhere.
  a: ({ href, children }) =>
    href ? (
      <a href={href} rel="noopener noreferrer nofollow" className="text-indigo-700 underline">
        {children}
      </a>
    ) : (
      <span title="link removed">{children}</span>
    ),
};

/**
 * Untrusted conversation content as Markdown: raw HTML shown as text, then sanitised (which also
 * drops javascript: and other unsafe URLs), then code highlighted. Rendered on the server.
 */
export function MarkdownContent({ text }: { text: string }) {
  return (
    <div className="markdown">
      <Markdown
        remarkPlugins={[remarkGfm, remarkHtmlAsText]}
        rehypePlugins={[rehypeSanitize, [rehypeHighlight, { detect: false, ignoreMissing: true }]]}
        components={components}
      >
        {text}
      </Markdown>
    </div>
  );
}
