// The PostgreSQL server the test suite's PostgreSQL pass uses (scripts/test.mjs, .ci/run).
// THREADLINE_TEST_POSTGRES_URL names one (an admin URL whose role may create databases); "off"
// skips the pass. Unset, on a Debian machine with the postgresql package (run as root), the local
// cluster is started with pg_ctlcluster and a test role created on it. Node built-ins only.
import { spawnSync } from "node:child_process";

const ROLE = "threadline_test";
const PASSWORD = "threadline_test";

function sh(command, args) {
  const result = spawnSync(command, args, { encoding: "utf8" });
  return { ok: result.status === 0, out: (result.stdout ?? "").trim(), err: (result.stderr ?? "").trim() || result.error?.message || "" };
}

/** {url} of the admin connection the tests use, or {skipped} with the reason. */
export function testPostgres() {
  const configured = process.env.THREADLINE_TEST_POSTGRES_URL?.trim();
  if (configured === "off") return { skipped: "THREADLINE_TEST_POSTGRES_URL=off" };
  if (configured) return { url: configured };
  if (!sh("which", ["pg_lsclusters"]).ok) return { skipped: "no PostgreSQL: set THREADLINE_TEST_POSTGRES_URL to an admin URL of a server" };
  if (process.getuid?.() !== 0) return { skipped: "a local cluster is only started as root: set THREADLINE_TEST_POSTGRES_URL" };

  // "15 main 5432 down postgres /var/lib/... /var/log/..."
  const cluster = sh("pg_lsclusters", ["-h"]).out.split("\n")[0]?.split(/\s+/);
  if (!cluster || cluster.length < 4) return { skipped: "pg_lsclusters lists no cluster" };
  const [version, name, port, status] = cluster;
  if (status !== "online") {
    console.log(`[threadline] starting PostgreSQL ${version}/${name} (pg_ctlcluster)`);
    const started = sh("pg_ctlcluster", [version, name, "start"]);
    if (!started.ok) return { skipped: `pg_ctlcluster ${version} ${name} start failed: ${started.err}` };
  }
  // CREATEDB is enough: the test databases are created from a template this role owns, and the
  // migration's one extension (unaccent) is a trusted one.
  const psql = (sql) => sh("su", ["postgres", "-c", `psql -p ${port} -tAc "${sql}"`]);
  const exists = psql(`SELECT 1 FROM pg_roles WHERE rolname = '${ROLE}'`);
  if (!exists.ok) return { skipped: `psql as postgres failed: ${exists.err}` };
  if (exists.out !== "1") {
    const created = psql(`CREATE ROLE ${ROLE} LOGIN CREATEDB PASSWORD '${PASSWORD}'`);
    if (!created.ok) return { skipped: `could not create role ${ROLE}: ${created.err}` };
  }
  return { url: `postgresql://${ROLE}:${PASSWORD}@127.0.0.1:${port}/postgres` };
}
