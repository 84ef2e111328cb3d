/**
 * Every exported declaration carries a doc comment (CONVENTIONS.md item 7): finds the
 * `export function|class|const|interface|type|enum` lines with no `/** ... *\/` above.
 * Re-export lists (`export { a } from`, `export type { A }`) are exempt.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

const DECL = /^export (declare )?(async )?(function|class|const|let|interface|type|enum|abstract class)\b(?!\s*\{)/;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    if (e.name === "node_modules" || e.name.startsWith(".")) return [];
    const p = join(dir, e.name);
    if (e.isDirectory()) return sources(p);
    return e.name.endsWith(".ts") && !e.name.endsWith(".test.ts") ? [p] : [];
  });
}

/** Exported declarations without a doc comment, as `file:line: text`. */
export function undocumentedExports(root: string, dirs: readonly string[] = ["packages", "sim", "conformance"]): string[] {
  const out: string[] = [];
  for (const dir of dirs) {
    for (const file of sources(join(root, dir))) {
      const lines = readFileSync(file, "utf8").split("\n");
      lines.forEach((line, i) => {
        if (!DECL.test(line)) return;
        let j = i - 1;
        while (j >= 0 && lines[j]!.trim().startsWith("@")) j--;
        if (!(lines[j] ?? "").trim().endsWith("*/")) out.push(`${file.slice(root.length)}:${i + 1}: ${line.trim().slice(0, 70)}`);
      });
    }
  }
  return out;
}
