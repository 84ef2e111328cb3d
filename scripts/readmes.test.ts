/**
 * Every workspace package has a README saying what it is, what it must never import and
 * where its tests are (issue 10), and its "Must never import" line stays in step with the
 * layering table the layering check enforces.
 */
import { expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { ALLOWED } from "./layering.ts";

const root = new URL("..", import.meta.url).pathname;
const SCRIPTS: Readonly<Record<string, string>> = { e2e: "scripts/e2e", compat: "scripts/compat" };
const dirOf = (unit: string): string =>
  SCRIPTS[unit] ?? (unit === "sim" || unit === "conformance" ? unit : `packages/${unit}`);

for (const unit of Object.keys(ALLOWED)) {
  test(`${dirOf(unit)}/README.md names what ${unit} must never import, as scripts/layering.ts has it`, () => {
    const path = join(root, dirOf(unit), "README.md");
    expect(existsSync(path)).toBe(true);
    const text = readFileSync(path, "utf8");
    const line = text.split("\n").find((l) => l.startsWith("- **Must never import:**")) ?? "";
    const named = [...line.matchAll(/`@tscni\/([\w-]+)`/g)].map((m) => m[1]).sort();
    // Only packages can be imported; the suites under scripts/ are not packages.
    const never = Object.keys(ALLOWED)
      .filter((u) => u !== unit && SCRIPTS[u] === undefined && !(ALLOWED[unit] ?? []).includes(u))
      .sort();
    expect(named).toEqual(never);
    expect(text).toContain("- **Tests:**");
  });
}
