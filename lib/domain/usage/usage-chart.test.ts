import { describe, expect, it } from "vitest";
import { ALL_MODELS_KEY, costChart, formatDay, OTHER_COLOR, OTHER_KEY, SERIES_COLORS, seriesColors } from "./usage-chart";
import { emptyFigures, type UsageRow } from "./usage-report";

const part = (key: string, costUsd: number) => ({ key, ...emptyFigures(), costUsd, responses: 1 });
const day = (key: string, parts: ReturnType<typeof part>[]): UsageRow => ({
  key,
  ...emptyFigures(),
  costUsd: parts.reduce((s, p) => s + p.costUsd, 0),
  responses: parts.length,
  breakdown: parts,
});

describe("the cost chart's data", () => {
  it("has every period it is given, periods without usage as zeros, and the models costliest first", () => {
    const chart = costChart(
      [day("2026-01-02", [part("opus", 2), part("haiku", 0.5)]), day("2026-01-04", [part("haiku", 0.25)])],
      ["2026-01-01", "2026-01-02", "2026-01-03", "2026-01-04"],
    );
    expect(chart.periods.map((d) => [d.key, d.totalUsd, d.costs])).toEqual([
      ["2026-01-01", 0, {}],
      ["2026-01-02", 2.5, { opus: 2, haiku: 0.5 }],
      ["2026-01-03", 0, {}],
      ["2026-01-04", 0.25, { haiku: 0.25 }],
    ]);
    expect(chart.series.map((s) => [s.key, s.costUsd])).toEqual([
      ["opus", 2],
      ["haiku", 0.75],
    ]);
  });

  it("draws a row without a breakdown (a 5-hour block) as one series of all models", () => {
    const block = (key: string, costUsd: number): UsageRow => ({ key, ...emptyFigures(), costUsd, responses: 1 });
    const keys = ["2026-01-01T09:00:00.000Z", "2026-01-01T15:00:00.000Z"];
    const chart = costChart([block(keys[0]!, 1.5), block(keys[1]!, 0.5)], keys);
    expect(chart.series).toEqual([{ key: ALL_MODELS_KEY, label: "All models", color: SERIES_COLORS[0], costUsd: 2 }]);
    expect(chart.periods.map((p) => p.costs)).toEqual([{ [ALL_MODELS_KEY]: 1.5 }, { [ALL_MODELS_KEY]: 0.5 }]);
  });

  it("draws no series for a model that cost nothing (unpriced)", () => {
    const chart = costChart([day("2026-01-01", [part("opus", 1), part("aide-gpt-5", 0)])], ["2026-01-01"]);
    expect(chart.series.map((s) => s.key)).toEqual(["opus"]);
    expect(chart.periods[0]!.costs).toEqual({ opus: 1 });
  });

  it("sums the cheapest models into one grey series past the first ones", () => {
    const parts = ["a", "b", "c", "d"].map((key, i) => part(key, 4 - i));
    const chart = costChart([day("2026-01-01", parts)], ["2026-01-01"], 3);
    expect(chart.series.map((s) => [s.key, s.label, s.costUsd])).toEqual([
      ["a", "a", 4],
      ["b", "b", 3],
      [OTHER_KEY, "2 other models", 3],
    ]);
    expect(chart.series[2]!.color).toBe(OTHER_COLOR);
    expect(chart.periods[0]!.costs).toEqual({ a: 4, b: 3, [OTHER_KEY]: 3 });
  });
});

describe("series colours", () => {
  it("follow the model's name, whatever else is in the chart, as long as no two collide", () => {
    const alone = seriesColors(["claude-opus-4-6"]).get("claude-opus-4-6");
    expect(SERIES_COLORS).toContain(alone);
    expect(seriesColors(["gpt-5.3-codex", "claude-opus-4-6"]).get("claude-opus-4-6")).toBe(alone);
    expect(seriesColors(["claude-opus-4-6", "gpt-5.3-codex"])).toEqual(seriesColors(["gpt-5.3-codex", "claude-opus-4-6"]));
  });

  it("never gives two models of one chart the same colour", () => {
    const models = Array.from({ length: SERIES_COLORS.length }, (_, i) => `model-${i}`);
    expect(new Set(seriesColors(models).values()).size).toBe(SERIES_COLORS.length);
  });
});

describe("day labels", () => {
  it("read the same on the server and in the browser", () => {
    expect(formatDay("2026-02-03")).toBe("3 Feb");
    expect(formatDay("2026-12-31", true)).toBe("31 Dec 2026");
  });
});
