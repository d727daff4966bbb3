import { Fragment, type CSSProperties } from "react";
import { hasAnsi, parseAnsi, type AnsiColor, type AnsiStyle } from "@/lib/domain/display/ansi";
import { looksLikeUnifiedDiff } from "@/lib/domain/display/diff";
import { MaskedText } from "@/components/secrets/masked-text";
import { BACKGROUND_16, DEFAULT_BACKGROUND, DEFAULT_FOREGROUND, DIM_FOREGROUND, FOREGROUND_16 } from "./ansi-palette";
import { DiffText } from "./diff-text";

/** Past this many styled runs the rest is shown unstyled: a page need not draw a million spans. */
const MAX_STYLED_RUNS = 5_000;

const CUBE = [0, 95, 135, 175, 215, 255];

/** xterm's 256 colours: the 16, a 6×6×6 cube, then 24 greys; truecolour as given. */
function cssColor(color: AnsiColor, palette16: string[]): string {
  if ("rgb" in color) return `rgb(${color.rgb.join(" ")})`;
  const n = color.index;
  if (n < 16) return palette16[n]!;
  if (n < 232) {
    const c = n - 16;
    return `rgb(${CUBE[Math.floor(c / 36)]} ${CUBE[Math.floor(c / 6) % 6]} ${CUBE[c % 6]})`;
  }
  const grey = 8 + (n - 232) * 10;
  return `rgb(${grey} ${grey} ${grey})`;
}

function cssOf(style: AnsiStyle): CSSProperties {
  let color = style.fg && cssColor(style.fg, FOREGROUND_16);
  let background = style.bg && cssColor(style.bg, BACKGROUND_16);
  if (style.inverse) [color, background] = [background ?? DEFAULT_BACKGROUND, color ?? DEFAULT_FOREGROUND];
  const lines = [style.underline && "underline", style.strike && "line-through"].filter(Boolean).join(" ");
  // Dim text is a lighter grey rather than faded: faded text falls under 4.5:1 (a coloured run keeps its colour).
  if (style.dim && !color) color = DIM_FOREGROUND;
  return {
    ...(color ? { color } : {}),
    ...(background ? { backgroundColor: background } : {}),
    ...(style.bold ? { fontWeight: 700 } : {}),
    ...(style.italic ? { fontStyle: "italic" } : {}),
    ...(lines ? { textDecorationLine: lines } : {}),
    ...(style.hidden ? { visibility: "hidden" } : {}),
  };
}

/**
 * Terminal output as the terminal showed it: colours and emphasis as inline styles on spans,
 * cursor movement and other control sequences dropped (lib/domain/display/ansi.ts). React elements only:
 * nothing from the text is ever read as HTML. A secret's mask in it is a reveal control (MaskedText).
 * Uncoloured text that is a unified diff (an agent's patch, a tool's edit) is coloured as git does.
 */
export function AnsiText({ text }: { text: string }) {
  if (!hasAnsi(text)) return looksLikeUnifiedDiff(text) ? <DiffText text={text} /> : <MaskedText text={text} />;
  return (
    <>
      {parseAnsi(text, { maxSegments: MAX_STYLED_RUNS }).map((segment, i) =>
        segment.style ? (
          <span key={i} style={cssOf(segment.style)}>
            <MaskedText text={segment.text} />
          </span>
        ) : (
          <Fragment key={i}>
            <MaskedText text={segment.text} />
          </Fragment>
        ),
      )}
    </>
  );
}
