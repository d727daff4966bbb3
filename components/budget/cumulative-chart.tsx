import { compactionPolicies, cumulativeTokens, firstTurnOver } from "@/lib/domain/budget/compaction-policies";
import type { ContextPreviewWithTurns } from "@/lib/domain/history/context-preview";
import { formatCount } from "@/lib/format";
import { m4Indexes } from "./downsample";
import { spreadLabels } from "./label-layout";

const WIDTH = 720;
const HEIGHT = 260;
/** Room for the y ticks and title (left), the threshold labels (right), the x ticks and title (below). */
const MARGIN = { left: 64, right: 108, top: 12, bottom: 42 };
const PLOT_WIDTH = WIDTH - MARGIN.left - MARGIN.right;
const PLOT_HEIGHT = HEIGHT - MARGIN.top - MARGIN.bottom;
const LABEL_SIZE = 11;
/** Threshold labels are at least this far apart, centre to centre: one line of 11px text and a little air. */
const LABEL_GAP = 13;
/** Columns the line is reduced to: twice the plot's width in the viewBox, for a chart drawn up to twice its size. */
const LINE_COLUMNS = 2 * PLOT_WIDTH;
const AXIS = "#a1a1aa";
const MUTED = "#71717a";

/** Up to about `count` round tick values from 0 to `max` (steps of 1, 2 or 5 times a power of ten). */
function ticks(max: number, count: number, min = 0): number[] {
  if (max <= min) return [min];
  const raw = (max - min) / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw) ?? raw;
  const values: number[] = [];
  for (let v = Math.ceil(min / step) * step; v <= max; v += step) values.push(v);
  return values;
}

/**
 * Cumulative tokens per turn across the chain, with the points where each agent would compact.
 * The thresholds' labels sit right of the plot, moved apart where lines are close (a 400k
 * window puts Claude Code, Codex, OpenCode and Pi within 24k of each other), each joined to its
 * line; the table below gives the exact numbers. A long chain's line is reduced to what its pixels
 * show (m4Indexes), keeping exact the turns where a threshold is crossed and where the history is
 * cut (the turns before that mark are not sent).
 */
export function CumulativeChart({ data }: { data: ContextPreviewWithTurns }) {
  const cumulative = cumulativeTokens(data.perTurn.map((t) => t.tokens));
  const window = data.allocation.total;
  const policies = compactionPolicies(window, data.model?.maxOutputTokens ?? null);
  const max = Math.max(window, cumulative.at(-1) ?? 0, 1);
  const turns = cumulative.length;
  const x = (turn: number) => MARGIN.left + (turns <= 1 ? 0 : ((turn - 1) / (turns - 1)) * PLOT_WIDTH);
  const y = (v: number) => MARGIN.top + PLOT_HEIGHT - (v / max) * PLOT_HEIGHT;
  const crossings = policies.map((p) => firstTurnOver(cumulative, p.threshold));
  // The newest turn left out: the ones up to it are cut (the oldest go first).
  const lastCut = data.perTurn.findLastIndex((t) => !t.included);
  const exact = [...crossings.flatMap((at) => (at === null ? [] : [at - 2, at - 1])), ...(lastCut >= 0 ? [lastCut, lastCut + 1] : [])];
  const points = m4Indexes(cumulative, LINE_COLUMNS, exact)
    .map((i) => `${x(i + 1).toFixed(1)},${y(cumulative[i]!).toFixed(1)}`)
    .join(" ");
  const labelY = spreadLabels(
    policies.map((p) => y(p.threshold)),
    LABEL_GAP,
    MARGIN.top + LABEL_SIZE / 2,
    MARGIN.top + PLOT_HEIGHT,
  );
  const right = MARGIN.left + PLOT_WIDTH;
  const bottom = MARGIN.top + PLOT_HEIGHT;
  return (
    <section aria-labelledby="chart-heading" className="rounded-lg border border-zinc-200 bg-white p-4">
      <h2 id="chart-heading" className="text-lg font-semibold">
        Cumulative tokens per turn
      </h2>
      {/* Scrolls sideways on a phone rather than shrinking its labels past reading. */}
      <div className="mt-2 overflow-x-auto" tabIndex={0} role="region" aria-label="Cumulative tokens chart">
        <svg
          viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
          className="h-auto w-full min-w-[36rem]"
          role="img"
          aria-label="Cumulative tokens across the chain by turn, with compaction thresholds"
          data-testid="cumulative-chart"
        >
          {/* y axis: ticks, grid, title */}
          {ticks(max, 4).map((v) => (
            <g key={`y${v}`}>
              <line x1={MARGIN.left} x2={right} y1={y(v)} y2={y(v)} stroke="#f4f4f5" />
              <text x={MARGIN.left - 6} y={y(v) + 4} fontSize="11" fill={MUTED} textAnchor="end">
                {formatCount(v)}
              </text>
            </g>
          ))}
          <text
            x={14}
            y={MARGIN.top + PLOT_HEIGHT / 2}
            fontSize="12"
            fill="#52525b"
            textAnchor="middle"
            transform={`rotate(-90 14 ${MARGIN.top + PLOT_HEIGHT / 2})`}
            data-testid="y-axis-title"
          >
            Cumulative tokens
          </text>
          {/* x axis: ticks, title */}
          {turns > 0 &&
            ticks(turns, Math.min(5, turns - 1 || 1), 1).map((turn) => (
              <text key={`x${turn}`} x={x(turn)} y={bottom + 16} fontSize="11" fill={MUTED} textAnchor="middle">
                {turn}
              </text>
            ))}
          <text x={MARGIN.left + PLOT_WIDTH / 2} y={HEIGHT - 6} fontSize="12" fill="#52525b" textAnchor="middle" data-testid="x-axis-title">
            Turn
          </text>
          <line x1={MARGIN.left} x2={right} y1={bottom} y2={bottom} stroke={AXIS} />
          <line x1={MARGIN.left} x2={MARGIN.left} y1={MARGIN.top} y2={bottom} stroke={AXIS} />
          {/* thresholds: a dashed line each, its label right of the plot, joined to it */}
          {policies.map((p, i) => (
            <g key={p.agent}>
              <line x1={MARGIN.left} x2={right} y1={y(p.threshold)} y2={y(p.threshold)} stroke="#d4d4d8" strokeDasharray="4 4" />
              <polyline
                points={`${right},${y(p.threshold)} ${right + 6},${y(p.threshold)} ${right + 12},${labelY[i]} ${right + 14},${labelY[i]}`}
                fill="none"
                stroke="#d4d4d8"
              />
              <text x={right + 16} y={labelY[i]! + 4} fontSize={LABEL_SIZE} fill={MUTED} data-testid="threshold-label">
                {p.agent}
              </text>
            </g>
          ))}
          {lastCut >= 0 && (
            <g data-testid="cut-mark">
              <title>{`Turns 1 to ${lastCut + 1} do not fit: they are cut`}</title>
              <line x1={x(lastCut + 1)} x2={x(lastCut + 1)} y1={MARGIN.top} y2={bottom} stroke="#dc2626" strokeDasharray="3 3" />
              {/* On the cut side of the mark, unless that would run into the y axis's labels. */}
              <text
                {...(x(lastCut + 1) - MARGIN.left > 30
                  ? { x: x(lastCut + 1) - 4, textAnchor: "end" }
                  : { x: x(lastCut + 1) + 4, textAnchor: "start" })}
                y={MARGIN.top + LABEL_SIZE}
                fontSize={LABEL_SIZE}
                fill="#b91c1c"
              >
                cut
              </text>
            </g>
          )}
          <polyline points={points} fill="none" stroke="#4f46e5" strokeWidth="2" data-testid="cumulative-line" />
        </svg>
      </div>
      {/* On a phone the rows become cards (globals.css), the rules wrapping under their agent. */}
      <table className="stack-on-phone mt-2 w-full text-sm">
        <thead className="text-left text-zinc-500">
          <tr>
            <th className="py-1">Agent</th>
            <th className="py-1">Rule</th>
            <th className="py-1 text-right">Threshold</th>
            <th className="py-1 text-right">Would compact at</th>
          </tr>
        </thead>
        <tbody>
          {policies.map((p, i) => {
            const at = crossings[i];
            return (
              <tr key={p.agent} className="border-t border-zinc-100">
                <td className="py-1 max-sm:font-medium">{p.agent}</td>
                <td className="py-1 text-zinc-600" data-label="Rule">
                  {p.rule}
                </td>
                <td className="py-1 text-right font-mono" data-label="Threshold">
                  {p.threshold.toLocaleString("en-US")}
                </td>
                <td className="py-1 text-right" data-label="Would compact at">
                  {at ? `turn ${at}` : "not reached"}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </section>
  );
}
