import type { ReactNode } from "react";
import { parseWrappedContent, type DisplayBlock, type TextFormat } from "@/lib/domain/display/transcript-display";
import type { JsonObject, Turn } from "@/lib/domain/types";
import { formatInteger } from "@/lib/format";
import { AnsiText } from "./ansi";
import { MarkdownContent } from "./markdown";
import { CHEVRON, PlainText, PREVIEW_CHARS, SUMMARY } from "./turn-parts";

const TERMINAL = "max-w-full overflow-x-auto rounded border p-2 font-mono text-xs leading-5 break-words whitespace-pre-wrap";
const STDOUT = `${TERMINAL} border-zinc-200 bg-zinc-50 text-zinc-800`;
const STDERR = `${TERMINAL} border-red-200 bg-red-50 text-red-900`;
const PLAIN = "max-w-full overflow-x-auto font-mono text-xs leading-5 break-words whitespace-pre-wrap text-zinc-800";

type Source = Pick<Turn, "threadId" | "index">;

/**
 * A turn's content as its agent shows it (lib/domain/display/transcript-display.ts): commands as chips,
 * terminal output as a block, injected context folded. `turn` is where a long block's full text
 * is loaded from: the page carries only its start.
 */
export function DisplayBlocks({ blocks, turn }: { blocks: DisplayBlock[]; turn: Source }) {
  return (
    <div className="space-y-2">
      {blocks.map((block, i) => (
        <Block key={i} block={block} index={i} turn={turn} />
      ))}
    </div>
  );
}

function Block({ block, index, turn }: { block: DisplayBlock; index: number; turn: Source }) {
  switch (block.kind) {
    case "command":
      return (
        <p data-testid="command" className="flex min-w-0 flex-wrap items-baseline gap-x-2 gap-y-1 text-sm">
          <span
            data-testid="command-name"
            className="rounded border border-indigo-200 bg-indigo-50 px-1.5 py-0.5 font-mono text-xs font-medium break-all text-indigo-800"
          >
            {block.name}
          </span>
          {block.args && (
            <span data-testid="command-args" className="min-w-0 break-words text-zinc-800">
              {block.args}
            </span>
          )}
        </p>
      );
    case "shell":
      return (
        <p data-testid="shell-command" className="min-w-0 text-sm">
          <code className="rounded border border-zinc-300 bg-zinc-100 px-1.5 py-0.5 font-mono text-xs break-all text-zinc-800">
            <span aria-label="Shell command" className="text-zinc-500">
              ${" "}
            </span>
            {block.command}
          </code>
        </p>
      );
    case "output":
      return (
        <div data-testid="terminal-output" data-stream={block.stream}>
          {block.text.trim() === "" ? (
            <p className="text-xs text-zinc-500 italic">(no output)</p>
          ) : (
            <PlainText text={block.text} source={turn} textRef={{ block: index }} className={block.stream === "stderr" ? STDERR : STDOUT} />
          )}
        </div>
      );
    case "folded":
      return (
        <Folded label={block.label} size={block.text.length} testId="folded-block">
          <BlockText text={block.text} format={block.format} index={index} turn={turn} />
        </Folded>
      );
    case "text":
      return <BlockText text={block.text} format={block.format} index={index} turn={turn} />;
  }
}

/** Text of a block: Markdown when it is and short enough to render here, else plain (and loaded in full on demand). */
function BlockText({ text, format, index, turn }: { text: string; format: TextFormat; index: number; turn: Source }) {
  if (text.trim() === "") return <p className="text-xs text-zinc-500 italic">(empty)</p>;
  if (format === "markdown" && text.length <= PREVIEW_CHARS) return <MarkdownContent text={text} />;
  return <PlainText text={text} source={turn} textRef={{ block: index }} className={PLAIN} />;
}

/** Closed until opened (a <details>: Enter or Space on its summary), under a short label. */
export function Folded({ label, size, testId, children }: { label: string; size: number; testId: string; children: ReactNode }) {
  return (
    <details className="group min-w-0 rounded-md border border-zinc-200 bg-zinc-50 text-sm" data-testid={testId}>
      <summary className={SUMMARY}>
        <span aria-hidden className={CHEVRON}>
          ▸
        </span>
        <span className="min-w-0 font-medium break-words text-zinc-700">{label}</span>
        <span className="text-xs text-zinc-500">({formatInteger(size)} characters)</span>
      </summary>
      <div className="min-w-0 border-t border-zinc-200 px-3 py-2">{children}</div>
    </details>
  );
}

/**
 * What an agent injected before the conversation and the importer kept as the thread's initial
 * context (Codex's environment context and instructions, lib/importers/codex/handlers.ts): folded
 * under its label, above the turns.
 */
export function InjectedContext({ context }: { context: JsonObject | null }) {
  const texts = [context?.environmentContext, context?.instructions].filter((v): v is string => typeof v === "string" && v.trim() !== "");
  const blocks = texts.flatMap(
    (text) => parseWrappedContent(text) ?? [{ kind: "folded", label: "Instructions", text, format: "markdown" } as const],
  );
  if (blocks.length === 0) return null;
  return (
    <div className="mb-3 space-y-2" data-testid="injected-context">
      {blocks.map((block, i) =>
        block.kind === "folded" ? (
          <Folded key={i} label={block.label} size={block.text.length} testId="folded-context">
            {block.format === "markdown" && block.text.length <= PREVIEW_CHARS ? (
              <MarkdownContent text={block.text} />
            ) : (
              <pre className={PLAIN}>
                <AnsiText text={block.text} />
              </pre>
            )}
          </Folded>
        ) : null,
      )}
    </div>
  );
}
