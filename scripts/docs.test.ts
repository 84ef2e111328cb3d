import { expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { undocumentedExports } from "./docs.ts";

test("every exported declaration has a doc comment", () => {
  expect(undocumentedExports(new URL("..", import.meta.url).pathname)).toEqual([]);
});

test("the doc check finds an export without a doc comment and accepts re-export lists", () => {
  const dir = mkdtempSync(join(tmpdir(), "tscni-docs-"));
  try {
    mkdirSync(join(dir, "packages/x"), { recursive: true });
    writeFileSync(join(dir, "packages/x/a.ts"), 'export { b } from "./b.ts";\n/** Documented. */\nexport const a = 1;\nexport function bare() {}\n');
    expect(undocumentedExports(dir, ["packages"])).toEqual(["/packages/x/a.ts:4: export function bare() {}"]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
