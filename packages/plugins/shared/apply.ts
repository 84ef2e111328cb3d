/**
 * Applying a plan on the Kernel port with rollback: when an operation fails, the undos
 * of the operations before it run (each on its own, best effort) and the failure is
 * rethrown. A failed ADD therefore leaves no per-attachment state (ADD-6).
 */
import { KernelError, type Kernel, type KernelOp } from "@tscni/kernel";
import { opsOf, undoOf, type PlanStep } from "./steps.ts";

/** Runs undo operations one at a time; a link or namespace already gone is fine. Returns the failures. */
export async function rollback(kernel: Kernel, undo: readonly KernelOp[]): Promise<string[]> {
  const failures: string[] = [];
  for (const op of undo) {
    try {
      await kernel.apply([op]);
    } catch (err) {
      if (err instanceof KernelError && (err.kind === "not-found" || err.kind === "netns-gone")) continue;
      failures.push(err instanceof Error ? err.message : String(err));
    }
  }
  return failures;
}

/**
 * Applies the steps as one batch. On failure, undoes the steps applied before the
 * failing one (all of them when the driver cannot tell which failed) and rethrows, with
 * the failing step's index in the whole plan. A step marked `existsOk` that fails because
 * its object exists is passed over, and the rest of the plan goes on.
 * `warn` receives rollback failures, which never mask the original error.
 */
export async function applyWithRollback(
  kernel: Kernel,
  steps: readonly PlanStep[],
  warn: (msg: string) => void = () => {},
): Promise<void> {
  for (let start = 0; start < steps.length; ) {
    try {
      await kernel.apply(opsOf(steps.slice(start)));
      return;
    } catch (err) {
      const known = err instanceof KernelError && err.opIndex !== undefined;
      const failed = known ? start + (err as KernelError).opIndex! : steps.length;
      if (known && (err as KernelError).kind === "exists" && steps[failed]?.existsOk === true) {
        start = failed + 1;
        continue;
      }
      for (const failure of await rollback(kernel, undoOf(steps, failed))) warn(`rollback: ${failure}`);
      if (known && start > 0) throw new KernelError((err as KernelError).kind, (err as Error).message, failed);
      throw err;
    }
  }
}
