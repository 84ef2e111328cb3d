/**
 * The formatter (Biome, biome.json) in check mode. It covers the files biome.json's
 * `files.includes` lists; the rest of the tree joins when it is reformatted in one commit
 * (`biome format --write` after widening the list), so that no parallel branch conflicts.
 */
import { expect, test } from "bun:test";
import { join } from "node:path";

const root = new URL("..", import.meta.url).pathname;

test("the files biome.json lists are formatted (node_modules/.bin/biome format --write fixes them)", () => {
  const r = Bun.spawnSync([join(root, "node_modules/.bin/biome"), "format", "--colors=off"], {
    cwd: root,
    stdout: "pipe",
    stderr: "pipe",
  });
  const out = r.stdout.toString() + r.stderr.toString();
  expect(out).toMatch(/Checked [1-9]\d* files?/);
  expect({ code: r.exitCode, out: r.exitCode === 0 ? "" : out }).toEqual({ code: 0, out: "" });
});
