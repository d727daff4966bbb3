import { describe, expect, it } from "vitest";
import { budgetSelectionQuery, readBudgetSelection, readThreadFilters, threadFiltersQuery } from "./url-state";

describe("thread list filters in the URL", () => {
  it("read the same from a page's searchParams and from the address bar, and write back", () => {
    const fromServer = readThreadFilters({ q: "  token refresh ", tool: ["chat", "debug"], model: "", cursor: "x" });
    const fromBrowser = readThreadFilters(new URLSearchParams("q=token+refresh&tool=chat&model="));
    expect(fromServer).toEqual({ q: "token refresh", tool: "chat" });
    expect(fromBrowser).toEqual(fromServer);
    expect(threadFiltersQuery(fromServer)).toBe("?q=token+refresh&tool=chat");
    expect(threadFiltersQuery({})).toBe("");
  });

  it("drop filters that do not validate instead of failing the page", () => {
    expect(readThreadFilters({ q: "x".repeat(600), tool: "chat" })).toEqual({});
  });
});

describe("the budget page's selection in the URL", () => {
  it("falls back to the default model and exact counting, and drops a malformed window", () => {
    expect(readBudgetSelection({}, "gpt-4o")).toEqual({ model: "gpt-4o", contextWindow: "", mode: "exact" });
    expect(readBudgetSelection({ model: "claude-sonnet-4-5", contextWindow: "32000", mode: "pal" }, "gpt-4o")).toEqual({
      model: "claude-sonnet-4-5",
      contextWindow: "32000",
      mode: "pal",
    });
    expect(readBudgetSelection(new URLSearchParams("contextWindow=12abc&mode=fast"), "gpt-4o")).toEqual({
      model: "gpt-4o",
      contextWindow: "",
      mode: "exact",
    });
  });

  it("writes what differs from the defaults, and reads back what it wrote", () => {
    const selection = { model: "gpt-4o", contextWindow: "8000", mode: "pal" as const };
    const query = budgetSelectionQuery(selection);
    expect(query).toBe("?model=gpt-4o&contextWindow=8000&mode=pal");
    expect(readBudgetSelection(new URLSearchParams(query), "other")).toEqual(selection);
    expect(budgetSelectionQuery({ model: "gpt-4o", contextWindow: "", mode: "exact" })).toBe("?model=gpt-4o");
  });
});
