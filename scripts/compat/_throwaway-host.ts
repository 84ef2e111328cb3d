/**
 * A namespace for compat suites that call a plugin synchronously where nothing should
 * change (a config or stdin that fails before the plugin touches anything): the calls run
 * in it, never in the machine's own, because a case that stopped failing early would
 * otherwise act there (the reference bridge makes its bridge before it opens the netns,
 * host-local writes its store). Made before the suite's tests, removed after them.
 */
import { afterAll, beforeAll } from "bun:test";
import { createThrowawayNetns, deleteThrowawayNetns, type ThrowawayNetns } from "@tscni/kernel/testing";

/** Registers the namespace's set-up when the suite runs; returns argv's prefix to run inside it. */
export function throwawayHost(tag: string, runs: boolean): () => string[] {
  let host: ThrowawayNetns | undefined;
  if (runs) {
    beforeAll(() => {
      host = createThrowawayNetns(tag);
    });
    afterAll(() => deleteThrowawayNetns(host));
  }
  return () => {
    if (host === undefined) throw new Error(`${tag}: the throwaway namespace was not made`);
    return ["ip", "netns", "exec", host.name];
  };
}
