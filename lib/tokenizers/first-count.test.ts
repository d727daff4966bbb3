// A file of its own: its module state is fresh, as a server's is before its first count.
import { expect, it } from "vitest";
import { countingStats, countTexts } from "./background-counter";
import { engineLoaded } from "./engines";

it("loads the vocabulary for a server's first count on the worker, while this thread goes on answering", async () => {
  const order: string[] = [];
  const counted = countTexts("o200k_base", ["hello world"]).then((counts) => {
    order.push("counted");
    return counts;
  });
  // Another request's turn on the event loop: it comes before the count's answer, not after a vocabulary load here.
  await new Promise((resolve) => setImmediate(resolve));
  order.push("another request");
  expect(await counted).toEqual([{ tokens: 2, estimated: false }]);
  expect(order).toEqual(["another request", "counted"]);
  expect(engineLoaded("o200k_base")).toBe(false);
  expect(countingStats).toMatchObject({ offThread: 1, inline: 0 });
});
