import { describe, expect, it } from "vitest";
import { eventChannel } from "./events";

describe("eventChannel", () => {
  it("hands over what was pushed before and while it is read, and ends when ended", async () => {
    const channel = eventChannel<number>();
    channel.push(1);
    const read = (async () => {
      const seen: number[] = [];
      for await (const item of channel) seen.push(item);
      return seen;
    })();
    channel.push(2);
    await new Promise((resolve) => setTimeout(resolve, 5));
    channel.push(3);
    channel.end();
    channel.push(4); // after the end: dropped, not thrown
    await expect(read).resolves.toEqual([1, 2, 3]);
  });

  it("lets a reader stop early and a later one go on where it stopped", async () => {
    const channel = eventChannel<string>();
    for (const item of ["a", "b", "c"]) channel.push(item);
    channel.end();
    for await (const item of channel) {
      expect(item).toBe("a");
      break;
    }
    const rest: string[] = [];
    for await (const item of channel) rest.push(item);
    expect(rest).toEqual(["b", "c"]);
  });
});
