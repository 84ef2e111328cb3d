/**
 * Same-container calls one at a time (LC-2, issue 16 item 4): ADD, CHECK and DEL of one
 * network, container and interface run in arrival order, calls for other keys alongside.
 */

/** Runs async work serialised per key; a key's entry is dropped when its last run ends. */
export class KeyedQueue {
  readonly #tails = new Map<string, Promise<void>>();

  /** Keys with work queued or running (for tests and metrics). */
  get size(): number {
    return this.#tails.size;
  }

  /**
   * Runs `fn` after every earlier run of `key` has settled.
   *
   * @example await queue.run("net/c1/eth0", () => runtime.delNetworkList(list, rt))
   */
  async run<T>(key: string, fn: () => Promise<T>): Promise<T> {
    const previous = this.#tails.get(key) ?? Promise.resolve();
    let release = (): void => {};
    const tail = new Promise<void>((resolve) => (release = resolve));
    const mine = previous.then(() => tail);
    this.#tails.set(key, mine);
    try {
      await previous;
      return await fn();
    } finally {
      release();
      if (this.#tails.get(key) === mine) this.#tails.delete(key);
    }
  }
}
