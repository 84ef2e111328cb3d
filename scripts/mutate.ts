/**
 * `bun scripts/mutate.ts [name...]`: the mutation check (issue 10). Applies each known
 * mutation below, one at a time, to the working tree, runs the tests that must catch it,
 * and restores the file (also on failure or Ctrl-C). Prints one line per mutation and
 * exits 1 if any mutation survives. Run it before a release, as root (some guards are
 * real-kernel tests); never in CI (it edits files and takes minutes).
 *
 * A mutation whose `from` text no longer occurs exactly once is reported as stale: update
 * it together with the code it mutates.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

interface Mutation {
  name: string;
  file: string;
  from: string;
  to: string;
  tests: string[];
}

/** The mutations the suite must catch, with the tests expected to catch each. */
export const MUTATIONS: readonly Mutation[] = [
  {
    name: "netlink encoder never sets IFF_PROMISC",
    file: "packages/kernel/src/netlink/encode.ts",
    from: "if (op.promisc) flags |= K.IFF_PROMISC;",
    to: "",
    tests: ["packages/kernel/src/netlink/encode.golden.test.ts"],
  },
  {
    name: "bridge forces hairpin on every port",
    file: "packages/plugins/bridge/plan.ts",
    from: "...portSteps(conf, input.hostVeth, conf.hairpinMode, conf.portIsolation),",
    to: "...portSteps(conf, input.hostVeth, true, conf.portIsolation),",
    tests: ["packages/plugins/bridge/plan.defaults.test.ts", "packages/plugins/bridge/plan.test.ts"],
  },
  {
    name: "bridge drops the container's arp_notify step",
    file: "packages/plugins/bridge/plan.ts",
    from: 'steps.push(keep(sysctlSet(netns, ifKey("ipv4", ifName, "arp_notify"), "1")));',
    to: "",
    tests: ["packages/plugins/bridge/plan.defaults.test.ts", "packages/plugins/bridge/plan.test.ts"],
  },
  {
    name: "netlink encoder inverts hairpin",
    file: "packages/kernel/src/netlink/encode.ts",
    from: "m.u8(K.IFLA_BRPORT_MODE, op.hairpin ? 1 : 0)",
    to: "m.u8(K.IFLA_BRPORT_MODE, op.hairpin ? 0 : 1)",
    tests: ["packages/kernel/src/netlink/encode.golden.test.ts"],
  },
  {
    name: "netlink encoder drops a route's metric",
    file: "packages/kernel/src/netlink/encode.ts",
    from: "if (op.metric !== undefined) m.u32(K.RTA_PRIORITY, op.metric);",
    to: "",
    tests: ["packages/kernel/src/netlink/encode.golden.test.ts"],
  },
  {
    name: "netlink decoder never reports promisc",
    file: "packages/kernel/src/netlink/decode.ts",
    from: "promisc: (r.flags & K.IFF_PROMISC) !== 0,",
    to: "promisc: false,",
    tests: ["packages/kernel/src/netlink/decode.golden.test.ts"],
  },
  {
    name: "fake kernel ignores promisc",
    file: "packages/kernel/src/fake/link-change.ts",
    from: "if (op.promisc !== undefined) link.promisc = op.promisc;",
    to: "",
    tests: ["packages/kernel/src/fake/linux-differential.test.ts"],
  },
  {
    name: "a missing prerequisite skips quietly under CI=true",
    file: "packages/spec/src/testing/prerequisites.ts",
    from: "if (underCi()) {",
    to: "if (false) {",
    tests: ["packages/spec/src/testing/prerequisites.test.ts"],
  },
];

const root = new URL("..", import.meta.url).pathname;

/** Runs `tests`; true when they pass. */
function green(tests: string[]): boolean {
  const env = { ...process.env, FORCE_COLOR: "0", NO_COLOR: "1" };
  const r = Bun.spawnSync([process.execPath, "test", "--timeout=300000", ...tests], {
    cwd: root,
    env,
    stdout: "ignore",
    stderr: "ignore",
  });
  return r.exitCode === 0;
}

const only = process.argv.slice(2);
const chosen = MUTATIONS.filter((m) => only.length === 0 || only.some((o) => m.name.includes(o)));
let restore: (() => void) | undefined;
process.on("SIGINT", () => {
  restore?.();
  process.exit(130);
});

let survived = 0;
for (const m of chosen) {
  const path = join(root, m.file);
  const original = readFileSync(path, "utf8");
  const count = original.split(m.from).length - 1;
  if (count !== 1) {
    console.log(`STALE    ${m.name}: "${m.from}" occurs ${count} times in ${m.file}`);
    survived++;
    continue;
  }
  if (!green(m.tests)) {
    console.log(`RED      ${m.name}: its tests fail without the mutation; fix them first`);
    survived++;
    continue;
  }
  restore = () => writeFileSync(path, original);
  try {
    writeFileSync(path, original.replace(m.from, m.to));
    const caught = !green(m.tests);
    if (!caught) survived++;
    console.log(`${caught ? "caught  " : "SURVIVED"} ${m.name} (${m.tests.join(", ")})`);
  } finally {
    restore();
    restore = undefined;
  }
}
console.log(`${chosen.length - survived} of ${chosen.length} mutations caught`);
process.exit(survived === 0 ? 0 : 1);
