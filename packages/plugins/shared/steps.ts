/**
 * A plan is a list of steps: a kernel operation and, when the operation belongs to one
 * attachment only, the operation that undoes it. Rollback after a failed ADD replays the
 * undos of the steps that were applied, newest first (ADD-6: nothing is left behind).
 * Shared state (the bridge, its gateway address, forwarding) has no undo: other
 * containers may use it, and the next ADD reuses it as it is.
 */
import type { KernelOp } from "@tscni/kernel";

/** One planned kernel change and, when it is per-attachment, its inverse. */
export interface PlanStep {
  readonly op: KernelOp;
  readonly undo?: KernelOp;
  /** Pass over "file exists" for this operation (a route the result lists twice, H-2). */
  readonly existsOk?: boolean;
}

/** The operations of a plan, in order: what the driver applies and `cni plan` prints. */
export function opsOf(steps: readonly PlanStep[]): KernelOp[] {
  return steps.map((s) => s.op);
}

/**
 * The inverse operations of the first `applied` steps, newest first. `applied` larger
 * than the plan (the failing step unknown) undoes every step.
 */
export function undoOf(steps: readonly PlanStep[], applied: number = steps.length): KernelOp[] {
  const out: KernelOp[] = [];
  for (const step of steps.slice(0, applied)) {
    if (step.undo !== undefined) out.push(step.undo);
  }
  return out.reverse();
}

/** A step that is never undone (shared state, or state that dies with a link). */
export function keep(op: KernelOp): PlanStep {
  return { op };
}
