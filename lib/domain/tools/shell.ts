/**
 * Shell commands as a terminal shows them: an argv array (Codex's `shell` and `local_shell`) joined
 * the way a shell would read it back, `bash -lc "<script>"` unwrapped to the script, and Codex's
 * `apply_patch` heredocs recognised so the patch inside can be shown as a diff. Pure, linear.
 */

/** Characters a POSIX shell reads literally outside quotes (Python's shlex.quote keeps these bare). */
const SAFE_WORD = /^[A-Za-z0-9_@%+=:,./-]+$/;

/**
 * One argument as a shell would need it typed: bare when safe, else in single quotes ('\'' for a quote).
 * @internal exported for its tests
 */
export function shellQuote(arg: string): string {
  if (arg === "") return "''";
  if (SAFE_WORD.test(arg)) return arg;
  return `'${arg.split("'").join("'\\''")}'`;
}

/** Shells whose `-c` (or `-lc`, `-ic`, …) argument is the script to show. */
const SHELLS = new Set(["bash", "sh", "zsh", "dash", "ksh", "ash", "fish"]);
const C_FLAG = /^-[a-z]*c[a-z]*$/;
const POWERSHELLS = new Set(["powershell", "powershell.exe", "pwsh", "pwsh.exe"]);

function basename(program: string): string {
  const slash = Math.max(program.lastIndexOf("/"), program.lastIndexOf("\\"));
  return program.slice(slash + 1).toLowerCase();
}

/**
 * An argv array as one command line: `["bash", "-lc", "ls -la"]` is the script `ls -la` (with its
 * real line breaks when it has several lines); anything else is its words, each quoted as needed.
 */
export function argvToCommand(argv: readonly string[]): string {
  if (argv.length === 3) {
    const program = basename(argv[0]!);
    if (SHELLS.has(program) && C_FLAG.test(argv[1]!)) return argv[2]!;
    if (POWERSHELLS.has(program) && /^-(?:c|command)$/i.test(argv[1]!)) return argv[2]!;
  }
  if (argv.length === 4 && basename(argv[0]!) === "env" && SHELLS.has(basename(argv[1]!)) && C_FLAG.test(argv[2]!)) return argv[3]!;
  return argv.map(shellQuote).join(" ");
}

/** Where an `apply_patch` command's patch starts: the program, maybe after `cd <dir> &&`. */
const APPLY_PATCH_START = /^\s*(?:cd\s+[^\n&;|]+&&\s*)?(?:apply_patch|applypatch)\b/;
const BEGIN = "*** Begin Patch";
const END = "*** End Patch";

/**
 * The patch text of a shell command that runs Codex's `apply_patch` (a heredoc, or the patch
 * quoted as its argument), from "*** Begin Patch" to "*** End Patch"; null for any other command.
 */
export function patchInShellCommand(command: string): string | null {
  if (!APPLY_PATCH_START.test(command)) return null;
  const begin = command.indexOf(BEGIN);
  if (begin === -1) return null;
  const end = command.indexOf(END, begin);
  return end === -1 ? command.slice(begin) : command.slice(begin, end + END.length);
}

/** An argv array that is `apply_patch '<patch>'` (Codex passes the patch as one argument): its patch, else null. */
export function patchInArgv(argv: readonly string[]): string | null {
  if (argv.length !== 2) return null;
  const program = basename(argv[0]!);
  if (program !== "apply_patch" && program !== "applypatch") return null;
  return argv[1]!.includes(BEGIN) ? argv[1]! : null;
}
