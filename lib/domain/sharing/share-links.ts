/** Pure rules of share links: the token's shape, the page's path, expiry limits and what a list shows. */

/** A share token: 32 random bytes as base64url (256 bits, 43 characters, no padding). */
const SHARE_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;
const SHARE_PATH_PATTERN = /^\/s\/([A-Za-z0-9_-]{43})$/;

/** Whether a value has a share token's shape; anything else is answered 404 without a database read. */
export function isShareToken(value: string): boolean {
  return SHARE_TOKEN_PATTERN.test(value);
}

/** Whether a path is a shared page (`/s/<token>`, the token well formed): the one page anyone may open with sign-in on. */
export function isSharePath(pathname: string): boolean {
  return SHARE_PATH_PATTERN.test(pathname);
}

/** How long a link works: 7 days unless asked otherwise, from 1 hour to a year. */
export const SHARE_EXPIRY_HOURS = { default: 168, min: 1, max: 8760 } as const;

/** The expiries the Share dialog offers. */
export const SHARE_EXPIRY_CHOICES = [
  { hours: 1, label: "1 hour" },
  { hours: 24, label: "1 day" },
  { hours: 168, label: "7 days" },
  { hours: 720, label: "30 days" },
] as const;

/**
 * The absolute URL of a shared page: on THREADLINE_URL when it is set (the address people use),
 * else on the origin the request came to (its Host, which the proxy has checked against the
 * server's names, and its scheme).
 */
export function shareUrl(token: string, origin: { publicUrl: string | null; host: string; secure: boolean }): string {
  const base = origin.publicUrl ?? `${origin.secure ? "https" : "http"}://${origin.host}`;
  return `${base.replace(/\/+$/, "")}/s/${token}`;
}

/** A share link as lists show it (GET /api/shares, Settings, the Share dialog): never its token. */
export type ShareLinkView = {
  id: string;
  threadId: string;
  threadTitle: string | null;
  /** The maker's name or email; null with sign-in off. */
  createdBy: string | null;
  createdAt: string;
  expiresAt: string;
  expired: boolean;
  views: number;
  subagents: boolean;
};

/** A link just made: its token in full, shown this once. */
export type CreatedShareLink = { id: string; url: string; token: string; expiresAt: string };
