/**
 * A concurrency limit with a bounded queue: at most `max` calls run, at most `maxQueued`
 * wait; one more is refused at once (the daemon answers it with code 11, try again later).
 */
import { CniError, ErrorCode } from "@tscni/spec";

/** Thrown when the queue is full. */
export class QueueFullError extends CniError {
  constructor(queued: number) {
    super(ErrorCode.TryAgainLater, "the CNI daemon is busy; try again later", `${queued} calls are already waiting`);
  }
}

/** A counting semaphore with a FIFO queue of bounded length. */
export class Limiter {
  readonly #max: number;
  readonly #maxQueued: number;
  #running = 0;
  readonly #waiting: (() => void)[] = [];

  constructor(max: number, maxQueued: number) {
    this.#max = Math.max(1, max);
    this.#maxQueued = Math.max(0, maxQueued);
  }

  /** Calls running now. */
  get running(): number {
    return this.#running;
  }

  /** Calls waiting for a slot. */
  get queued(): number {
    return this.#waiting.length;
  }

  /**
   * Runs `fn` in a slot, waiting in line when all are taken; throws {@link QueueFullError}
   * when the line is full.
   *
   * @example await limiter.run(() => runCniCall(manager, call))
   */
  async run<T>(fn: () => Promise<T>): Promise<T> {
    if (this.#running >= this.#max) {
      if (this.#waiting.length >= this.#maxQueued) throw new QueueFullError(this.#waiting.length);
      await new Promise<void>((resolve) => this.#waiting.push(resolve));
    } else {
      this.#running++;
    }
    try {
      return await fn();
    } finally {
      // The slot passes straight to the next in line, so the count never dips in between.
      const next = this.#waiting.shift();
      if (next !== undefined) next();
      else this.#running--;
    }
  }
}
