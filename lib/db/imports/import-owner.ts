import "server-only";
import { AsyncLocalStorage } from "node:async_hooks";
import { isOwner, visibilityOfNewThread, type ThreadVisibility } from "@/lib/domain/access";
import { AppError } from "@/lib/domain/errors";
import { visibilityRules, type VisibilityRules } from "../people/visibility";

/**
 * Whose an import is (issue 39): the person whose token or session imported or pushed a file, and
 * the machine it came from. Set around an import by its entry point (importingFor: the import and
 * push endpoints); an import outside any (a followed folder, the import CLI) is the server's own,
 * whose threads belong to the first admin (lib/domain/access). Read where threads are written
 * (turn-stream-import.ts, transfer.ts): one place each, however deep the import's call chain.
 */
export type ImportOwner = {
  ownerId: string | null;
  /** Whether the threads nobody owns are theirs too (they are the first admin). */
  ownsUnowned: boolean;
  machine: string | null;
  rules: VisibilityRules;
};

const current = new AsyncLocalStorage<ImportOwner>();

/** Runs `work` as an import of `person`'s (from `machine`): the threads it creates are theirs, with their visibility rules. */
export async function importingFor<T>(
  person: { userId: string; ownsUnowned: boolean } | null,
  machine: string | null,
  work: () => Promise<T>,
): Promise<T> {
  const ownerId = person?.userId ?? null;
  const owner: ImportOwner = { ownerId, ownsUnowned: person?.ownsUnowned ?? true, machine, rules: await visibilityRules(ownerId) };
  return current.run(owner, work);
}

/** How long the server's own rules (the first admin's) are kept between imports: a change shows within this. */
const SERVER_RULES_MS = 5_000;
let serverRules: { rules: Promise<VisibilityRules>; at: number } | null = null;

/** The owner of the import running now: the one importingFor set, else the server (the first admin's rules). */
export async function currentImportOwner(): Promise<ImportOwner> {
  const set = current.getStore();
  if (set) return set;
  if (!serverRules || Date.now() - serverRules.at > SERVER_RULES_MS) serverRules = { rules: visibilityRules(null), at: Date.now() };
  return { ownerId: null, ownsUnowned: true, machine: null, rules: await serverRules.rules };
}

/** The owner columns of a thread an import creates. */
export function newThreadColumns(
  owner: ImportOwner,
  project: string | null,
): { ownerId: string | null; visibility: ThreadVisibility; machine: string | null } {
  return { ownerId: owner.ownerId, visibility: visibilityOfNewThread(owner.rules, project), machine: owner.machine };
}

/**
 * Refuses an import that would change a stored thread of another person's (a file with the same
 * session ids as theirs). The server's own imports may change any: they never change its owner.
 */
export function checkThreadOwner(owner: ImportOwner, threadId: string, storedOwnerId: string | null): void {
  if (owner.ownerId === null) return;
  if (!isOwner({ userId: owner.ownerId, ownsUnowned: owner.ownsUnowned }, storedOwnerId))
    throw new AppError(
      "forbidden",
      `Thread ${threadId} is stored already and belongs to another person: this file's sessions were not imported.`,
    );
}
