/**
 * A throwaway directory with a plugin dir of fake plugins, a cache dir and a call log, for
 * tests that run real plugin processes.
 */
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseConfList } from "@tscni/config";
import type { NetworkConfigList } from "@tscni/config";
import type { FakeAnswer, FakeCall } from "./fake-plugin.ts";

const FAKE = new URL("./fake-plugin.ts", import.meta.url).pathname;

/** A sandbox of fake plugins. */
export interface Sandbox {
  readonly dir: string;
  readonly binDir: string;
  readonly cacheDir: string;
  readonly log: string;
  /** Installs the fake plugin under `type` in the bin dir. */
  install(...types: string[]): void;
  /** Installs a `#!/bin/sh` script under `type`. */
  script(type: string, body: string): string;
  /** The calls recorded so far, in order. */
  calls(): FakeCall[];
  /** Forgets the recorded calls. */
  reset(): void;
  /**
   * A parsed list whose plugins log to this sandbox: each entry is a type or a plugin object
   * (its `answer` becomes `fake.answer`).
   */
  list(
    name: string,
    cniVersion: string,
    plugins: readonly (string | Record<string, unknown>)[],
    extra?: Record<string, unknown>,
  ): NetworkConfigList;
  cleanup(): void;
}

/** Creates a sandbox under the system temp dir. */
export function makeSandbox(): Sandbox {
  const dir = mkdtempSync(join(tmpdir(), "tscni-rt-"));
  const binDir = join(dir, "bin");
  const cacheDir = join(dir, "cache");
  const log = join(dir, "calls.jsonl");
  mkdirSync(binDir);
  const write = (type: string, content: string): string => {
    const path = join(binDir, type);
    writeFileSync(path, content);
    chmodSync(path, 0o755);
    return path;
  };
  return {
    dir,
    binDir,
    cacheDir,
    log,
    install: (...types) => {
      for (const t of types) write(t, `#!${process.execPath}\nawait import(${JSON.stringify(FAKE)});\n`);
    },
    script: (type, body) => write(type, `#!/bin/sh\n${body}\n`),
    calls: () =>
      existsSync(log)
        ? readFileSync(log, "utf8")
            .split("\n")
            .filter((l) => l !== "")
            .map((l) => JSON.parse(l) as FakeCall)
        : [],
    reset: () => rmSync(log, { force: true }),
    list: (name, cniVersion, plugins, extra = {}) => {
      const objects = plugins.map((p) => {
        if (typeof p === "string") return { type: p, fake: { log } };
        const { answer, tag, ...rest } = p as { answer?: Record<string, FakeAnswer>; tag?: string };
        return {
          ...rest,
          fake: { log, ...(answer !== undefined ? { answer } : {}), ...(tag !== undefined ? { tag } : {}) },
        };
      });
      return parseConfList(JSON.stringify({ cniVersion, name, ...extra, plugins: objects }));
    },
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}
