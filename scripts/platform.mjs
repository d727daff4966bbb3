// The platform a package of Threadline runs on. The package carries better-sqlite3 compiled on the
// machine that packed it (scripts/pack.mjs), for its system, processor, C library and Node.js ABI:
// `threadline serve` compares them with this machine's before it loads anything native, so that a
// mismatch is one sentence rather than a dlopen error. Node built-ins only.

/** This machine: platform and arch as Node.js names them, the C library on Linux, Node.js's module ABI. */
export function currentPlatform() {
  let libc = "";
  if (process.platform === "linux") {
    // glibc reports its version here; musl (Alpine) reports none.
    const header = /** @type {{ glibcVersionRuntime?: string }} */ (process.report.getReport().header);
    libc = header.glibcVersionRuntime ? "glibc" : "musl";
  }
  return { platform: process.platform, arch: process.arch, libc, abi: process.versions.modules, node: process.versions.node };
}

/** @param {{ platform: string, arch: string, libc: string, abi: string, node: string }} p */
function described(p) {
  const system = p.platform === "linux" ? "Linux" : p.platform === "darwin" ? "macOS" : p.platform === "win32" ? "Windows" : p.platform;
  return `${system} ${p.arch}${p.libc ? ` (${p.libc})` : ""} with Node.js ${p.node.split(".")[0]} (module ABI ${p.abi})`;
}

/**
 * Why a package packed on `packed` cannot run on `current`, or null when it can.
 * @param {{ platform: string, arch: string, libc: string, abi: string, node: string }} packed
 * @param {{ platform: string, arch: string, libc: string, abi: string, node: string }} current
 */
export function platformProblem(packed, current) {
  const same = packed.platform === current.platform && packed.arch === current.arch && packed.libc === current.libc;
  if (same && packed.abi === current.abi) return null;
  return [
    `This package of Threadline is for ${described(packed)}: it carries a better-sqlite3 compiled for that.`,
    `This machine is ${described(current)}.`,
    "Run Threadline from a clone instead (npm start), or make a package on a machine like this one (npm run pack in a clone).",
  ].join(" ");
}
