/**
 * Test fixture of the manager: a sandbox of fake plugins (which record env and stdin) plus
 * a config dir, and a manager wired to both.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { makeSandbox } from "./sandbox.ts";
import type { Sandbox } from "./sandbox.ts";
import type { FakeCall } from "./fake-plugin.ts";
import { PodNetworkManager } from "../manager/pod-network-manager.ts";
import type { PodNetworkManagerOptions } from "../manager/pod-network-manager.ts";

/** A sandbox with a config dir and a record of the manager's warnings. */
export interface ManagerFixture {
  readonly sb: Sandbox;
  readonly confDir: string;
  readonly warnings: string[];
  /** Writes a config file; objects are JSON-encoded and plugins log to the sandbox. */
  conf(file: string, content: string | Record<string, unknown>): void;
  /** A manager over the fixture's config, bin and cache dirs. */
  manager(extra?: Partial<PodNetworkManagerOptions>): PodNetworkManager;
  /** The recorded calls except the VERSION probes of validation. */
  calls(): FakeCall[];
  /** The same calls as `COMMAND tag`. */
  trace(): string[];
}

/** Creates the fixture; call `sb.cleanup()` when done. */
export function managerFixture(): ManagerFixture {
  const sb = makeSandbox();
  const confDir = join(sb.dir, "net.d");
  mkdirSync(confDir);
  const warnings: string[] = [];
  const calls = (): FakeCall[] => sb.calls().filter((c) => c.command !== "VERSION");
  return {
    sb,
    confDir,
    warnings,
    conf: (file, content) =>
      writeFileSync(join(confDir, file), typeof content === "string" ? content : JSON.stringify(content)),
    manager: (extra = {}) =>
      new PodNetworkManager({
        confDir,
        binDirs: [sb.binDir],
        // No vendor dir exists under the sandbox unless a test creates one.
        vendorPrefix: sb.dir,
        cacheDir: sb.cacheDir,
        // The internal loopback list has no `fake` key: its calls are logged through FAKE_LOG.
        baseEnv: { PATH: process.env.PATH, FAKE_LOG: sb.log },
        warn: (w) => warnings.push(w),
        ...extra,
      }),
    calls,
    trace: () => calls().map((c) => `${c.command} ${c.tag}`),
  };
}
