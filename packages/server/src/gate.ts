/**
 * Keeping GC apart from ADD and DEL (GC-8): the daemon runs attachment commands side by
 * side, but a GC waits for those in flight and holds back new ones until it is done.
 */

/** A readers-writer gate over async work: many `shared` runs at once, or one `exclusive`. */
export class CommandGate {
  #exclusive: Promise<void> = Promise.resolve();
  /** Exclusive runs queued or running. */
  #queued = 0;
  readonly #inflight = new Set<Promise<unknown>>();

  /**
   * Runs `fn` alongside other shared work, once no exclusive run is pending.
   *
   * @example await gate.shared(() => runtime.addNetworkList(list, rt))
   */
  async shared<T>(fn: () => Promise<T>): Promise<T> {
    // Checked and started in one synchronous step, so an exclusive run queued meanwhile is seen.
    while (this.#queued > 0) await this.#exclusive;
    const run = fn();
    this.#inflight.add(run);
    try {
      return await run;
    } finally {
      this.#inflight.delete(run);
    }
  }

  /**
   * Runs `fn` alone: after earlier exclusive runs and the shared work already in flight,
   * before any shared work that arrives later.
   *
   * @example await gate.exclusive(() => runtime.gcNetworkList(list, args))
   */
  async exclusive<T>(fn: () => Promise<T>): Promise<T> {
    this.#queued++;
    const previous = this.#exclusive;
    let release = (): void => {};
    this.#exclusive = new Promise<void>((resolve) => (release = resolve));
    try {
      await previous;
      await Promise.allSettled([...this.#inflight]);
      return await fn();
    } finally {
      this.#queued--;
      release();
    }
  }
}
