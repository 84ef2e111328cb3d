/**
 * NsRunner.spawn (runner.ts, setns.ts): the child starts inside the namespace it is given,
 * gets its stdin, and is awaited back home: the caller's thread is in its own namespace
 * again as soon as the call returns, while the child may still be running (the firewall
 * overlaps its tools with a plugin's kernel work this way).
 */
import { describe, expect, test } from "bun:test";
import { statSync } from "node:fs";
import { canUseRealKernel, withThrowawayNetns } from "../testing/throwaway.ts";
import { createNsenterRunner, type NsRunner } from "./runner.ts";
import { createSetnsRunner } from "./setns.ts";

const root = canUseRealKernel();
if (!root && process.env.CI === "true") throw new Error("the runner spawn test must run under CI: run it as root");
if (!root) console.warn("skipping the runner spawn test: it needs root (CI runs it as root)");
const run = root ? describe : describe.skip;

const RUNNERS: [string, () => Promise<NsRunner>][] = [
  ["setns", createSetnsRunner],
  ["nsenter", async () => createNsenterRunner()],
];

run.each(RUNNERS)("the %s runner's spawn", (_, make) => {
  test("runs the child in the namespace given, with its stdin, and returns home at once", async () => {
    const runner = await make();
    const inode = (path: string): string => String(statSync(path).ino);
    const home = inode("/proc/thread-self/ns/net");
    await withThrowawayNetns(
      1,
      async ([ns]) => {
        const target = inode(ns!.path);
        const where = runner.spawn(ns!.path, { argv: ["sh", "-c", "sleep 0.2; stat -L -c %i /proc/self/ns/net"] });
        // Back home while the child still runs.
        expect(inode("/proc/thread-self/ns/net")).toBe(home);
        const echoed = runner.spawn(ns!.path, { argv: ["cat"], stdin: "the restore input\n" });
        expect(await where).toEqual({ exitCode: 0, stdout: `${target}\n`, stderr: "" });
        expect(await echoed).toEqual({ exitCode: 0, stdout: "the restore input\n", stderr: "" });
        expect(target).not.toBe(home);
      },
      "spawn",
    );
  });

  test("a namespace that is gone fails the spawn, and nothing runs at home", async () => {
    const runner = await make();
    const r = runner.spawn("/var/run/netns/tscni-spawn-none", { argv: ["true"] });
    await expect(r).rejects.toThrow();
  });
});
