import { diffLineKind, type DiffLineKind } from "@/lib/domain/display/diff";
import { MaskedText } from "@/components/secrets/masked-text";

/** Past this many lines the rest of a diff is shown uncoloured: a page need not draw a million spans. */
const MAX_COLOURED_LINES = 5_000;

const LINE_STYLE: Record<DiffLineKind, string> = {
  file: "font-semibold text-zinc-700",
  hunk: "text-sky-700",
  added: "bg-green-50 text-green-800",
  removed: "bg-red-50 text-red-800",
  context: "",
};

/**
 * A unified diff as git colours it: additions green, removals red, hunk headers blue. Text only,
 * never HTML; a secret's mask in a line stays a reveal control (MaskedText).
 */
export function DiffText({ text }: { text: string }) {
  const lines = text.split("\n");
  const coloured = lines.slice(0, MAX_COLOURED_LINES);
  const rest = lines.length > MAX_COLOURED_LINES ? lines.slice(MAX_COLOURED_LINES).join("\n") : null;
  return (
    <span data-testid="diff">
      {coloured.map((line, i) => {
        const kind = diffLineKind(line);
        const newline = i < lines.length - 1 ? "\n" : "";
        return kind === "context" ? (
          <MaskedText key={i} text={line + newline} />
        ) : (
          <span key={i} className={LINE_STYLE[kind]} data-diff-line={kind}>
            <MaskedText text={line + newline} />
          </span>
        );
      })}
      {rest !== null && <MaskedText text={rest} />}
    </span>
  );
}
