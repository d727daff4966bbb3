// Counts tokens for lib/tokenizers/background-counter.ts on another core. Plain JavaScript, run by
// node:worker_threads from its path: the app's bundler never sees it. It counts with
// ./linear-count.mjs, as lib/tokenizers/engines.ts does, so the two count alike.
import { parentPort } from "node:worker_threads";
import { engine } from "./linear-count.mjs";

parentPort.on("message", ({ id, engine: engineId, texts }) => {
  try {
    const count = engine(engineId);
    const tokens = new Array(texts.length);
    const estimated = new Array(texts.length);
    texts.forEach((text, i) => {
      const counted = count(text);
      tokens[i] = counted.tokens;
      estimated[i] = counted.estimated;
    });
    parentPort.postMessage({ id, tokens, estimated });
  } catch (error) {
    parentPort.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  }
});
