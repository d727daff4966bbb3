/** Keyset position in the thread list: most recent activity first, id as the tie-breaker. */
export type ListCursor = { lastUpdatedAt: Date; id: string };

export function encodeCursor(cursor: ListCursor): string {
  return Buffer.from(`${cursor.lastUpdatedAt.toISOString()}|${cursor.id}`, "utf8").toString("base64url");
}

/** Null when the cursor is not one we issued. */
export function decodeCursor(raw: string): ListCursor | null {
  let text: string;
  try {
    text = Buffer.from(raw, "base64url").toString("utf8");
  } catch {
    return null;
  }
  const [iso, id, ...rest] = text.split("|");
  if (!iso || !id || rest.length > 0) return null;
  const lastUpdatedAt = new Date(iso);
  if (Number.isNaN(lastUpdatedAt.getTime()) || lastUpdatedAt.toISOString() !== iso) return null;
  return { lastUpdatedAt, id };
}

/** A page of turns' cursor: the index the next page starts at, opaque to clients. */
export function encodeTurnCursor(index: number): string {
  return Buffer.from(`turn:${index}`, "utf8").toString("base64url");
}

/** The index a turn cursor we issued names; null for anything else. */
export function decodeTurnCursor(raw: string): number | null {
  const match = /^turn:(0|[1-9]\d{0,9})$/.exec(Buffer.from(raw, "base64url").toString("utf8"));
  return match ? Number(match[1]) : null;
}

/** A search page's keyset position: the hit's score (lower is better) and its turn key. */
export type SearchCursor = { score: number; seq: number };

export function encodeSearchCursor(cursor: SearchCursor): string {
  return Buffer.from(`hit:${cursor.score}|${cursor.seq}`, "utf8").toString("base64url");
}

/** Null when the cursor is not one we issued. */
export function decodeSearchCursor(raw: string): SearchCursor | null {
  const match = /^hit:(-?[0-9.e+-]{1,40})\|([1-9][0-9]{0,14})$/.exec(Buffer.from(raw, "base64url").toString("utf8"));
  if (!match) return null;
  const score = Number(match[1]);
  // The score as JavaScript wrote it, and nothing else: a double round-trips exactly through its shortest form.
  if (!Number.isFinite(score) || String(score) !== match[1]) return null;
  return { score, seq: Number(match[2]) };
}
