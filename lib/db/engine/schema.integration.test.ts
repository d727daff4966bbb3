/**
 * The two schemas cannot drift: the PostgreSQL schema is the SQLite one with its provider swapped
 * (scripts/postgres-schema.mjs), and the committed migrations of the database under test build
 * exactly the models of its schema (introspected with `prisma db pull`, compared with `migrate diff`).
 */
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { serverSettings } from "@/lib/env";
import { db } from "./client";
import { databaseKind } from "./create-client";
import { prismaCliArgs } from "./migrate";
import { isPostgresUrl } from "./postgres-adapter";
import { POSTGRES_SCHEMA, SQLITE_SCHEMA, postgresSchema } from "../../../scripts/lib.mjs";

function prisma(args: string[], url: string) {
  return spawnSync(process.execPath, [...prismaCliArgs(), ...args], {
    encoding: "utf8",
    env: { ...process.env, DATABASE_URL: url, PRISMA_HIDE_UPDATE_MESSAGE: "1" },
  });
}

describe("database schemas", () => {
  it("prisma/postgres/schema.prisma is the SQLite schema with only its provider and client folder changed", () => {
    const sqlite = readFileSync(SQLITE_SCHEMA, "utf8");
    const postgres = readFileSync(POSTGRES_SCHEMA, "utf8");
    expect(postgres).toBe(postgresSchema(sqlite));
    const models = (text: string) => text.slice(text.indexOf("\nmodel "));
    expect(models(postgres)).toBe(models(sqlite));
    expect(execFileSync(process.execPath, ["scripts/postgres-schema.mjs", "--check"], { encoding: "utf8" })).toBe("");
  });

  it("refuses a SQLite schema it does not recognise instead of writing a wrong one", () => {
    expect(() => postgresSchema('datasource db {\n  provider = "mysql"\n}')).toThrow(/expected a line matching/);
  });

  it("the committed migrations of this database build exactly the schema's models", { timeout: 60_000 }, async () => {
    const url = serverSettings().databaseUrl;
    const schema = isPostgresUrl(url) ? POSTGRES_SCHEMA : SQLITE_SCHEMA;
    const pulled = prisma(["db", "pull", "--print"], url);
    expect(pulled.status, pulled.stderr).toBe(0);
    const file = path.join(mkdtempSync(path.join(tmpdir(), "threadline-schema-")), "pulled.prisma");
    // Search is written by hand in the migrations, outside the models (the last test checks it):
    // SQLite's FTS5 tables (TurnSearch*), PostgreSQL's words column and trigram index.
    const models = pulled.stdout
      .slice(pulled.stdout.indexOf("generator "))
      .replace(/^model TurnSearch\w* \{[^}]*\}\n/gm, "")
      .replace(/^.*(searchVector|gin_trgm_ops).*\n/gm, "");
    writeFileSync(file, models);
    const diff = prisma(["migrate", "diff", "--from-schema-datamodel", file, "--to-schema-datamodel", schema, "--exit-code"], url);
    expect(diff.stdout + diff.stderr).toContain("No difference detected");
    expect(diff.status).toBe(0);
  });

  it("has the full-text search index the migrations add by hand", async () => {
    const client = await db();
    if (databaseKind(client) === "postgres") {
      const rows = await client.$queryRawUnsafe<{ indexdef: string }[]>(
        `SELECT indexdef FROM pg_indexes WHERE indexdef LIKE '%USING gin%' ORDER BY indexname`,
      );
      expect(rows.map((row) => row.indexdef)).toEqual([
        expect.stringMatching(/ON public."Thread" USING gin \(COALESCE\("searchTitle", title\) gin_trgm_ops\)/),
        expect.stringMatching(/ON public."Turn" USING gin \("searchVector"\)/),
      ]);
    } else {
      // The index reads the masked copy of a turn through the view (search matches nothing inside a secret).
      const rows = await client.$queryRawUnsafe<{ name: string }[]>(
        `SELECT name FROM sqlite_master WHERE name IN ('TurnSearch', 'TurnSearchText') ORDER BY name`,
      );
      expect(rows.map((row) => row.name)).toEqual(["TurnSearch", "TurnSearchText"]);
    }
  });
});
