// How a command-line script's main function writes and ends, so the same function runs as the
// process (scripts/usage.ts) and inside a test's process (no child process per case: a tsx start
// costs seconds of CPU on this machine).

/** Where a command writes: stdout takes the result as is, stderr takes whole lines. */
export type CliIo = { out(text: string): void; err(line: string): void };

/** Runs `main` as this process: its output on the process's streams, its result as the exit code once stdout is written. */
export async function runAsProcess(main: (io: CliIo) => Promise<number>): Promise<void> {
  // `npm run usage | head` closes the pipe early: that is not a failure.
  process.stdout.on("error", (error: NodeJS.ErrnoException) => process.exit(error.code === "EPIPE" ? 0 : 1));
  const chunks: string[] = [];
  const code = await main({ out: (text) => chunks.push(text), err: (line) => console.error(line) });
  // process.exit right after a write may cut a piped stdout short: exit once it is written.
  process.stdout.write(chunks.join(""), () => process.exit(code));
}
