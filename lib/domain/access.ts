/**
 * Who may read and change which threads when people sign in (THREADLINE_AUTH=on; issue 39).
 *
 * Every thread belongs to a person: whoever created, imported or pushed it. A thread with no
 * owner (the server's own followed folders, threads made with sign-in off, a deleted person's)
 * belongs to the first admin. A thread is private to its owner until it is shared with the team;
 * existence is private too, so a thread another person may not read is answered as not found.
 *
 * Roles: an admin manages people, tokens and settings and sees the whole team's figures (not
 * their private texts); a member reads their own threads and the team's, and writes; a viewer only
 * reads what is shared with the team.
 */

export const ROLES = ["admin", "member", "viewer"] as const;
export type Role = (typeof ROLES)[number];

export const VISIBILITIES = ["private", "team"] as const;
export type ThreadVisibility = (typeof VISIBILITIES)[number];

/**
 * Whose reading a query is for. Null: no person, so no limit: sign-in is off (one user, who reads
 * everything), or the server's own work (sync, scan, sums).
 */
export type Reader = {
  userId: string;
  role: Role;
  /** Whether the threads nobody owns are this person's: they are the first admin. */
  ownsUnowned: boolean;
} | null;

export type OwnedThread = { ownerId: string | null; visibility: string };

/** Better Auth's admin plugin keeps roles as a comma-separated list; the strongest one counts. */
export function roleOf(stored: string | null | undefined): Role {
  const roles = stored?.split(",").map((role) => role.trim()) ?? [];
  if (roles.includes("admin")) return "admin";
  if (roles.includes("viewer") && !roles.includes("member")) return "viewer";
  return "member";
}

/** Whether the reader owns the thread (null reader: nobody is asking, so nobody owns it). */
function owns(reader: Reader, thread: Pick<OwnedThread, "ownerId">): boolean {
  return reader !== null && reader.role !== "viewer" && isOwner(reader, thread.ownerId);
}

/** Whether a thread owned by `ownerId` (null: nobody, so the first admin) is this person's. */
export function isOwner(person: { userId: string; ownsUnowned: boolean }, ownerId: string | null): boolean {
  return ownerId === null ? person.ownsUnowned : ownerId === person.userId;
}

export function mayRead(reader: Reader, thread: OwnedThread): boolean {
  return reader === null || thread.visibility === "team" || owns(reader, thread);
}

/** Sharing or unsharing a thread: its owner, or an admin. */
export function mayChangeVisibility(reader: Reader, thread: OwnedThread): boolean {
  return reader === null || reader.role === "admin" || owns(reader, thread);
}

/** Creating, importing, pushing, replying: everyone but a viewer. */
export function mayWrite(reader: Reader): boolean {
  return reader === null || reader.role !== "viewer";
}

/**
 * The visibility a new thread of `owner` in `project` takes: the project's, when its owner set
 * one ("share all of project X with the team"), else the owner's default, else private.
 */
export function visibilityOfNewThread(
  rules: { defaultVisibility: ThreadVisibility; projects: ReadonlyMap<string, ThreadVisibility> },
  project: string | null,
): ThreadVisibility {
  return (project !== null ? rules.projects.get(project) : undefined) ?? rules.defaultVisibility;
}
