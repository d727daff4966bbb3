// Counts tokens for lib/tokenizers/background-counter.ts on another core. Plain JavaScript, run by
// node:worker_threads from its path: the app's bundler never sees it. It must count exactly as
// lib/tokenizers/engines.ts does (its test compares the two).
import { createRequire } from "node:module";
import { parentPort, workerData } from "node:worker_threads";

const require = createRequire(import.meta.url);
const encoding = require(`gpt-tokenizer/encoding/${workerData.encoding}`);
const PLAIN_TEXT = { disallowedSpecial: new Set() };

parentPort.on("message", ({ id, texts }) => {
  const counts = texts.map((text) => (text === "" ? 0 : encoding.countTokens(text, PLAIN_TEXT)));
  parentPort.postMessage({ id, counts });
});
