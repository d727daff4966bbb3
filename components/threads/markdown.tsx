import Markdown, { type Components } from "react-markdown";
import rehypeHighlight from "rehype-highlight";
import rehypeSanitize from "rehype-sanitize";
import remarkGfm from "remark-gfm";
import { stripAnsi } from "@/lib/domain/display/ansi";
import { remarkHtmlAsText } from "@/lib/markdown/html-as-text";
import { rehypeSecretMasks } from "@/lib/markdown/secret-masks";
import { SecretMask } from "@/components/secrets/secret-mask";
import { splitMasks } from "@/lib/domain/secrets/masks";

/**
 * A turn's headings sit under the page's own (h1: the thread title, then the turn): "# Plan" in
 * a turn is an h3, and so on down, so the page keeps one h1 and an outline that makes sense.
 */
const demoted = (Tag: "h3" | "h4" | "h5" | "h6", look: string): Components["h1"] =>
  function Heading({ children }) {
    return <Tag className={look}>{children}</Tag>;
  };

const components: Components = {
  h1: demoted("h3", "text-xl font-semibold"),
  h2: demoted("h4", "text-lg font-semibold"),
  h3: demoted("h5", "font-semibold"),
  h4: demoted("h6", "font-semibold"),
  h5: demoted("h6", "font-semibold"),
  h6: demoted("h6", "font-semibold"),
  // Never fetch what a conversation points at: an image is shown as its label and address.
  img: ({ alt, src }) => (
    <span className="rounded bg-zinc-100 px-1 py-0.5 font-mono text-xs text-zinc-600">
      [image{alt ? `: ${alt}` : ""}
      {typeof src === "string" && src ? ` — ${src}` : ""}]
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
  // A mask (rehypeSecretMasks marked it): the reveal control, for those allowed.
  span: ({ node, children, ...props }) => {
    const mask = node?.properties?.dataSecretMask;
    const piece = typeof mask === "string" ? splitMasks(mask)[0] : undefined;
    if (piece && "mask" in piece) return <SecretMask mask={piece.mask} label={piece.label} fingerprint={piece.fingerprint} />;
    return <span {...props}>{children}</span>;
  },
};

/**
 * Untrusted conversation content as Markdown: raw HTML shown as text, then sanitised (which also
 * drops javascript: and other unsafe URLs), then code highlighted. Rendered on the server.
 * Terminal escape codes are dropped: Markdown has no place for their styles, and raw they show as
 * "[2m" litter.
 */
export function MarkdownContent({ text }: { text: string }) {
  return (
    <div className="markdown">
      <Markdown
        remarkPlugins={[remarkGfm, remarkHtmlAsText]}
        rehypePlugins={[rehypeSanitize, rehypeSecretMasks, [rehypeHighlight, { detect: false, ignoreMissing: true }]]}
        components={components}
      >
        {stripAnsi(text)}
      </Markdown>
    </div>
  );
}
