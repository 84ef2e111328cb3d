/** A clock for the lease state machine's tests: time moves only when a test advances it. */
import type { Clock } from "./lease.ts";

/** A fake {@link Clock}: sleeps end when {@link FakeClock.advance} passes their deadline or they are woken. */
export class FakeClock implements Clock {
  t = 1_000_000;
  #timers: { at: number; done: () => void }[] = [];

  now(): number {
    return this.t;
  }

  sleep(ms: number, wake: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      if (wake.aborted) return resolve();
      const timer = { at: this.t + Math.max(0, ms), done: resolve };
      this.#timers.push(timer);
      wake.addEventListener("abort", () => {
        this.#timers = this.#timers.filter((x) => x !== timer);
        resolve();
      });
    });
  }

  /** Lets pending promise chains run. */
  async settle(): Promise<void> {
    for (let i = 0; i < 20; i++) await Promise.resolve();
  }

  /** Moves time forward by `ms`, firing each due sleep in order and letting its waiter run. */
  async advance(ms: number): Promise<void> {
    const end = this.t + ms;
    await this.settle();
    for (;;) {
      this.#timers.sort((a, b) => a.at - b.at);
      const next = this.#timers[0];
      if (next === undefined || next.at > end) break;
      this.#timers.shift();
      this.t = Math.max(this.t, next.at);
      next.done();
      await this.settle();
    }
    this.t = end;
    await this.settle();
  }
}
