import { expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { undocumentedExports } from "./docs.ts";

test("every export a package's entry points reach has a doc comment", () => {
  expect(undocumentedExports(new URL("..", import.meta.url).pathname)).toEqual([]);
});

test("the doc check follows index.ts re-exports and leaves internal exports alone", () => {
  const dir = mkdtempSync(join(tmpdir(), "tscni-docs-"));
  try {
    mkdirSync(join(dir, "packages/x/src"), { recursive: true });
    writeFileSync(join(dir, "packages/x/package.json"), JSON.stringify({ exports: { ".": "./src/index.ts" } }));
    writeFileSync(
      join(dir, "packages/x/src/index.ts"),
      'export { a, bare } from "./a.ts";\nexport * from "./star.ts";\n',
    );
    writeFileSync(
      join(dir, "packages/x/src/a.ts"),
      "/** Documented. */\nexport const a = 1;\nexport function bare() {}\nexport function internal() {}\n",
    );
    writeFileSync(join(dir, "packages/x/src/star.ts"), "export type Loose = number;\n");
    expect(undocumentedExports(dir, ["packages"])).toEqual([
      "/packages/x/src/a.ts:3: export function bare() {}",
      "/packages/x/src/star.ts:1: export type Loose = number;",
    ]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
