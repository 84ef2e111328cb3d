/**
 * The machine-checked layering (CONVENTIONS.md item 11): every workspace package may
 * import only the packages below it, imports never cross a package by relative path,
 * and there are no cycles between packages.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, resolve, sep } from "node:path";

/** What each package may import (ARCHITECTURE.md "Dependencies point down"). */
export const ALLOWED: Readonly<Record<string, readonly string[]>> = {
  spec: [],
  config: ["spec"],
  invoke: ["spec"],
  runtime: ["spec", "config", "invoke", "ipam"],
  // fuzz: only skel's property tests, which draw configs from the fuzz library (issue 15).
  skel: ["spec", "fuzz"],
  kernel: ["spec"],
  firewall: ["spec", "kernel"],
  ipam: ["spec", "kernel"],
  fuzz: ["spec", "config"],
  plugins: ["spec", "skel", "kernel", "ipam", "invoke", "firewall"],
  server: ["spec", "config", "invoke", "runtime", "kernel"],
  cli: [
    "spec",
    "config",
    "invoke",
    "runtime",
    "skel",
    "kernel",
    "firewall",
    "ipam",
    "plugins",
    "server",
    "conformance",
    "fuzz",
  ],
  sim: ["spec", "config", "invoke", "runtime", "skel", "kernel", "firewall", "ipam", "plugins"],
  conformance: ["spec"],
  // The suites under scripts/ (issue 10): end-to-end drives the binary through the protocol
  // alone (and the firewall package's pure plans, against which the ipMasq test checks
  // that iptables-save prints back exactly what was planned); compatibility may use any
  // package to compare with the reference.
  e2e: ["spec", "firewall"],
  compat: [
    "spec",
    "config",
    "invoke",
    "runtime",
    "skel",
    "kernel",
    "firewall",
    "ipam",
    "plugins",
    "server",
    "cli",
    "conformance",
    "fuzz",
  ],
};

/** Units that live under scripts/: they may share scripts/ helpers by relative path. */
const SCRIPT_UNITS: Readonly<Record<string, string>> = { e2e: "scripts/e2e", compat: "scripts/compat" };

/** A workspace unit: packages/<name>, sim or conformance. */
function units(root: string): Map<string, string> {
  const out = new Map<string, string>();
  const pk = join(root, "packages");
  for (const name of readdirSync(pk)) {
    if (statSync(join(pk, name)).isDirectory()) out.set(name, join(pk, name));
  }
  for (const [name, rel] of Object.entries(SCRIPT_UNITS))
    if (statSync(join(root, rel), { throwIfNoEntry: false })?.isDirectory()) out.set(name, join(root, rel));
  for (const top of ["sim", "conformance"]) {
    try {
      if (statSync(join(root, top)).isDirectory()) out.set(top, join(root, top));
    } catch {
      // not there yet
    }
  }
  return out;
}

function tsFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === "node_modules") continue;
    const p = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...tsFiles(p));
    else if (entry.name.endsWith(".ts")) out.push(p);
  }
  return out;
}

const IMPORT_RE =
  /(?:^|[\s;])(?:import|export)\s[^'"]*?from\s*["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)|^import\s*["']([^"']+)["']/gm;

/** Every problem found: disallowed imports, cross-package relative imports, cycles. */
export function checkLayering(root: string): string[] {
  const problems: string[] = [];
  const all = units(root);
  const edges = new Map<string, Set<string>>();
  for (const [name, dir] of all) {
    const deps = new Set<string>();
    edges.set(name, deps);
    const allowed = ALLOWED[name];
    if (allowed === undefined) {
      problems.push(`${name}: not in the layering table of scripts/layering.ts`);
      continue;
    }
    for (const file of tsFiles(dir)) {
      const text = readFileSync(file, "utf8");
      for (const m of text.matchAll(IMPORT_RE)) {
        const spec = m[1] ?? m[2] ?? m[3] ?? "";
        const where = relative(root, file);
        if (spec.startsWith("@tscni/")) {
          const target = spec.slice("@tscni/".length).split("/")[0] ?? "";
          if (target === name) continue;
          // Tests count as edges too: the fake kernel is `@tscni/kernel/fake`, so no test
          // needs to reach up into sim/ (issue 10: no exemption).
          deps.add(target);
          if (!allowed.includes(target)) {
            problems.push(`${where}: ${name} must not import ${spec}`);
          }
        } else if (spec.startsWith(".")) {
          const abs = resolve(file, "..", spec);
          const sharedScript = name in SCRIPT_UNITS && abs.startsWith(join(root, "scripts") + sep);
          if (!abs.startsWith(dir + sep) && abs !== dir && !sharedScript) {
            problems.push(`${where}: relative import "${spec}" leaves package ${name}; import it by package name`);
          }
        }
      }
    }
  }
  // Cycles between units, over production imports.
  const state = new Map<string, "visiting" | "done">();
  const stack: string[] = [];
  const visit = (n: string): void => {
    if (state.get(n) === "done") return;
    if (state.get(n) === "visiting") {
      problems.push(`import cycle: ${[...stack.slice(stack.indexOf(n)), n].join(" -> ")}`);
      return;
    }
    state.set(n, "visiting");
    stack.push(n);
    for (const d of edges.get(n) ?? []) if (edges.has(d)) visit(d);
    stack.pop();
    state.set(n, "done");
  };
  for (const n of edges.keys()) visit(n);
  return problems;
}

/** Folders of a package whose files only tests and tools run (never the plugin path). */
const TEST_SIDE = /(^|\/)(testing|bench|fixtures)\//;
/** Names that mark a test helper, which belongs in a `testing/` folder. */
const HELPER_NAME = /(^|\/)(_test[-_]?\w*|test[-_]util\w*|\w*[-_]fixture|_fake[-_]\w+)\.ts$/;

/**
 * The one `testing/` convention (issue 10): a package's test helpers live in a `testing/`
 * folder (exported as `@tscni/<pkg>/testing` when other units use them), and production
 * code never imports one. Test suites outside packages (sim, conformance, scripts/) keep
 * their own helpers.
 */
export function checkTestingConvention(root: string): string[] {
  const problems: string[] = [];
  const pk = join(root, "packages");
  for (const name of readdirSync(pk)) {
    const dir = join(pk, name);
    if (!statSync(dir).isDirectory()) continue;
    for (const file of tsFiles(dir)) {
      const where = relative(root, file);
      const inPackage = relative(dir, file);
      const testSide = file.endsWith(".test.ts") || TEST_SIDE.test(inPackage);
      if (!TEST_SIDE.test(inPackage) && HELPER_NAME.test(inPackage))
        problems.push(`${where}: a test helper outside a testing/ folder`);
      if (testSide) continue;
      for (const m of readFileSync(file, "utf8").matchAll(IMPORT_RE)) {
        const spec = m[1] ?? m[2] ?? m[3] ?? "";
        const helper =
          /^@tscni\/[^/]+\/testing$/.test(spec) ||
          (spec.startsWith(".") && /(^|\/)testing\//.test(relative(dir, resolve(file, "..", spec))));
        if (helper) problems.push(`${where}: production code imports the test helper ${spec}`);
      }
    }
  }
  return problems;
}
