// What the store answers about compactions, as the API, the pages and the client render it.
import type { JsonObject } from "../types";
import type { References, TrimmedOutput } from "./types";

/** How a revision was made from its original, as the API and the pages show it. */
export type CompactionRecord = {
  id: string;
  originalThreadId: string;
  revisionThreadId: string;
  strategy: string;
  summarizer: string;
  summarizerModel: string | null;
  targetModel: string | null;
  tokenizer: string;
  options: JsonObject;
  replaced: number[];
  trimmed: TrimmedOutput[];
  tokensBefore: number;
  tokensAfter: number;
  durationMs: number;
  summaryEdited: boolean;
  lostReferences: References;
  createdAt: string;
};

export type CompactionLinks = {
  revisions: (CompactionRecord & { revisionTitle: string | null })[];
  compactedFrom: (CompactionRecord & { originalTitle: string | null; originalExists: boolean }) | null;
};

export type JobStatus = "running" | "succeeded" | "failed" | "cancelled";

export type CompactionJobRecord = {
  id: string;
  threadId: string;
  status: JobStatus;
  request: JsonObject;
  result: JsonObject | null;
  error: { kind: string; message: string } | null;
  progress: string | null;
  /** The revision it was applied as, once applied. */
  revisionThreadId: string | null;
  createdAt: string;
  updatedAt: string;
};
