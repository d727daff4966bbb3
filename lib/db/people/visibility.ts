import { visibilityOfNewThread, type Reader, type ThreadVisibility } from "@/lib/domain/access";
import { db } from "../engine/client";
import { ownedBy } from "../engine/readable";
import { WRITE_TRANSACTION } from "../engine/transactions";
import { firstAdminId } from "./first-admin";

export type VisibilityRules = { defaultVisibility: ThreadVisibility; projects: Map<string, ThreadVisibility> };

const asVisibility = (value: string): ThreadVisibility => (value === "team" ? "team" : "private");

/**
 * The visibility a person gave their new threads and their projects (lib/domain/access
 * visibilityOfNewThread). Null: the server's own threads, which are the first admin's.
 */
export async function visibilityRules(ownerId: string | null): Promise<VisibilityRules> {
  const client = await db();
  const userId = ownerId ?? (await firstAdminId());
  if (userId === null) return { defaultVisibility: "private", projects: new Map() };
  const [user, projects] = await Promise.all([
    client.user.findUnique({ where: { id: userId }, select: { defaultVisibility: true } }),
    client.projectVisibility.findMany({ where: { userId }, select: { project: true, visibility: true } }),
  ]);
  return {
    defaultVisibility: asVisibility(user?.defaultVisibility ?? "private"),
    projects: new Map(projects.map((row) => [row.project, asVisibility(row.visibility)])),
  };
}

export async function setDefaultVisibility(userId: string, visibility: ThreadVisibility): Promise<void> {
  await (await db()).user.update({ where: { id: userId }, data: { defaultVisibility: visibility } });
}

/** Sets one thread's visibility; false when no thread has this id. */
export async function setThreadVisibility(id: string, visibility: ThreadVisibility): Promise<boolean> {
  const { count } = await (await db()).thread.updateMany({ where: { id }, data: { visibility } });
  return count > 0;
}

/**
 * "Share all of project X with the team" (or make it private again): the person's threads in the
 * project now, and the ones they add to it later. `ownsUnowned`: they are the first admin, so the
 * server's own threads in the project are theirs too. The number of threads changed.
 */
export async function setProjectVisibility(
  person: { userId: string; ownsUnowned: boolean },
  project: string,
  visibility: ThreadVisibility,
): Promise<number> {
  const client = await db();
  return client.$transaction(async (tx) => {
    await tx.projectVisibility.upsert({
      where: { userId_project: { userId: person.userId, project } },
      create: { userId: person.userId, project, visibility },
      update: { visibility },
    });
    const { count } = await tx.thread.updateMany({ where: { project, ...ownedBy(person) }, data: { visibility } });
    return count;
  }, WRITE_TRANSACTION);
}

/** Who a new thread belongs to and who reads it: the reader's (null: the server's own) with their rules for the project. */
export type NewThreadOwner = { ownerId: string | null; visibility: ThreadVisibility };

export async function newThreadOwner(reader: Reader, project: string | null): Promise<NewThreadOwner> {
  const ownerId = reader?.userId ?? null;
  return { ownerId, visibility: visibilityOfNewThread(await visibilityRules(ownerId), project) };
}

/** The projects of a person's threads, each with the visibility they gave it (null: none yet, their default applies). */
export async function ownProjects(person: {
  userId: string;
  ownsUnowned: boolean;
}): Promise<{ project: string; visibility: ThreadVisibility | null }[]> {
  const client = await db();
  const [projects, rules] = await Promise.all([
    client.thread.groupBy({ by: ["project"], where: { project: { not: null }, ...ownedBy(person) } }),
    visibilityRules(person.userId),
  ]);
  return projects
    .flatMap((row) => row.project ?? [])
    .sort()
    .map((project) => ({ project, visibility: rules.projects.get(project) ?? null }));
}
