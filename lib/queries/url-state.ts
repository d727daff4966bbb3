/**
 * Client-safe: the state pages keep in their URL (the thread list's filters; the budget page's
 * model, context window and counting mode), read and written by one pair of functions each, the
 * same on the server (a page's searchParams) and in the browser (what it puts in the address bar).
 * Values that do not validate are dropped, never shown as an error page: a URL is typed by people.
 */
import { z } from "zod";
import { searchQuerySchema } from "@/lib/validation/search";
import { listThreadsQuerySchema } from "@/lib/validation/threads";
import { FILTER_KEYS, type ContextSelection, type ThreadFilters } from "./threads";

type SearchParams = Record<string, string | string[] | undefined> | URLSearchParams;

function firstValue(params: SearchParams, key: string): string | undefined {
  if (params instanceof URLSearchParams) return params.get(key) ?? undefined;
  const value = params[key];
  return Array.isArray(value) ? value[0] : value;
}

/** "?k=v&..." for the non-empty values, or "" when there are none. */
function queryString(values: Record<string, string | undefined>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(values)) if (value) params.set(key, value);
  const query = params.toString();
  return query ? `?${query}` : "";
}

export function readThreadFilters(params: SearchParams): ThreadFilters {
  const parsed = listThreadsQuerySchema.safeParse(Object.fromEntries(FILTER_KEYS.map((key) => [key, firstValue(params, key)])));
  return parsed.success
    ? Object.fromEntries(FILTER_KEYS.map((key) => [key, parsed.data[key]]).filter(([, value]) => value !== undefined))
    : {};
}

export function threadFiltersQuery(filters: ThreadFilters): string {
  return queryString(Object.fromEntries(FILTER_KEYS.map((key) => [key, filters[key]])));
}

const budgetSchema = z.object({
  model: z.string().trim().max(300).optional().catch(undefined),
  contextWindow: z
    .string()
    .trim()
    .regex(/^\d{1,12}$/)
    .optional()
    .catch(undefined),
  mode: z.enum(["exact", "pal"]).optional().catch(undefined),
});

/** The budget page's selection from its URL; the model falls back to `defaultModel`. */
export function readBudgetSelection(params: SearchParams, defaultModel: string): ContextSelection {
  const { model, contextWindow, mode } = budgetSchema.parse({
    model: firstValue(params, "model"),
    contextWindow: firstValue(params, "contextWindow"),
    mode: firstValue(params, "mode"),
  });
  return { model: model || defaultModel, contextWindow: contextWindow ?? "", mode: mode ?? "exact" };
}

/** "exact" is the default and stays out of the URL. */
export function budgetSelectionQuery(selection: ContextSelection): string {
  return queryString({
    model: selection.model,
    contextWindow: selection.contextWindow,
    mode: selection.mode === "exact" ? undefined : selection.mode,
  });
}

/** The search page's words (`?q=`), also kept by a hit's link to a thread: undefined when absent or not searchable. */
export function readSearchText(params: SearchParams): string | undefined {
  const parsed = searchQuerySchema.shape.q.safeParse(firstValue(params, "q"));
  return parsed.success ? parsed.data : undefined;
}
