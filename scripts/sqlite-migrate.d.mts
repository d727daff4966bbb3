// Types for scripts/sqlite-migrate.mjs.
export function committedMigrations(folder: string): { name: string; sql: string; checksum: string }[];
export function migrateSqlite(file: string, folder: string): { applied: string[]; changed: string[] };
