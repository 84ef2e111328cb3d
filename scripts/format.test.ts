/**
 * The formatter (Biome, biome.json) in check mode over every TypeScript file of the tree
 * (issue 10). Biome, not Prettier: one native binary, about 0.5 s for the whole tree, and
 * nothing of it loads on the plugin path.
 */
import { expect, test } from "bun:test";
import { join } from "node:path";

const root = new URL("..", import.meta.url).pathname;

test("every TypeScript file is formatted (node_modules/.bin/biome format --write fixes them)", () => {
  const r = Bun.spawnSync([join(root, "node_modules/.bin/biome"), "format", "--colors=off"], {
    cwd: root,
    stdout: "pipe",
    stderr: "pipe",
  });
  const out = r.stdout.toString() + r.stderr.toString();
  expect(out).toMatch(/Checked [1-9]\d* files?/);
  expect({ code: r.exitCode, out: r.exitCode === 0 ? "" : out }).toEqual({ code: 0, out: "" });
});
