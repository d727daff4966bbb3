/**
 * A single-consumer channel of a reply's events, on a web ReadableStream: the reply is pumped (and
 * stored) whether or not anyone still reads it, so pushing never waits and never fails; a reader
 * that stops early releases the stream and a later reader goes on where it stopped.
 */
export type EventChannel<T> = AsyncIterable<T> & { push(item: T): void; end(): void };

export function eventChannel<T>(): EventChannel<T> {
  let controller!: ReadableStreamDefaultController<T>;
  const stream = new ReadableStream<T>({ start: (c) => void (controller = c) });
  let ended = false;
  return {
    push(item) {
      if (!ended) controller.enqueue(item);
    },
    end() {
      if (ended) return;
      ended = true;
      controller.close();
    },
    async *[Symbol.asyncIterator]() {
      const reader = stream.getReader();
      try {
        for (let next = await reader.read(); !next.done; next = await reader.read()) yield next.value;
      } finally {
        reader.releaseLock();
      }
    },
  };
}

/** Events already known, as the same kind of iterable. */
export async function* replay<T>(items: T[]): AsyncGenerator<T> {
  yield* items;
}
