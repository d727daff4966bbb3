// Types for scripts/lib.mjs, so TypeScript scripts (scripts/bench/) can import its helpers.
import type { SpawnSyncOptions } from "node:child_process";
import type { ParseArgsConfig } from "node:util";

export const root: string;
export function keepStdoutForData(): void;
export function run(command: string, args: string[], options?: SpawnSyncOptions): void;
export function npx(name: string, args: string[], options?: SpawnSyncOptions): void;
export function ensureDependencies(): void;
export function ensurePrismaClient(): void;
export const SQLITE_SCHEMA: string;
export const POSTGRES_SCHEMA: string;
export function postgresSchema(sqlite: string): string;
export function postgresSchemaIsCurrent(): boolean;
export function writePostgresSchema(): boolean;
export function ensureBuild(options?: { force?: boolean }): void;
export function ensureMigrated(): void;
export function databaseFile(): string;
export function shownDatabase(): string;
export function commandLine<O extends NonNullable<ParseArgsConfig["options"]>>(
  name: string,
  usage: string,
  options: O,
  settings?: { positionals?: boolean; args?: string[] },
): { values: { [K in keyof O]?: O[K] extends { type: "boolean" } ? boolean : string }; positionals: string[] };
export function readCommandLine<O extends NonNullable<ParseArgsConfig["options"]>>(
  options: O,
  settings?: { positionals?: boolean; args?: string[] },
):
  | { ok: true; values: { [K in keyof O]?: O[K] extends { type: "boolean" } ? boolean : string }; positionals: string[] }
  | { ok: false; error: string };
