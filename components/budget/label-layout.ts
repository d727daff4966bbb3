/**
 * Vertical positions for labels that want to sit at `targets` (any order), at least `gap` apart
 * and within [min, max] where there is room: each as near its target as the others allow, in
 * the targets' order. Answered in the order of `targets`.
 */
export function spreadLabels(targets: number[], gap: number, min: number, max: number): number[] {
  const order = targets.map((_, i) => i).sort((a, b) => targets[a]! - targets[b]!);
  const placed = targets.slice();
  // Down: each below its target, the bound and the label above it.
  let previous = -Infinity;
  for (const i of order) previous = placed[i] = Math.max(targets[i]!, min, previous + gap);
  // Up: those pushed past the bottom, and the ones above them, back up.
  let next = Infinity;
  for (const i of order.reverse()) next = placed[i] = Math.min(placed[i]!, max, next - gap);
  return placed;
}
