/**
 * Every public export carries a doc comment (CONVENTIONS.md item 7). Public means reachable
 * from a package's `exports` map (its `index.ts` and declared subpaths), followed through
 * `export { a } from`, `export * from` and `export * as ns from`; a file's other exports
 * are internal and not checked (issue 10). A declaration counts as documented when a
 * `/** ... *\/` comment ends right above it (decorator lines between are fine).
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";

const DECL = (name: string): RegExp =>
  new RegExp(
    `^export (declare )?(async )?(function\\*?|class|const|let|interface|type|enum|abstract class)\\s+${name}\\b`,
  );
const LOCAL = (name: string): RegExp =>
  new RegExp(`^(declare )?(async )?(function\\*?|class|const|let|interface|type|enum|abstract class)\\s+${name}\\b`);
const ANY_DECL =
  /^export (declare )?(async )?(function\*?|class|const|let|interface|type|enum|abstract class)\s+([A-Za-z_$][\w$]*)/;
const REEXPORT = /export\s+(?:type\s+)?\{([^}]*)\}\s*from\s*["']([^"']+)["']/g;
const STAR = /export\s+\*\s+(?:as\s+\w+\s+)?from\s*["']([^"']+)["']/g;
const LOCAL_LIST = /export\s+(?:type\s+)?\{([^}]*)\}\s*;/g;

/** The entry files of every workspace package: the values of its package.json `exports`. */
function entries(root: string, dirs: readonly string[]): string[] {
  const out: string[] = [];
  for (const dir of dirs) {
    const base = join(root, dir);
    if (!existsSync(base)) continue;
    const pkgs = existsSync(join(base, "package.json"))
      ? [base]
      : readdirSync(base, { withFileTypes: true })
          .filter((e) => e.isDirectory())
          .map((e) => join(base, e.name));
    for (const pkg of pkgs) {
      if (!existsSync(join(pkg, "package.json"))) continue;
      const exp: unknown = (JSON.parse(readFileSync(join(pkg, "package.json"), "utf8")) as { exports?: unknown })
        .exports;
      const values =
        typeof exp === "string" ? [exp] : typeof exp === "object" && exp !== null ? Object.values(exp) : [];
      for (const v of values) if (typeof v === "string" && v.endsWith(".ts")) out.push(resolve(pkg, v));
    }
  }
  return out;
}

const names = (list: string): string[] =>
  list
    .split(",")
    .map(
      (s) =>
        s
          .trim()
          .replace(/^type\s+/, "")
          .split(/\s+as\s+/)[0] ?? "",
    )
    .filter((s) => s !== "");

/** Where a doc comment must be: `file:line: text` of `name`'s declaration, or undefined when it is documented. */
function check(file: string, name: string, seen: Set<string>, out: string[], root: string): void {
  const key = `${file}#${name}`;
  if (seen.has(key) || !existsSync(file)) return;
  seen.add(key);
  const text = readFileSync(file, "utf8");
  const lines = text.split("\n");
  let at = lines.findIndex((l) => DECL(name).test(l));
  if (at < 0) {
    // Re-exported onwards: follow it.
    for (const m of text.matchAll(REEXPORT))
      if (names(m[1] ?? "").includes(name)) return check(resolve(dirname(file), m[2] ?? ""), name, seen, out, root);
    for (const m of text.matchAll(STAR)) check(resolve(dirname(file), m[1] ?? ""), name, seen, out, root);
    at = lines.findIndex((l) => LOCAL(name).test(l)); // `export { x };` of a local declaration
    if (at < 0) return;
  }
  let j = at - 1;
  while (j >= 0 && (lines[j] ?? "").trim().startsWith("@")) j--;
  if (!(lines[j] ?? "").trim().endsWith("*/"))
    out.push(`${file.slice(root.length)}:${at + 1}: ${(lines[at] ?? "").trim().slice(0, 70)}`);
}

/** Every public name of one entry file, as [file, name] pairs to check. */
function publicNames(file: string, out: [string, string][], visited: Set<string>): void {
  if (visited.has(file) || !existsSync(file)) return;
  visited.add(file);
  const text = readFileSync(file, "utf8");
  for (const line of text.split("\n")) {
    const m = ANY_DECL.exec(line);
    if (m?.[4] !== undefined) out.push([file, m[4]]);
  }
  for (const m of text.matchAll(REEXPORT))
    for (const n of names(m[1] ?? "")) out.push([resolve(dirname(file), m[2] ?? ""), n]);
  for (const m of text.matchAll(LOCAL_LIST)) for (const n of names(m[1] ?? "")) out.push([file, n]);
  for (const m of text.matchAll(STAR)) publicNames(resolve(dirname(file), m[1] ?? ""), out, visited);
}

/** Public exports without a doc comment, as `file:line: text`. */
export function undocumentedExports(
  root: string,
  dirs: readonly string[] = ["packages", "sim", "conformance"],
): string[] {
  const pairs: [string, string][] = [];
  const visited = new Set<string>();
  for (const entry of entries(root, dirs)) publicNames(entry, pairs, visited);
  const out: string[] = [];
  const seen = new Set<string>();
  for (const [file, name] of pairs) check(file, name, seen, out, root);
  return [...new Set(out)].sort();
}
