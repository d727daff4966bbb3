import { describe, expect, it, vi } from "vitest";
import { fakeTimers } from "@/lib/testing/fake-timers";
import { createBus, createThrottle } from "./event-bus";

describe("createBus", () => {
  it("hands each event to every listener, in the order they subscribed, until they unsubscribe", () => {
    const bus = createBus<number>();
    const seen: string[] = [];
    const stopA = bus.subscribe((n) => seen.push(`a${n}`));
    bus.subscribe((n) => seen.push(`b${n}`));
    bus.publish(1);
    stopA();
    stopA(); // twice is harmless
    bus.publish(2);
    expect(seen).toEqual(["a1", "b1", "b2"]);
    expect(bus.size()).toBe(1);
  });

  it("keeps going when a listener throws, and reports the error", () => {
    const errors: unknown[] = [];
    const bus = createBus<string>({ onListenerError: (error) => errors.push(error) });
    const seen: string[] = [];
    bus.subscribe(() => {
      throw new Error("broken listener");
    });
    bus.subscribe((event) => seen.push(event));
    bus.publish("x");
    expect(seen).toEqual(["x"]);
    expect(errors).toEqual([new Error("broken listener")]);
  });

  it("does not call a listener unsubscribed by another during the same event, and counts one function subscribed twice twice", () => {
    const bus = createBus<number>();
    const seen: string[] = [];
    let stopB = () => {};
    bus.subscribe(() => {
      seen.push("a");
      stopB();
    });
    stopB = bus.subscribe(() => seen.push("b"));
    bus.publish(1);
    expect(seen).toEqual(["a"]);
    const twice = vi.fn();
    bus.subscribe(twice);
    bus.subscribe(twice);
    bus.publish(2);
    expect(twice).toHaveBeenCalledTimes(2);
  });
});

describe("createThrottle", () => {
  it("runs at once, then at most once per interval, and never drops the last request", () => {
    const { timers, advance, pending } = fakeTimers();
    const run = vi.fn();
    const throttle = createThrottle(run, 200, timers);
    throttle.request();
    expect(run).toHaveBeenCalledTimes(1);
    advance(50);
    throttle.request();
    throttle.request();
    advance(100);
    throttle.request();
    expect(run).toHaveBeenCalledTimes(1); // three requests, merged into one at t=200
    advance(50);
    expect(run).toHaveBeenCalledTimes(2);
    expect(pending()).toBe(0);
    advance(1000);
    throttle.request(); // long after: at once
    expect(run).toHaveBeenCalledTimes(3);
  });

  it("runs an urgent request at once, in place of a waiting one", () => {
    const { timers, advance, pending } = fakeTimers();
    const run = vi.fn();
    const throttle = createThrottle(run, 200, timers);
    throttle.request();
    advance(10);
    throttle.request();
    expect(pending()).toBe(1);
    throttle.request(true);
    expect(run).toHaveBeenCalledTimes(2);
    expect(pending()).toBe(0);
    advance(1000);
    expect(run).toHaveBeenCalledTimes(2);
  });

  it("cancel drops a waiting run", () => {
    const { timers, advance } = fakeTimers();
    const run = vi.fn();
    const throttle = createThrottle(run, 200, timers);
    throttle.request();
    throttle.request();
    throttle.cancel();
    advance(1000);
    expect(run).toHaveBeenCalledTimes(1);
  });
});
