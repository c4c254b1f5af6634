/**
 * Polls `read` until `accept` holds or `withinMs` pass (10 s unless told), every `everyMs` (100 ms);
 * returns the last value read, for the caller's assertion to show when it never held.
 */
export async function eventually<T>(read: () => Promise<T>, accept: (value: T) => boolean, options: { withinMs?: number; everyMs?: number } = {}): Promise<T> {
  const deadline = Date.now() + (options.withinMs ?? 10_000);
  for (;;) {
    const value = await read();
    if (accept(value) || Date.now() > deadline) return value;
    await new Promise((r) => setTimeout(r, options.everyMs ?? 100));
  }
}
