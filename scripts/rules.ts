/**
 * The rule ids the code cites and the ones docs/RULES.md defines (issue 10: the repo holds
 * the rules it cites). An id is `FAMILY-N` of a family RULES.md defines (so `UTF-8` or
 * `SHA-512` never count) or a section `§N.M`.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

const ID = /\b([A-Z]{1,6})-(\d+[a-z]?)\b|§(\d+(?:\.\d+)*)/g;

/** The ids and sections docs/RULES.md defines (its `- **ID**` lines), and the families they belong to. */
export function definedRules(text: string): { ids: Set<string>; families: Set<string> } {
  const ids = new Set<string>();
  for (const m of text.matchAll(/^- \*\*(§[\d.]+|[A-Z]{1,6}-\d+[a-z]?)\*\*/gm)) ids.add(m[1] ?? "");
  const families = new Set([...ids].filter((i) => !i.startsWith("§")).map((i) => i.split("-")[0] ?? ""));
  return { ids, families };
}

/** Every cited id of a known family in `text`. */
export function citedRules(text: string, families: ReadonlySet<string>): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(ID)) {
    if (m[3] !== undefined) out.push(`§${m[3]}`);
    else if (families.has(m[1] ?? "")) out.push(`${m[1]}-${m[2]}`);
  }
  return out;
}

/** The TypeScript files of the tree (no node_modules, no dist). */
export function sourceFiles(root: string, dirs = ["packages", "sim", "conformance", "scripts"]): string[] {
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.name === "node_modules" || e.name === "dist") continue;
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith(".ts")) out.push(p);
    }
  };
  for (const d of dirs) walk(join(root, d));
  return out;
}

/** `file: id` for every id cited in the tree that docs/RULES.md does not define. */
export function undefinedCitations(root: string): string[] {
  const { ids, families } = definedRules(readFileSync(join(root, "docs/RULES.md"), "utf8"));
  const missing: string[] = [];
  for (const f of sourceFiles(root)) {
    for (const id of citedRules(readFileSync(f, "utf8"), families))
      if (!ids.has(id)) missing.push(`${f.slice(root.length)}: ${id}`);
  }
  return missing;
}
