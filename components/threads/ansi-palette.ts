/**
 * The terminal colours of tool output (ansi.tsx) on Threadline's light pages. Each foreground is
 * readable (WCAG AA, 4.5:1) on every background tool output sits on, so the usual terminal
 * colours are darkened: bright ones to a deeper shade of their hue, white and bright white to
 * greys. Dim text without a colour of its own is DIM_FOREGROUND rather than faded, which would
 * fall under 4.5:1.
 */
export const FOREGROUND_16 = [
  "#27272a",
  "#b91c1c",
  "#15803d",
  "#854d0e",
  "#1d4ed8",
  "#a21caf",
  "#0e7490",
  "#3f3f46",
  "#52525b",
  "#991b1b",
  "#166534",
  "#92400e",
  "#1e40af",
  "#86198f",
  "#155e75",
  "#3f3f46",
];
/** As backgrounds, light tints, so the default (dark) text stays readable on them. */
export const BACKGROUND_16 = [
  "#d4d4d8",
  "#fecaca",
  "#bbf7d0",
  "#fef08a",
  "#bfdbfe",
  "#f5d0fe",
  "#a5f3fc",
  "#f4f4f5",
  "#a1a1aa",
  "#fca5a5",
  "#86efac",
  "#fde047",
  "#93c5fd",
  "#f0abfc",
  "#67e8f9",
  "#ffffff",
];
export const DEFAULT_FOREGROUND = "#27272a";
export const DEFAULT_BACKGROUND = "#ffffff";
export const DIM_FOREGROUND = "#52525b";
