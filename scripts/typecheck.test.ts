/**
 * The whole tree type-checks under the strict tsconfig (strict, noUncheckedIndexedAccess),
 * and no source file outside tests uses `any` as a type.
 */
import { expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

const root = new URL("..", import.meta.url).pathname;

test("tsc --noEmit reports no errors", () => {
  const tsc = Bun.spawnSync([join(root, "node_modules/.bin/tsc"), "--noEmit", "-p", root], {
    stdout: "pipe",
    stderr: "pipe",
  });
  expect(tsc.stdout.toString() + tsc.stderr.toString()).toBe("");
  expect(tsc.exitCode).toBe(0);
}, 180_000);

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    if (e.name === "node_modules" || e.name.startsWith(".")) return [];
    const p = join(dir, e.name);
    if (e.isDirectory()) return sources(p);
    return e.name.endsWith(".ts") && !e.name.endsWith(".test.ts") ? [p] : [];
  });
}

test("no source file types anything as any", () => {
  const offenders: string[] = [];
  for (const dir of ["packages", "sim", "conformance"]) {
    for (const file of sources(join(root, dir))) {
      readFileSync(file, "utf8")
        .split("\n")
        .forEach((line, i) => {
          // Strip string literals first (an error message may say "any"), then comments.
          const code = line
            .replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`(?:[^`\\]|\\.)*`/g, '""')
            .replace(/\/\/.*$/, "");
          if (/^\s*\*/.test(code)) return;
          if (/(:\s*any\b|\bas any\b|<any>|\bany\[\])/.test(code))
            offenders.push(`${file.slice(root.length)}:${i + 1}`);
        });
    }
  }
  expect(offenders).toEqual([]);
});
