import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";

/** PostgreSQL's type oids for `name` and `char`, and the `text` they are reported as. */
const NAME_OID = 19;
const CHAR_OID = 18;
const TEXT_OID = 25;

/**
 * A pool whose results report `name` and `char` columns as `text`. Prisma's Wasm schema engine
 * (the only one that runs here) cannot read those types in the catalog queries `migrate deploy`
 * makes (prisma/orm#27403); the values are plain strings either way.
 */
class TextNamesPool extends pg.Pool {
  // pg's overloads (callback, config object, submittable) are passed straight through; only `any`
  // satisfies all of them as one override.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  query(...args: unknown[]): any {
    const result = (super.query as (...a: unknown[]) => unknown)(...args);
    if (result && typeof (result as Promise<unknown>).then === "function") {
      return (result as Promise<pg.QueryResult>).then((res) => {
        for (const field of res?.fields ?? []) {
          if (field.dataTypeID === NAME_OID || field.dataTypeID === CHAR_OID) field.dataTypeID = TEXT_OID;
        }
        return res;
      });
    }
    return result;
  }
}

/** How many connections one app process keeps open to PostgreSQL. */
const POSTGRES_POOL_SIZE = 10;

/** The driver adapter for a postgres:// URL: the app, the CLI (prisma.config.ts) and scripts share it. */
export function postgresAdapter(url: string): PrismaPg {
  // disposeExternalPool: $disconnect() closes the pool's connections. allowExitOnIdle: idle
  // connections keep no process alive (the CLI's `migrate deploy` otherwise lingered 10 s after
  // its work, for pg's idle timeout, on every run).
  return new PrismaPg(new TextNamesPool({ connectionString: url, max: POSTGRES_POOL_SIZE, allowExitOnIdle: true }), {
    disposeExternalPool: true,
  });
}

export function isPostgresUrl(url: string): boolean {
  return /^postgres(ql)?:\/\//.test(url);
}
