import { describe, expect, it } from "vitest";
import { activityGrid, busiestHoursSentence, cellName, MAX_DAY_ROWS } from "./activity-grid";

describe("activityGrid", () => {
  it("a short range is a row per local day, every hour a cell named with its day, hour and figures", () => {
    const grid = activityGrid(
      [
        { day: "2026-11-03", hour: 14, turns: 42, responses: 12 },
        { day: "2026-11-04", hour: 0, turns: 1, responses: 0 },
      ],
      "2026-11-02",
      "2026-11-04",
    );
    expect(grid.rows).toBe("day");
    expect(grid.grid.map((row) => row.label)).toEqual(["Mon 2 Nov", "Tue 3 Nov", "Wed 4 Nov"]);
    expect(grid.grid.every((row) => row.cells.length === 24)).toBe(true);
    const cell = grid.grid[1]!.cells[14]!;
    expect(cell).toMatchObject({ turns: 42, responses: 12, level: 4 });
    expect(cell.name).toBe("Tue 3 Nov, 14:00–15:00: 42 turns, 12 responses");
    expect(grid.grid[2]!.cells[0]).toMatchObject({ level: 1, name: "Wed 4 Nov, 00:00–01:00: 1 turn, 0 responses" });
    expect(grid.grid[0]!.cells[23]!.name).toBe("Mon 2 Nov, 23:00–24:00: no turns");
    expect(grid.totalTurns).toBe(43);
  });

  it("a range of more than 35 days folds onto the weekdays, summing the days that are one", () => {
    const grid = activityGrid(
      [
        { day: "2026-11-03", hour: 9, turns: 10, responses: 4 }, // a Tuesday
        { day: "2026-11-10", hour: 9, turns: 5, responses: 1 }, // the next Tuesday
        { day: "2026-11-08", hour: 22, turns: 3, responses: 3 }, // a Sunday
        { day: "2026-12-31", hour: 9, turns: 100, responses: 100 }, // after the range
      ],
      "2026-10-01",
      "2026-11-30",
    );
    expect(grid.rows).toBe("weekday");
    expect(grid.grid.map((row) => row.label)).toEqual(["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]);
    expect(grid.grid[1]!.cells[9]).toMatchObject({ turns: 15, responses: 5, name: "Tuesdays, 09:00–10:00: 15 turns, 5 responses" });
    expect(grid.grid[6]!.cells[22]!.turns).toBe(3);
    expect(grid.totalTurns).toBe(18);
  });

  it("folds exactly when the range is longer than MAX_DAY_ROWS days", () => {
    expect(activityGrid([], "2026-01-01", "2026-02-04").grid).toHaveLength(MAX_DAY_ROWS);
    expect(activityGrid([], "2026-01-01", "2026-02-05").rows).toBe("weekday");
  });

  it("shades by the busiest cell's turns, with a legend of the turns each shade stands for", () => {
    const grid = activityGrid(
      [1, 25, 26, 50, 51, 100].map((turns, hour) => ({ day: "2026-01-01", hour, turns, responses: 0 })),
      "2026-01-01",
      "2026-01-01",
    );
    expect(grid.grid[0]!.cells.slice(0, 7).map((cell) => cell.level)).toEqual([1, 1, 2, 2, 3, 4, 0]);
    expect(grid.legend).toEqual([
      { level: 1, from: 1, to: 25 },
      { level: 2, from: 26, to: 50 },
      { level: 3, from: 51, to: 75 },
      { level: 4, from: 76, to: 100 },
    ]);
    // A busiest cell of 2 turns has two shades, not four with empty ranges.
    expect(activityGrid([{ day: "2026-01-01", hour: 3, turns: 2, responses: 0 }], "2026-01-01", "2026-01-01").legend).toEqual([
      { level: 2, from: 1, to: 1 },
      { level: 4, from: 2, to: 2 },
    ]);
  });

  it("names the busiest hours of the day over the range", () => {
    const grid = activityGrid(
      [
        { day: "2026-01-01", hour: 14, turns: 30, responses: 0 },
        { day: "2026-01-02", hour: 14, turns: 30, responses: 0 },
        { day: "2026-01-02", hour: 9, turns: 1_200, responses: 0 },
        { day: "2026-01-02", hour: 3, turns: 1, responses: 0 },
        { day: "2026-01-02", hour: 4, turns: 1, responses: 0 },
      ],
      "2026-01-01",
      "2026-01-02",
    );
    expect(busiestHoursSentence(grid)).toBe(
      "Busiest hours: 09:00–10:00 (1,200 turns), 14:00–15:00 (60 turns), 03:00–04:00 (1 turn), of 1,262 turns in the range.",
    );
    expect(busiestHoursSentence(activityGrid([], "2026-01-01", "2026-01-02"))).toBe("No turns in this range.");
  });

  it("says a cell of responses without turns as its figures", () => {
    expect(cellName("Sundays", 0, 0, 2)).toBe("Sundays, 00:00–01:00: 0 turns, 2 responses");
  });
});
