/** Helpers shared by the sim tests (not exported from the package). */
import { KernelError } from "../index.ts";

/** The KernelError kind a call throws, or undefined when it does not throw. */
export function kindOf(fn: () => unknown): string | undefined {
  try {
    fn();
    return undefined;
  } catch (e) {
    if (e instanceof KernelError) return e.kind;
    throw e;
  }
}
