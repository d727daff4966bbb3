#!/usr/bin/env node
// `threadline <command>`: the command of the package `npm run pack` makes (its package.json's bin;
// `npx threadline serve`). Each command is a script of its own, run as if started directly, so a
// command is added by dropping its script here and naming it in COMMANDS; a script the package
// does not hold says so. Node built-ins only.
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

const USAGE = `usage: threadline <command>

  serve        serves Threadline at http://127.0.0.1:3000 (HOST and PORT change it), its database in
               $XDG_DATA_HOME/threadline or ~/.local/share/threadline (DATABASE_URL changes it)
  push ...     pushes sessions to a Threadline server (threadline push --help)
  --help       this text`;

/** Each command's script, beside this file. */
const COMMANDS = { serve: "serve-package.mjs", push: "push.mjs" };

const [command, ...args] = process.argv.slice(2);
if (command === undefined || command === "--help" || command === "-h" || command === "help") {
  console.log(USAGE);
} else if (!Object.hasOwn(COMMANDS, command)) {
  console.error(`threadline: there is no command ${JSON.stringify(command)}\n${USAGE}`);
  process.exit(2);
} else {
  const script = new URL(COMMANDS[/** @type {keyof typeof COMMANDS} */ (command)], import.meta.url);
  if (!existsSync(script)) {
    console.error(`threadline: ${command} is not available in this version`);
    process.exit(1);
  }
  // The script reads its arguments from process.argv.slice(2), as when run with node itself.
  process.argv = [process.argv[0] ?? process.execPath, fileURLToPath(script), ...args];
  await import(script.href);
}
