/**
 * Runtime compatibility with the reference libcni (v1.1, through our refcni, a cnitool
 * on it): (a) the reference runtime drives our plugins and (b) ours drives the reference
 * plugins, on a real kernel in throwaway namespaces (root); (c) plugins receive the same
 * stdin and CNI_* environment from both runtimes, and (d) each runtime reads the other's
 * result cache. (c) and (d) use a recording fake plugin and need no root.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { attachCycle } from "./_attach.ts";
import type { Cycle } from "./_attach.ts";
import { RECORD_ENV, installRecorder, readRecords } from "./_recorder.ts";
import {
  OUR_BIN_DIR,
  REFERENCE_PLUGINS,
  announceSkip,
  buildGo,
  canonical,
  isRoot,
  missingReference,
} from "./_reference.ts";
import { cnitoolContainerID, mustRun } from "./_runtimes.ts";
import type { Runtime } from "./_runtimes.ts";

const skip = missingReference({ plugins: false });
announceSkip("runtime.compat.test.ts", skip);
const skipKernel =
  skip ?? missingReference() ?? (isRoot() ? undefined : "not root (the kernel cases create network namespaces)");
if (skip === undefined) announceSkip("runtime.compat.test.ts, real-kernel cases", skipKernel);

const VERSIONS = ["1.0.0", "0.4.0"] as const;
const NET = "tscni-compat-rec";
const FAKE_NETNS = "/var/run/netns/tscni-compat-recorded";
const CAP_ARGS = {
  portMappings: [{ hostPort: 8080, containerPort: 80, protocol: "tcp" }],
  bandwidth: { ingressRate: 1000, ingressBurst: 2000 },
  ips: ["198.18.70.5/24"],
  mac: "c2:11:22:33:44:55",
};

/** A list of three recorders: capabilities (some off), runtimeConfig, args, odd values. */
function recorderList(version: string): Record<string, unknown> {
  return {
    cniVersion: version,
    name: NET,
    plugins: [
      {
        type: "recorder-a",
        capabilities: { portMappings: true, ips: true, mac: false },
        args: { cni: { ips: ["198.18.70.9"], labels: [{ key: "app", value: "<web>&" }] } },
        custom: { nested: [1, "two", null, 0.5, 1e3], empty: {} },
      },
      { type: "recorder-b", capabilities: { bandwidth: true }, runtimeConfig: { existing: 1 } },
      { type: "recorder-c", cniVersion: "0.3.1", runtimeConfig: { kept: true } },
    ],
  };
}

let tmp = "";
beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), "tscni-compat-rt-"));
  if (skip === undefined) buildGo("refcni");
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** What one ADD, CHECK, DEL sequence left behind. */
interface Recording {
  records: ReturnType<typeof readRecords>;
  added: unknown;
  cacheFile: unknown;
  cacheLeftAfterDel: boolean;
}

let runs = 0;
/** Runs ADD, CHECK and DEL with the given runtime for each, recording what the plugins got. */
async function recordSequence(version: string, who: readonly [Runtime, Runtime, Runtime]): Promise<Recording> {
  // Only the recording and the cache are per run: the paths plugins are told must match.
  const dir = join(tmp, `run-${++runs}`);
  const [rec, cache] = [join(dir, "rec"), join(dir, "cache")];
  mkdirSync(rec, { recursive: true });
  const bin = join(tmp, "bin");
  if (!existsSync(bin)) installRecorder(bin, ["recorder-a", "recorder-b", "recorder-c"]);
  const conf = join(tmp, `conf-${version}`);
  mkdirSync(conf, { recursive: true });
  writeFileSync(join(conf, "10-rec.conflist"), JSON.stringify(recorderList(version)));
  const env = {
    NETCONFPATH: conf,
    CNI_PATH: bin,
    CNI_IFNAME: "net7",
    CNI_ARGS: "IgnoreUnknown=1;K8S_POD_NAME=pod-a",
    CAP_ARGS: JSON.stringify(CAP_ARGS),
    [RECORD_ENV]: rec,
    TSCNI_MARKER: "passed-through",
  };
  const call = (cmd: "add" | "check" | "del") => ({ cmd, net: NET, netns: FAKE_NETNS, cacheDir: cache, env });
  const added = JSON.parse(await mustRun(who[0], call("add")));
  const cachePath = join(cache, "results", `${NET}-${cnitoolContainerID(FAKE_NETNS)}-net7`);
  const cacheFile = JSON.parse(readFileSync(cachePath, "utf8"));
  await mustRun(who[1], call("check"));
  await mustRun(who[2], call("del"));
  return { records: readRecords(rec), added, cacheFile, cacheLeftAfterDel: existsSync(cachePath) };
}

/** What a plugin call must agree on: the CNI_* env, stdin as JSON, and that the rest of the env came through (P-8). */
function comparableRecords(r: Recording): unknown[] {
  return r.records.map((c) => ({ cni: c.cni, stdin: canonical(c.stdin), marker: c.other.TSCNI_MARKER }));
}

/**
 * A cache file with what only the library version changes taken out: libcni v1.1 does
 * not write `netns` (v1.2 added it for GC); v1.3 and we do.
 */
function comparableCache(file: unknown): unknown {
  const { netns: _, ...rest } = file as Record<string, unknown>;
  return canonical(rest);
}

describe.skipIf(skip !== undefined)("plugins get the same requests from both runtimes", () => {
  for (const version of VERSIONS) {
    test(`stdin and CNI_* env of ADD, CHECK and DEL equal libcni's, with capabilities, runtimeConfig and args (${version})`, async () => {
      const reference = await recordSequence(version, ["reference", "reference", "reference"]);
      const ours = await recordSequence(version, ["ours", "ours", "ours"]);
      // 3 plugins x ADD, CHECK, DEL; no VERSION probes in either.
      expect(reference.records.length).toBe(9);
      expect(comparableRecords(ours)).toEqual(comparableRecords(reference));
      expect(canonical(ours.added)).toEqual(canonical(reference.added));
      expect(comparableCache(ours.cacheFile)).toEqual(comparableCache(reference.cacheFile));
      expect([ours.cacheLeftAfterDel, reference.cacheLeftAfterDel]).toEqual([false, false]);
      // The container ID is cnitool's derivation on both sides (CT-3).
      expect(ours.records[0]?.cni.CNI_CONTAINERID).toBe(cnitoolContainerID(FAKE_NETNS));
      // The comparison has teeth: capabilities were injected and prevResult threaded.
      const first = reference.records[0]?.stdin as Record<string, unknown>;
      expect(first.runtimeConfig).toEqual({ portMappings: CAP_ARGS.portMappings, ips: CAP_ARGS.ips });
      const second = reference.records[1]?.stdin as { prevResult?: { interfaces?: { name: string }[] } };
      expect(second.prevResult?.interfaces?.[0]?.name).toBe("recorder-a");
    });

    test(`each runtime's result cache is read by the other: CHECK and DEL get the cached prevResult (${version})`, async () => {
      const reference = comparableRecords(await recordSequence(version, ["reference", "reference", "reference"]));
      for (const who of [
        ["ours", "reference", "reference"],
        ["reference", "ours", "ours"],
        ["ours", "ours", "reference"],
        ["reference", "reference", "ours"],
      ] as const) {
        const mixed = await recordSequence(version, who);
        expect({ who, records: comparableRecords(mixed) }).toEqual({ who, records: reference });
        expect({ who, cacheLeftAfterDel: mixed.cacheLeftAfterDel }).toEqual({ who, cacheLeftAfterDel: false });
      }
      // DEL got the final ADD result as prevResult (DEL-4, DEL-8): the last plugin's answer.
      const del = reference[6] as { stdin: { prevResult?: { interfaces?: { name: string }[] } } };
      expect(del.stdin.prevResult?.interfaces?.[0]?.name).toBe("recorder-c");
    });
  }
});

/** A cycle that left nothing behind and reached everything. */
function expectClean(label: string, cycle: Cycle): void {
  expect({ label, pings: cycle.pings }).toEqual({
    label,
    pings: { "bridge v4": true, "bridge v6": true, "ptp v4": true },
  });
  expect({ label, containers: cycle.leftInContainers }).toEqual({ label, containers: [["lo"], ["lo"]] });
  expect({ label, host: cycle.leftOnHost, reservations: cycle.leftReservations, cache: cycle.leftCache }).toEqual({
    label,
    host: ["lo"],
    reservations: [],
    cache: [],
  });
}

describe.skipIf(skipKernel !== undefined)("the runtimes swap on the real kernel", () => {
  for (const version of VERSIONS) {
    test(`libcni drives our plugins and we drive the reference plugins: ADD, CHECK, ping, DEL (${version})`, async () => {
      const baseline = await attachCycle("reference", REFERENCE_PLUGINS, version);
      expectClean("refcni over the reference plugins", baseline);
      const refOverOurs = await attachCycle("reference", OUR_BIN_DIR, version);
      expectClean("(a) refcni over our plugins", refOverOurs);
      const oursOverRef = await attachCycle("ours", REFERENCE_PLUGINS, version);
      expectClean("(b) our runtime over the reference plugins", oursOverRef);
      // The results agree too (MACs, veth names and netns paths aside).
      expect({ a: refOverOurs.results }).toEqual({ a: baseline.results });
      expect({ b: oursOverRef.results }).toEqual({ b: baseline.results });
    }, 120_000);
  }
});
