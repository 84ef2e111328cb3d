/**
 * host-local's data directory is shared with the reference (SPEC.md §8.3): a store
 * written by our `host-local` is read correctly by the reference `/usr/lib/cni/host-local`
 * and the other way round. One sequence of ADD/CHECK/DEL runs four times, with ours
 * only, the reference only, and alternating between the two (each starting once): every
 * step must answer the same and the store must end byte-identical. No kernel is touched
 * (host-local only writes files), so this needs neither root nor namespaces.
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { chmodSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { OUR_BIN_DIR, REFERENCE_PLUGINS, announceSkip, canonical, missingReference, run } from "./_reference.ts";

const skip = missingReference({ go: false });
announceSkip("hostlocal.compat.test.ts", skip);

const NET = "tscni-compat-hl";
/** 198.18.51.2 - .6 (gateway .1, broadcast .7 left out) and 2001:db8:51::2 - ::7. */
const RANGES = [[{ subnet: "198.18.51.0/29" }], [{ subnet: "2001:db8:51::/125" }]];
/** Spec versions both host-locals speak with CHECK (the reference stops at 1.0.0). */
const VERSIONS = ["0.4.0", "1.0.0"] as const;

type Impl = "ours" | "reference";
const DIRS: Record<Impl, string> = { ours: OUR_BIN_DIR, reference: REFERENCE_PLUGINS };

/** One step of a sequence: a command for an attachment. */
interface Step {
  cmd: "ADD" | "CHECK" | "DEL";
  cid: string;
  ifname?: string;
}

let tmp = "";
beforeEach(() => {
  tmp = mkdtempSync(join(tmpdir(), "tscni-compat-hl-"));
});
afterEach(() => {
  rmSync(tmp, { recursive: true, force: true });
});

function netconf(version: string, dataDir: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    cniVersion: version,
    name: NET,
    type: "tscni-compat",
    ipam: { type: "host-local", ranges: RANGES, dataDir },
    ...extra,
  };
}

/** Runs one host-local as a runtime would (all six CNI_* variables set, P-8). */
async function hostLocal(impl: Impl, conf: Record<string, unknown>, cmd: string, cid: string, ifname = "eth0") {
  return run([join(DIRS[impl], "host-local")], {
    env: {
      CNI_COMMAND: cmd,
      CNI_CONTAINERID: cid,
      CNI_NETNS: "/var/run/netns/tscni-compat-absent",
      CNI_IFNAME: ifname,
      CNI_ARGS: "",
      CNI_PATH: DIRS[impl],
    },
    stdin: JSON.stringify(conf),
  });
}

/**
 * What a step answered, in a form both sides must share: the result (an empty `dns`
 * left out: the reference's libcni v1.1 prints `"dns":{}` on 1.0.0 results, v1.3 and we
 * do not, §3.4), or the error's code and message.
 */
function answer(out: { code: number; stdout: string }): unknown {
  if (out.stdout.trim() === "") return { exit: out.code };
  const value = JSON.parse(out.stdout) as Record<string, unknown>;
  if (out.code !== 0) return { exit: out.code, code: value.code, msg: value.msg };
  if (JSON.stringify(value.dns) === "{}") delete value.dns;
  return { exit: 0, result: canonical(value) };
}

/** Every file of the store, name and exact content (our index beside the store is not in it). */
function storeFiles(dataDir: string): [string, string][] {
  const dir = join(dataDir, NET);
  return readdirSync(dir)
    .sort()
    .map((name) => [name, readFileSync(join(dir, name), "latin1")]);
}

/** The permission bits of a store file, in octal. */
function modeOf(dataDir: string, name: string): string {
  return (statSync(join(dataDir, NET, name)).mode & 0o777).toString(8);
}

/** Who runs step `i` in each of the four runs. */
const PATTERNS: Record<string, (i: number) => Impl> = {
  ours: () => "ours",
  reference: () => "reference",
  "alternating, ours first": (i) => (i % 2 === 0 ? "ours" : "reference"),
  "alternating, reference first": (i) => (i % 2 === 0 ? "reference" : "ours"),
};

/** Runs `steps` once per pattern, each in a fresh data dir prepared by `prepare`; returns the answers and stores. */
async function runEverywhere(version: string, steps: readonly Step[], prepare: (dataDir: string) => void = () => {}) {
  const runs: Record<string, { dataDir: string; answers: unknown[]; files: [string, string][] }> = {};
  for (const [pattern, who] of Object.entries(PATTERNS)) {
    const dataDir = join(tmp, pattern.replace(/[^a-z]+/g, "-"));
    prepare(dataDir);
    const answers: unknown[] = [];
    for (const [i, step] of steps.entries()) {
      const out = await hostLocal(who(i), netconf(version, dataDir), step.cmd, step.cid, step.ifname);
      answers.push({ step: `${step.cmd} ${step.cid}/${step.ifname ?? "eth0"}`, ...(answer(out) as object) });
    }
    runs[pattern] = { dataDir, answers, files: storeFiles(dataDir) };
  }
  return runs;
}

/** Puts a legacy reservation (container ID only, no ifname) into a store, as old host-locals wrote it. */
function legacyReservation(dataDir: string, ip: string, cid: string): void {
  const dir = join(dataDir, NET);
  Bun.spawnSync(["mkdir", "-p", dir]);
  writeFileSync(join(dir, ip), cid);
  chmodSync(join(dir, ip), 0o600);
}

const ADDRESS_CYCLE: Step[] = [
  { cmd: "ADD", cid: "ctr-1" },
  { cmd: "ADD", cid: "ctr-2" },
  { cmd: "ADD", cid: "ctr-1", ifname: "eth1" },
  { cmd: "CHECK", cid: "ctr-1" },
  { cmd: "CHECK", cid: "ctr-2" },
  { cmd: "CHECK", cid: "ctr-1", ifname: "eth1" },
  { cmd: "CHECK", cid: "ctr-9" },
  { cmd: "ADD", cid: "ctr-2" }, // a second ADD of one attachment is refused (§8.3 ADD 3)
  { cmd: "DEL", cid: "ctr-2" },
  { cmd: "DEL", cid: "ctr-2" }, // DEL-3
  { cmd: "CHECK", cid: "ctr-2" },
  { cmd: "ADD", cid: "ctr-3" }, // after last_reserved_ip, not ctr-2's freed address
  { cmd: "ADD", cid: "ctr-4" },
  { cmd: "ADD", cid: "ctr-5" }, // wraps round to ctr-2's freed address
  { cmd: "ADD", cid: "ctr-6" }, // the IPv4 range is exhausted
  { cmd: "DEL", cid: "ctr-1", ifname: "eth1" },
  { cmd: "DEL", cid: "ctr-never" },
  { cmd: "ADD", cid: "ctr-7" },
  { cmd: "CHECK", cid: "ctr-7" },
];

describe.skipIf(skip !== undefined)("host-local stores are shared with the reference host-local", () => {
  for (const version of VERSIONS) {
    test(`ADD, CHECK and DEL answer alike and leave the same store, whoever runs each step (${version})`, async () => {
      const runs = await runEverywhere(version, ADDRESS_CYCLE);
      const reference = runs.reference;
      for (const [pattern, r] of Object.entries(runs)) {
        expect({ pattern, answers: r.answers }).toEqual({ pattern, answers: reference?.answers ?? [] });
        expect({ pattern, files: r.files }).toEqual({ pattern, files: reference?.files ?? [] });
      }
      // The run means something: addresses were handed out, wrapped, refused and released.
      const seen = JSON.stringify(reference?.answers);
      for (const ip of ["198.18.51.2/29", "198.18.51.6/29", "2001:db8:51::2/125"]) expect(seen).toContain(ip);
      expect(reference?.answers.filter((a) => (a as { exit: number }).exit !== 0).length).toBeGreaterThanOrEqual(4);
      expect(reference?.files.map(([name]) => name)).toContain("last_reserved_ip.1");
    });

    test(`a reservation file is named by the IP and holds "<cid>\\r\\n<ifname>" on both sides (${version})`, async () => {
      const runs = await runEverywhere(version, [{ cmd: "ADD", cid: "ctr-a", ifname: "net1" }]);
      for (const r of Object.values(runs)) {
        expect(r.files).toEqual([
          ["198.18.51.2", "ctr-a\r\nnet1"],
          ["2001:db8:51::2", "ctr-a\r\nnet1"],
          ["last_reserved_ip.0", "198.18.51.2"],
          ["last_reserved_ip.1", "2001:db8:51::2"],
          ["lock", ""],
        ]);
      }
      // Modes differ by release only: ours writes 0600 like upstream today (§8.3); the
      // Debian reference (v1.1.1) still writes 0644. Both are read alike, as root.
      const ours = runs.ours?.dataDir ?? "";
      for (const name of ["198.18.51.2", "last_reserved_ip.0", "lock"])
        expect({ name, mode: modeOf(ours, name) }).toEqual({ name, mode: "600" });
      expect(["600", "644"]).toContain(modeOf(runs.reference?.dataDir ?? "", "198.18.51.2"));
    });

    test(`legacy container-ID-only reservations are skipped, found by CHECK and released by DEL on both sides (${version})`, async () => {
      const steps: Step[] = [
        { cmd: "ADD", cid: "ctr-1" },
        { cmd: "CHECK", cid: "legacy-1" },
        { cmd: "CHECK", cid: "legacy-1", ifname: "eth5" },
        { cmd: "DEL", cid: "legacy-1" },
        { cmd: "CHECK", cid: "legacy-1" },
        { cmd: "DEL", cid: "legacy-2", ifname: "eth3" },
        { cmd: "ADD", cid: "ctr-2" },
      ];
      const runs = await runEverywhere(version, steps, (dataDir) => {
        legacyReservation(dataDir, "198.18.51.2", "legacy-1");
        legacyReservation(dataDir, "2001:db8:51::3", "legacy-2");
      });
      const reference = runs.reference;
      for (const [pattern, r] of Object.entries(runs)) {
        expect({ pattern, answers: r.answers }).toEqual({ pattern, answers: reference?.answers ?? [] });
        expect({ pattern, files: r.files }).toEqual({ pattern, files: reference?.files ?? [] });
      }
      const first = JSON.stringify(reference?.answers[0]);
      expect(first).toContain("198.18.51.3/29"); // .2 is held by the legacy file
      expect(reference?.files.map(([name]) => name)).not.toContain("198.18.51.2");
      // legacy-2's DEL on eth3 released ::3, which ctr-2 got next.
      expect(reference?.files).toContainEqual(["2001:db8:51::3", "ctr-2\r\neth0"]);
    });
  }

  for (const [first, second] of [
    ["reference", "ours"],
    ["ours", "reference"],
  ] as const) {
    // Our duplicate-ADD check reads our attachment index only while nothing else changed
    // the store (packages/ipam/src/store-disk-index.ts); a reservation the reference made
    // invalidates it, so the check scans and sees it.
    test(`a second ADD of one attachment is refused by ${second} when ${first} made the first (§8.3 ADD 3)`, async () => {
      const dataDir = join(tmp, "dup");
      expect(answer(await hostLocal(first, netconf("1.0.0", dataDir), "ADD", "ctr-dup"))).toMatchObject({ exit: 0 });
      const again = answer(await hostLocal(second, netconf("1.0.0", dataDir), "ADD", "ctr-dup"));
      expect(again).toMatchObject({ exit: 1, msg: expect.stringContaining("duplicate allocation is not allowed") });
      expect(storeFiles(dataDir).filter(([, content]) => content === "ctr-dup\r\neth0").length).toBe(2);
    });
  }

  test("our GC (1.1.0) releases what the reference reserved outside the valid attachments, and nothing else", async () => {
    const dataDir = join(tmp, "gc");
    legacyReservation(dataDir, "198.18.51.6", "legacy-keep");
    legacyReservation(dataDir, "2001:db8:51::7", "legacy-stale");
    for (const cid of ["ctr-keep", "ctr-stale-1", "ctr-stale-2"]) {
      expect(answer(await hostLocal("reference", netconf("1.0.0", dataDir), "ADD", cid))).toMatchObject({ exit: 0 });
    }
    const before = storeFiles(dataDir);
    const valid = [
      { containerID: "ctr-keep", ifname: "eth0" },
      { containerID: "legacy-keep", ifname: "eth9" },
    ];
    const gc = await hostLocal("ours", netconf("1.1.0", dataDir, { "cni.dev/valid-attachments": valid }), "GC", "");
    expect(answer(gc)).toEqual({ exit: 0 });
    const after = storeFiles(dataDir);
    const names = after.map(([name]) => name);
    expect(names).toEqual([
      "198.18.51.2",
      "198.18.51.6",
      "2001:db8:51::2",
      "last_reserved_ip.0",
      "last_reserved_ip.1",
      "lock",
    ]);
    // What stays is untouched, bookkeeping included.
    for (const file of after) expect(before).toContainEqual(file);
    // The reference goes on from there: CHECK finds the kept one, ADD continues after the last reserved IP.
    expect(answer(await hostLocal("reference", netconf("1.0.0", dataDir), "CHECK", "ctr-keep"))).toEqual({ exit: 0 });
    expect(answer(await hostLocal("reference", netconf("1.0.0", dataDir), "CHECK", "ctr-stale-1"))).toMatchObject({
      exit: 1,
    });
    const next = answer(await hostLocal("reference", netconf("1.0.0", dataDir), "ADD", "ctr-new"));
    expect(JSON.stringify(next)).toContain("198.18.51.5/29");
  });
});
