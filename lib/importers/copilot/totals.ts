// Copilot CLI's only token counts: per-model totals in `session.shutdown`, one report per process.
// A resumed session appends a new process's events, and its own shutdown, to the same file: the
// reports are summed. Their inputTokens include cache reads and writes; Threadline's exclude them.
import type { ModelSessionTotal, SessionTotals } from "@/lib/domain/usage/session-totals";
import type { JsonObject } from "@/lib/domain/types";
import { count, obj, type Json } from "./values";

const SESSION_TOTALS_SOURCE = "copilot session.shutdown";

const emptyModel = (): ModelSessionTotal => ({
  requests: 0,
  premiumRequests: 0,
  inputTokens: 0,
  cacheReadTokens: 0,
  cacheWriteTokens: 0,
  outputTokens: 0,
  reasoningTokens: 0,
  reportedInputTokens: 0,
});

export class ShutdownLedger {
  readonly warnings: string[] = [];
  private reports = 0;
  private readonly models = new Map<string, ModelSessionTotal>();
  private premiumRequests = 0;
  private apiDurationMs = 0;
  private linesAdded = 0;
  private linesRemoved = 0;
  private readonly filesModified = new Set<string>();
  private reportedAt: string | null = null;

  add(data: Json, line: number, timestamp: string | null): void {
    this.reports += 1;
    this.reportedAt = timestamp ?? this.reportedAt;
    this.premiumRequests += count(data.totalPremiumRequests);
    this.apiDurationMs += count(data.totalApiDurationMs);
    const changes = obj(data.codeChanges);
    if (changes) {
      this.linesAdded += count(changes.linesAdded);
      this.linesRemoved += count(changes.linesRemoved);
      if (Array.isArray(changes.filesModified))
        for (const file of changes.filesModified) if (typeof file === "string") this.filesModified.add(file);
    }
    const metrics = obj(data.modelMetrics);
    for (const [model, value] of Object.entries(metrics ?? {})) {
      const metric = obj(value);
      if (!metric) {
        this.warnings.push(`line ${line}: modelMetrics.${model} is not an object: left out of the session totals`);
        continue;
      }
      const requests = obj(metric.requests) ?? {};
      const usage = obj(metric.usage) ?? {};
      const reportedInput = count(usage.inputTokens);
      const cacheRead = count(usage.cacheReadTokens);
      const cacheWrite = count(usage.cacheWriteTokens);
      const uncached = reportedInput - cacheRead - cacheWrite;
      if (uncached < 0)
        this.warnings.push(
          `line ${line}: ${model}'s inputTokens (${reportedInput}) are fewer than its cache reads and writes (${cacheRead + cacheWrite}): uncached input counted as 0`,
        );
      const total = this.models.get(model) ?? emptyModel();
      total.requests += count(requests.count);
      total.premiumRequests += count(requests.cost);
      total.reportedInputTokens += reportedInput;
      total.inputTokens += Math.max(0, uncached);
      total.cacheReadTokens += cacheRead;
      total.cacheWriteTokens += cacheWrite;
      total.outputTokens += count(usage.outputTokens);
      total.reasoningTokens += count(usage.reasoningTokens);
      this.models.set(model, total);
    }
  }

  /** The summed totals, or null when the file holds no shutdown report. */
  totals(): JsonObject | null {
    if (this.reports === 0) return null;
    const totals: SessionTotals = {
      source: SESSION_TOTALS_SOURCE,
      reports: this.reports,
      models: Object.fromEntries(this.models),
      premiumRequests: this.premiumRequests,
      apiDurationMs: this.apiDurationMs,
      codeChanges: { linesAdded: this.linesAdded, linesRemoved: this.linesRemoved, filesModified: [...this.filesModified].sort() },
      reportedAt: this.reportedAt,
    };
    return totals as unknown as JsonObject;
  }
}
