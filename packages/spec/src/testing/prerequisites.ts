/**
 * What a test file needs from the machine (root, a tool, the built binary, the reference
 * plugins) and what happens when it is missing: outside CI the file's tests skip with a
 * line saying why; under `CI=true` a skip would let CI stay green without testing, so the
 * file gets one failing test that names the missing piece instead (issue 10, item 1).
 */
import { test } from "bun:test";
import { underCi } from "./machine.ts";

export { DEBIAN_PACKAGE, firstMissing, missingFile, missingRoot, missingTools, underCi } from "./machine.ts";

/**
 * Decides whether the tests of `what` run. Returns true (skip them) when `reason` says a
 * prerequisite is missing. Outside CI it prints why; under `CI=true` it also registers a
 * failing test named after the missing piece, so the run cannot pass by skipping.
 * Use as `describe.skipIf(skipUnless("loopback on the real kernel", missingRoot()))(...)`.
 */
export function skipUnless(what: string, reason: string | undefined): boolean {
  if (reason === undefined) return false;
  if (underCi()) {
    test(`${what} has what it needs under CI=true (${reason})`, () => {
      throw new Error(`CI=true and ${what} cannot run: ${reason}`);
    });
  } else {
    console.warn(`skipping ${what}: ${reason} (under CI=true this fails)`);
  }
  return true;
}
