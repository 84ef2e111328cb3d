/**
 * Test helper: a throwaway config directory under the system temp dir.
 */
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

/** A temp directory with a `write` helper; `remove` deletes it. */
export interface TestDir {
  readonly dir: string;
  write(rel: string, contents: unknown): string;
  remove(): void;
}

/** Creates a temp directory; objects are written as JSON, strings as-is. */
export function testDir(): TestDir {
  const dir = mkdtempSync(join(tmpdir(), "tscni-config-"));
  return {
    dir,
    write(rel, contents) {
      const path = join(dir, rel);
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, typeof contents === "string" ? contents : JSON.stringify(contents));
      return path;
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
