// `npm run pack`: the package that `npx <package> serve` runs with no build and no install step,
// written as threadline-<version>.tgz (here, or in --destination), and beside it
// threadline-push-<version>.tgz, `threadline push` alone for a laptop of any system. It holds the production build
// (Next.js's standalone output: the server's bundles and the node_modules files they use, traced),
// the scripts that serve it, the files read at run time by path, and no sources, tests, fixtures or
// development tools. docs/install.md has its sizes and times.
//
// Why not `npm pack` in the clone: the clone's package.json lists the dependencies for npm to
// install, and better-sqlite3 installs by downloading or compiling its addon, which machines with
// only the npm registry cannot do. The package's package.json lists none: what the server needs
// comes inside it, better-sqlite3's compiled addon included, which ties the package to the
// platform it was packed on (scripts/platform.mjs checks it at start).
//
// How the node_modules get in: npm leaves a package's own top-level node_modules out of it, but
// for bundleDependencies, which it packs whole (not the traced files) and rebuilds on install
// (npm's rebuild-bundle), and for better-sqlite3 that rebuild is the download this avoids. A
// node_modules deeper in is packed, and installed, like any other folder. So the server lives in
// dist/, its node_modules at dist/node_modules, where Node.js finds them from dist/scripts/server.mjs
// and from the bundles in dist/.next. Every staged file is checked to be in the tarball (an ignore
// file deeper in would drop some silently).
//
// Next.js names some server packages by hashed aliases (better-sqlite3-90e2652d1716b047), symbolic
// links in .next/node_modules to the package itself; npm packs no symbolic links. The aliases are
// written back as the packages' own names in the bundles, which resolve to the same files in
// dist/node_modules: one copy of each, loaded once (two copies of SQLite in a process would break
// its file locks).
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { commandLine, ensureBuild, ensureDependencies, ensurePrismaClient, root } from "./lib.mjs";
import { currentPlatform } from "./platform.mjs";

const { values } = commandLine("npm run pack", "usage: npm run pack [-- --destination <folder>]", { destination: { type: "string" } });
const destination = path.resolve(values.destination ?? root);

/** Files the server reads by path at run time, besides the build: scripts, worker threads, migrations. */
const RUNTIME_FILES = [
  "next.config.mjs",
  "scripts/threadline.mjs",
  "scripts/serve-package.mjs",
  "scripts/server.mjs",
  "scripts/server-checks.mjs",
  "scripts/auth-gate.mjs",
  "scripts/platform.mjs",
  "scripts/sqlite-migrate.mjs",
  "scripts/lib.mjs",
  "scripts/build-workers.mjs",
  "lib/tokenizers/count-worker.mjs",
  "lib/tokenizers/linear-count.mjs",
  "lib/db/engine/checkpoint-worker.mjs",
  "build/workers/parse-worker.cjs",
  "scripts/push.mjs",
  "build/workers/push.cjs",
  "prisma/migrations",
];

/**
 * Traced node_modules files the package leaves out: Prisma's runtimes for other databases and
 * engines (the generated clients load client.js and the query compilers' ES modules for SQLite
 * and PostgreSQL only: 48 MB), sharp (next/image's optimizer, which no page uses: 19 MB), types
 * and source maps.
 */
const LEFT_OUT = [
  /^@prisma\/client\/runtime\/(query_engine_bg|library|binary|edge|edge-esm|react-native|wasm-engine-edge|wasm-compiler-edge)\./,
  /^@prisma\/client\/runtime\/query_compiler_bg\.(mysql|sqlserver|cockroachdb)\./,
  /^@prisma\/client\/runtime\/query_compiler_bg\.[\w.-]+\.js$/,
  /^(sharp|@img)(\/|$)/,
  /\.(map|d\.ts|d\.mts|d\.cts)$/,
];

const standalone = path.join(root, ".next", "standalone");
const stage = path.join(root, ".tmp", "package");
const dist = path.join(stage, "dist");
const pushStage = path.join(root, ".tmp", "package-push");

/** Every file under `dir`, relative to it, with / separators. */
function filesUnder(dir, prefix = "") {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const relative = prefix ? `${prefix}/${entry.name}` : entry.name;
    return entry.isDirectory() ? filesUnder(path.join(dir, entry.name), relative) : [relative];
  });
}

/** The build, made afresh when its standalone output is missing or from another build. */
function ensureStandaloneBuild() {
  const buildId = (folder) => {
    const file = path.join(folder, ".next", "BUILD_ID");
    return existsSync(file) ? readFileSync(file, "utf8") : "";
  };
  const current = () => buildId(root) !== "" && buildId(root) === buildId(standalone);
  ensureBuild({ force: !current() });
  if (!current()) throw new Error('.next/standalone is missing after next build: is output "standalone" still set in next.config.mjs?');
}

/** The hashed aliases of .next/node_modules, each with the package it links to ("@prisma/client-2c3a..." -> "@prisma/client"). */
function serverAliases() {
  const folder = path.join(standalone, ".next", "node_modules");
  if (!existsSync(folder)) return [];
  return linksUnder(folder).map((alias) => {
    const link = path.join(folder, alias);
    const target = path.relative(path.join(standalone, "node_modules"), path.resolve(path.dirname(link), readlinkSync(link)));
    if (target.startsWith("..") || !existsSync(path.join(dist, "node_modules", target))) {
      throw new Error(`.next/node_modules/${alias} links to ${target}, which is not a package in the standalone output`);
    }
    return { alias, name: target.split(path.sep).join("/") };
  });
}

/** The symbolic links under `dir` (one level, or two in a @scope folder), relative to it. */
function linksUnder(dir) {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (lstatSync(full).isSymbolicLink()) return [name];
    return name.startsWith("@") ? readdirSync(full).map((inner) => `${name}/${inner}`) : [];
  });
}

/** Writes each alias in the server's build as the package's own name, and checks that none is left. */
function resolveAliases(aliases) {
  const escape = (text) => text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
  const server = path.join(dist, ".next");
  for (const file of filesUnder(server).filter((name) => /\.(js|json)$/.test(name) && !name.startsWith("static/"))) {
    const full = path.join(server, file);
    const text = readFileSync(full, "utf8");
    let rewritten = text;
    for (const { alias, name } of aliases) {
      rewritten = rewritten.replace(new RegExp(`(["'\`])${escape(alias)}(?=["'\`/])`, "g"), `$1${name}`);
    }
    if (rewritten !== text) writeFileSync(full, rewritten);
    const left = aliases.find(({ alias }) => rewritten.includes(alias));
    if (left) throw new Error(`dist/.next/${file} still names ${left.alias} after its aliases were resolved`);
  }
}

/** Packages the staged scripts load only in a clone: scripts/build-workers.mjs bundles the workers, which the package has built. */
const CLONE_ONLY_PACKAGES = new Set(["esbuild"]);

/** What the staged scripts import that the package lacks (a command added without what it needs), each named. */
function missingImports() {
  const scripts = filesUnder(dist).filter((file) => /^(scripts|lib)\/.*\.(mjs|cjs)$/.test(file));
  return scripts.flatMap((file) => {
    const text = readFileSync(path.join(dist, file), "utf8");
    // import ... from "x", import "x", import("x"), require("x"), createRequire(...)("x")
    const specifiers = [...text.matchAll(/(?:from\s+|import\s+|import\(\s*|require\(\s*|\)\(\s*)["']([^"'\s]+)["']/g)].map(
      (match) => match[1] ?? "",
    );
    return specifiers
      .filter((specifier) => {
        if (specifier.startsWith("node:")) return false;
        if (specifier.startsWith(".")) return !existsSync(path.join(dist, path.dirname(file), specifier));
        const name = specifier
          .split("/")
          .slice(0, specifier.startsWith("@") ? 2 : 1)
          .join("/");
        return !CLONE_ONLY_PACKAGES.has(name) && !existsSync(path.join(dist, "node_modules", name));
      })
      .map((specifier) => `${file} imports ${specifier}`);
  });
}

function stageFiles() {
  rmSync(stage, { recursive: true, force: true });
  mkdirSync(dist, { recursive: true });
  const modules = path.join(standalone, "node_modules");
  cpSync(modules, path.join(dist, "node_modules"), {
    recursive: true,
    filter: (source) => !LEFT_OUT.some((pattern) => pattern.test(path.relative(modules, source).split(path.sep).join("/"))),
  });
  // The server's build without the trace files, source maps and alias links (resolved below).
  const built = path.join(standalone, ".next");
  cpSync(built, path.join(dist, ".next"), {
    recursive: true,
    filter: (source) => {
      const relative = path.relative(built, source).split(path.sep).join("/");
      return !(relative === "node_modules" || /\.(nft\.json|map)$/.test(relative));
    },
  });
  cpSync(path.join(root, ".next", "static"), path.join(dist, ".next", "static"), { recursive: true });
  if (existsSync(path.join(root, "public"))) cpSync(path.join(root, "public"), path.join(dist, "public"), { recursive: true });
  for (const file of RUNTIME_FILES) {
    cpSync(path.join(root, file), path.join(dist, file), { recursive: true });
  }
  resolveAliases(serverAliases());
  const missing = missingImports();
  if (missing.length > 0) {
    throw new Error(`the package would lack what its scripts import: ${missing.join("; ")} (add the files to RUNTIME_FILES)`);
  }

  const platform = currentPlatform();
  writeFileSync(path.join(dist, "platform.json"), `${JSON.stringify(platform, null, 2)}\n`);
  const own = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8"));
  const major = Number(platform.node.split(".")[0]);
  const manifest = {
    name: own.name,
    version: own.version,
    description: own.description,
    // Not for a registry: it runs only where it was packed.
    private: true,
    type: "module",
    bin: { threadline: "dist/scripts/threadline.mjs" },
    files: ["dist"],
    // npm refuses to install it elsewhere; scripts/platform.mjs says why if it is run anyway.
    engines: { node: `>=${major === 20 ? "20.19" : major} <${major + 1}` },
    os: [platform.platform],
    cpu: [platform.arch],
    ...(platform.libc && { libc: [platform.libc] }),
  };
  writeFileSync(path.join(stage, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`);
  cpSync(path.join(root, "README.md"), path.join(stage, "README.md"));
  return filesUnder(stage);
}

/**
 * The laptop's package, threadline-push-<version>.tgz: `threadline push` alone, its bundle
 * (build/workers/push.cjs: Node.js's own modules only) and a launcher, for any system with
 * Node.js 20, where the server's package runs only on the platform it was packed on.
 */
function stagePushFiles() {
  rmSync(pushStage, { recursive: true, force: true });
  mkdirSync(pushStage, { recursive: true });
  cpSync(path.join(root, "build", "workers", "push.cjs"), path.join(pushStage, "push.cjs"));
  writeFileSync(
    path.join(pushStage, "threadline-push.cjs"),
    '#!/usr/bin/env node\n// `threadline-push ...`: threadline push (its --help says how).\nrequire("./push.cjs").main(process.argv.slice(2)).then((code) => (process.exitCode = code));\n',
  );
  const own = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8"));
  const manifest = {
    name: `${own.name}-push`,
    version: own.version,
    description: "Sends a laptop's agent sessions to a Threadline server (threadline push).",
    private: true,
    bin: { "threadline-push": "threadline-push.cjs" },
    files: ["push.cjs", "threadline-push.cjs"],
    engines: { node: ">=20.19" },
  };
  writeFileSync(path.join(pushStage, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`);
  return filesUnder(pushStage);
}

/** Packs a staged folder into `destination`; npm's answer for it. */
function npmPack(staged, from = stage) {
  mkdirSync(destination, { recursive: true });
  const output = execFileSync("npm", ["pack", "--json", "--pack-destination", destination], {
    cwd: from,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
    env: { ...process.env, npm_config_update_notifier: "false", npm_config_fund: "false" },
  });
  const [result] = JSON.parse(output);
  // The tarball's own listing: npm's JSON masks path parts that look like secrets (UUIDs among them).
  const tarball = path.join(destination, result.filename);
  const listing = execFileSync("tar", ["-tzf", tarball], { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  const packed = new Set(listing.split("\n").map((entry) => entry.replace(/^package\//, "")));
  const dropped = staged.filter((file) => !packed.has(file));
  if (dropped.length > 0) {
    throw new Error(`npm pack left out ${dropped.length} staged file(s), the package would not run: ${dropped.slice(0, 10).join(", ")}`);
  }
  return { ...result, tarball };
}

try {
  ensureDependencies();
  ensurePrismaClient();
  ensureStandaloneBuild();
  const startedStaging = Date.now();
  const staged = stageFiles();
  const startedPacking = Date.now();
  const result = npmPack(staged);
  const seconds = (from, to) => `${((to - from) / 1000).toFixed(1)} s`;
  const mb = (bytes) => `${(bytes / 1e6).toFixed(1)} MB`;
  const push = npmPack(stagePushFiles(), pushStage);
  console.log(`[threadline] ${push.tarball}: ${mb(push.size)} packed (threadline-push, for a laptop of any system)`);
  console.log(
    `[threadline] ${result.tarball}: ${mb(result.size)} packed, ${mb(result.unpackedSize)} unpacked, ${result.entryCount} files (staged in ${seconds(startedStaging, startedPacking)}, npm pack ${seconds(startedPacking, Date.now())})`,
  );
} catch (error) {
  console.error(`[threadline] npm run pack: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
