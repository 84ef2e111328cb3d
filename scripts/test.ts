/**
 * The test command (README, .ci/run): builds the binary the end-to-end and conformance
 * tests run, then runs every test with `bun test` and prints one line
 * `N passed, N failed, N skipped` from Bun's own counts. Under `CI=true` a skipped test
 * counts as a failure: CI must test everything (issue 10; the test files themselves turn a
 * missing prerequisite into a failing test that names it, see `@tscni/spec/testing`).
 */
const root = new URL("..", import.meta.url).pathname;

const build = Bun.spawnSync([process.execPath, "run", "scripts/build.ts"], {
  cwd: root,
  stdout: "inherit",
  stderr: "inherit",
});
if (build.exitCode !== 0) {
  console.log("0 passed, 1 failed, 0 skipped");
  process.exit(1);
}

// Real-kernel and property tests can take more than Bun's default 5 s per test on a loaded
// 2-core machine; bunfig.toml's [test] table has no timeout key, so it is set here.
const args = process.argv.slice(2);
const before = new Set(netnsNames());
const rootBefore = new Set(rootState());
const timeout = args.some((a) => a.startsWith("--timeout")) ? [] : ["--timeout=120000"];
const proc = Bun.spawn([process.execPath, "test", ...timeout, ...args], {
  cwd: root,
  stdout: "pipe",
  stderr: "pipe",
  env: { ...process.env, FORCE_COLOR: "0", NO_COLOR: "1" },
});

// Bun writes its summary to stderr; echo both streams live and keep the tail for counting.
let tail = "";
async function pump(stream: ReadableStream<Uint8Array>, write: (s: string) => void): Promise<void> {
  const decoder = new TextDecoder();
  for await (const chunk of stream) {
    const text = decoder.decode(chunk, { stream: true });
    write(text);
    tail = (tail + text).slice(-20000);
  }
}
await Promise.all([
  pump(proc.stdout, (s) => process.stdout.write(s)),
  pump(proc.stderr, (s) => process.stderr.write(s)),
]);
const code = await proc.exited;

// Tests delete the namespaces they make, also on failure; a test killed mid-way cannot.
// Sweep what a run left behind (compared with `before`, taken before the run) so the
// machine stays clean, and say so loudly.
function netnsNames(): string[] {
  try {
    const r = Bun.spawnSync(["ip", "netns", "list"], { stdout: "pipe", stderr: "ignore" });
    return r.exitCode === 0
      ? r.stdout
          .toString()
          .split("\n")
          .map((l) => l.split(" ")[0] ?? "")
          .filter((n) => n.startsWith("tscni-"))
      : [];
  } catch {
    return []; // no iproute2 here: no namespaces either
  }
}
/**
 * The machine's own namespace as tests must leave it: its links and nft tables. Tests work
 * only in namespaces they create, so anything new here is a test's leak (a reference
 * plugin run outside a throwaway namespace makes its bridge before it opens the netns).
 */
function rootState(): string[] {
  const lines = (argv: string[]): string[] => {
    try {
      const r = Bun.spawnSync(argv, { stdout: "pipe", stderr: "ignore" });
      return r.exitCode === 0
        ? r.stdout
            .toString()
            .split("\n")
            .filter((l) => l.trim() !== "")
        : [];
    } catch {
      return []; // no such tool here: nothing of that kind to leak
    }
  };
  return [
    ...lines(["ip", "-o", "link", "show"]).map((l) => `link ${l.split(":")[1]?.trim().split("@")[0] ?? l}`),
    ...lines(["nft", "list", "tables"]),
  ];
}

const rootLeaks = rootState().filter((s) => !rootBefore.has(s));
if (rootLeaks.length > 0)
  console.error(
    `error: the tests changed the machine's own network namespace (left as found only by hand): ${rootLeaks.join(", ")}`,
  );

const leaked = netnsNames().filter((n) => !before.has(n));
for (const n of leaked) Bun.spawnSync(["ip", "netns", "del", n]);
if (leaked.length > 0)
  console.error(
    `warning: the tests left ${leaked.length} network namespaces behind (deleted now): ${leaked.join(" ")}`,
  );

const count = (word: string): number => {
  const matches = [...tail.matchAll(new RegExp(`^\\s*(\\d+) ${word}$`, "gm"))];
  return matches.length > 0 ? Number(matches[matches.length - 1]?.[1]) : 0;
};
const passed = count("pass");
let failed = count("fail");
const skipped = count("skip") + count("todo");
if (code !== 0 && failed === 0) failed = 1; // a crash or an error outside any test
if (rootLeaks.length > 0) failed += 1; // the root namespace is not the tests' to change
// CI must not pass by skipping: a skip there is a failure, said loudly.
const skipsFail = process.env.CI === "true" && skipped > 0;
if (skipsFail)
  console.error(
    `error: ${skipped} tests skipped under CI=true; CI must run every test (see the "skipping" lines above)`,
  );
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(code === 0 && failed === 0 && !skipsFail ? 0 : 1);
