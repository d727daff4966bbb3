/**
 * Terminal output (ANSI / ECMA-48 escape sequences) as styled runs of text, for display. SGR codes
 * become styles (bold, dim, italic, underline, strike, inverse, hidden, the 16, 256 and 24-bit
 * colours); every other sequence (cursor movement, erase, private modes, OSC titles and
 * hyperlinks, DCS, charset selection) is dropped. What remains never holds an ESC.
 *
 * Written here rather than taken from `anser`: anser only splits on "ESC[" (OSC titles and
 * hyperlinks stay in the text), shares one mutable decorations array between its results, and
 * grows that array by one entry per repeated code. This is one pass, linear in the input: each
 * search for an OSC terminator is cached, so a million unterminated OSCs do not scan to the end
 * a million times.
 */

export type AnsiColor = { index: number } | { rgb: [number, number, number] };

export type AnsiStyle = {
  bold?: true;
  dim?: true;
  italic?: true;
  underline?: true;
  strike?: true;
  inverse?: true;
  hidden?: true;
  fg?: AnsiColor;
  bg?: AnsiColor;
};

/** A run of text and its style; null: the terminal's default. */
export type AnsiSegment = { text: string; style: AnsiStyle | null };

const ESC = "\u001b";
const BEL = "\u0007";
const ST = "\u001b\\";

type Flag = "bold" | "dim" | "italic" | "underline" | "strike" | "inverse" | "hidden";
const FLAGS: Flag[] = ["bold", "dim", "italic", "underline", "strike", "inverse", "hidden"];
const SET: Record<number, Flag> = {
  1: "bold",
  2: "dim",
  3: "italic",
  4: "underline",
  21: "underline",
  7: "inverse",
  8: "hidden",
  9: "strike",
};
const RESET: Record<number, Flag[]> = {
  22: ["bold", "dim"],
  23: ["italic"],
  24: ["underline"],
  27: ["inverse"],
  28: ["hidden"],
  29: ["strike"],
};

/** The graphic rendition as SGR codes leave it; a snapshot is taken only when text is emitted. */
class Rendition {
  private flags = new Set<Flag>();
  private fg: AnsiColor | undefined;
  private bg: AnsiColor | undefined;
  private cached: { style: AnsiStyle | null; key: string } | null = { style: null, key: "" };

  reset() {
    this.flags.clear();
    this.fg = this.bg = undefined;
    this.cached = null;
  }

  /** Applies one SGR sequence's parameters ("1;31", "38:2::1:2:3", "" for a reset). */
  apply(params: string) {
    this.cached = null;
    const groups = params === "" ? ["0"] : params.split(";");
    for (let g = 0; g < groups.length; g++) {
      const group = groups[g]!;
      if (group.includes(":")) {
        this.applyColon(group.split(":"));
        continue;
      }
      const code = group === "" ? 0 : Number(group);
      if (code === 38 || code === 48 || code === 58) {
        // Extended colour, semicolon form: 38;5;n or 38;2;r;g;b (58 is the underline colour: skipped).
        const mode = groups[g + 1];
        const argc = mode === "5" ? 1 : mode === "2" ? 3 : 0;
        const args = groups.slice(g + 2, g + 2 + argc);
        g += 1 + args.length;
        if (args.length === argc && argc > 0) this.setColor(code, colorFrom(mode!, args));
      } else {
        this.applyCode(code);
      }
    }
  }

  private applyColon(sub: string[]) {
    const code = Number(sub[0]);
    if (code === 4) return void (sub[1] === "0" ? this.flags.delete("underline") : this.flags.add("underline"));
    if (code !== 38 && code !== 48 && code !== 58) return;
    // 38:5:n, 38:2:r:g:b or 38:2:<colour space>:r:g:b
    const mode = sub[1] ?? "";
    const args = mode === "2" && sub.length >= 6 ? sub.slice(3, 6) : sub.slice(2);
    this.setColor(code, colorFrom(mode, args));
  }

  private setColor(code: number, color: AnsiColor | null) {
    if (!color || code === 58) return;
    if (code === 38) this.fg = color;
    else this.bg = color;
  }

  private applyCode(code: number) {
    if (code === 0) return this.reset();
    const set = SET[code];
    if (set) return void this.flags.add(set);
    const reset = RESET[code];
    if (reset) return reset.forEach((flag) => this.flags.delete(flag));
    if (code >= 30 && code <= 37) this.fg = { index: code - 30 };
    else if (code >= 90 && code <= 97) this.fg = { index: code - 90 + 8 };
    else if (code >= 40 && code <= 47) this.bg = { index: code - 40 };
    else if (code >= 100 && code <= 107) this.bg = { index: code - 100 + 8 };
    else if (code === 39) this.fg = undefined;
    else if (code === 49) this.bg = undefined;
    // Blink, fonts, overline, …: not shown.
  }

  snapshot(): { style: AnsiStyle | null; key: string } {
    if (this.cached) return this.cached;
    const style: AnsiStyle = {};
    for (const flag of FLAGS) if (this.flags.has(flag)) style[flag] = true;
    if (this.fg) style.fg = this.fg;
    if (this.bg) style.bg = this.bg;
    const key = JSON.stringify(style);
    this.cached = key === "{}" ? { style: null, key: "" } : { style, key };
    return this.cached;
  }
}

function colorFrom(mode: string, args: string[]): AnsiColor | null {
  const n = args.map((a) => (a === "" ? 0 : Number(a)));
  if (!n.every((v) => Number.isInteger(v) && v >= 0 && v <= 255)) return null;
  if (mode === "5" && n.length === 1) return { index: n[0]! };
  if (mode === "2" && n.length === 3) return { rgb: [n[0]!, n[1]!, n[2]!] };
  return null;
}

const inRange = (code: number, low: number, high: number) => code >= low && code <= high;

/** Where the next BEL and the next ST are, each searched again only once passed: linear overall. */
class Terminators {
  private bel = -2;
  private st = -2;
  constructor(private readonly input: string) {}

  /** The end (exclusive) of a string sequence whose body starts at `from`, or -1 when unterminated. */
  endOfString(from: number): number {
    if (this.bel !== -1 && this.bel < from) this.bel = this.input.indexOf(BEL, from);
    if (this.st !== -1 && this.st < from) this.st = this.input.indexOf(ST, from);
    const candidates = [this.bel === -1 ? Infinity : this.bel + 1, this.st === -1 ? Infinity : this.st + 2];
    const end = Math.min(...candidates);
    return end === Infinity ? -1 : end;
  }
}

/**
 * Skips the escape sequence at `at` (input[at] is ESC), applying it to `rendition` when it is an
 * SGR, and answers where the text goes on. A malformed sequence is dropped up to the byte that
 * broke it; an unterminated string sequence (OSC, DCS, …) loses only its introducer.
 */
function skipEscape(input: string, at: number, rendition: Rendition, terminators: Terminators): number {
  const next = input.charCodeAt(at + 1);
  if (Number.isNaN(next)) return at + 1;
  if (next === 0x5b) {
    // CSI: parameter bytes, intermediate bytes, one final byte.
    let j = at + 2;
    while (j < input.length && inRange(input.charCodeAt(j), 0x30, 0x3f)) j++;
    const paramsEnd = j;
    while (j < input.length && inRange(input.charCodeAt(j), 0x20, 0x2f)) j++;
    if (j >= input.length || !inRange(input.charCodeAt(j), 0x40, 0x7e)) return j;
    if (input[j] === "m" && paramsEnd === j) {
      const params = input.slice(at + 2, paramsEnd);
      if (/^[\d;:]*$/.test(params)) rendition.apply(params);
    }
    return j + 1;
  }
  if (next === 0x5d || next === 0x50 || next === 0x58 || next === 0x5e || next === 0x5f) {
    // OSC, DCS, SOS, PM, APC: up to BEL or ST.
    const end = terminators.endOfString(at + 2);
    return end === -1 ? at + 2 : end;
  }
  if (inRange(next, 0x20, 0x2f)) {
    // nF escapes (charset selection "ESC ( B"): intermediates, then a final byte.
    let j = at + 1;
    while (j < input.length && inRange(input.charCodeAt(j), 0x20, 0x2f)) j++;
    return j < input.length && inRange(input.charCodeAt(j), 0x30, 0x7e) ? j + 1 : j;
  }
  if (inRange(next, 0x30, 0x7e)) return at + 2; // ESC 7, ESC 8, ESC =, ESC M, …
  return at + 1; // a lone ESC
}

/**
 * The text as styled runs, in order; adjacent runs of one style are merged. Past `maxSegments`
 * styled runs, the rest comes as one unstyled run (a page need not draw a million spans).
 */
export function parseAnsi(input: string, { maxSegments = Infinity }: { maxSegments?: number } = {}): AnsiSegment[] {
  const segments: AnsiSegment[] = [];
  const rendition = new Rendition();
  const terminators = new Terminators(input);
  const tail: string[] = [];
  let lastKey: string | null = null;
  const emit = (text: string) => {
    if (text === "") return;
    if (tail.length > 0) return void tail.push(text);
    const { style, key } = rendition.snapshot();
    if (key === lastKey) {
      segments[segments.length - 1]!.text += text;
      return;
    }
    if (segments.length >= maxSegments) return void tail.push(text);
    segments.push({ text, style });
    lastKey = key;
  };
  let i = 0;
  while (i < input.length) {
    const esc = input.indexOf(ESC, i);
    if (esc === -1) {
      emit(input.slice(i));
      break;
    }
    emit(input.slice(i, esc));
    i = skipEscape(input, esc, rendition, terminators);
  }
  if (tail.length > 0) segments.push({ text: tail.join(""), style: null });
  return segments;
}

/** The text without any escape sequence. */
export function stripAnsi(input: string): string {
  if (!input.includes(ESC)) return input;
  return parseAnsi(input, { maxSegments: 0 })
    .map((s) => s.text)
    .join("");
}

/** Whether the text holds an escape sequence (or a stray ESC) at all. */
export const hasAnsi = (input: string) => input.includes(ESC);
