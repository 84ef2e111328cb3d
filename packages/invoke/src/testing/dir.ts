/**
 * A temp directory of `#!/bin/sh` plugins for this package's tests.
 */
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** A temp dir that test plugins are written into. */
export interface ScriptDir {
  readonly dir: string;
  /** Writes an executable `#!/bin/sh` script named `name`; returns its path. */
  script(name: string, body: string): string;
  /** Reads a file of the dir. */
  read(name: string): string;
  cleanup(): void;
}

/** Creates a script dir. */
export function scriptDir(): ScriptDir {
  const dir = mkdtempSync(join(tmpdir(), "tscni-invoke-"));
  return {
    dir,
    script: (name, body) => {
      const path = join(dir, name);
      writeFileSync(path, `#!/bin/sh\n${body}\n`);
      chmodSync(path, 0o755);
      return path;
    },
    read: (name) => readFileSync(join(dir, name), "utf8"),
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}
