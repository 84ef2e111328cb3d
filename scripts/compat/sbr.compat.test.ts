/**
 * sbr next to the reference's (Debian v1.1.1) on the real kernel, in twin throwaway
 * namespaces built alike (a container whose eth0, dual stack, has main's default routes
 * and one more route; its veth peer in a namespace playing the host): the same ADD prints
 * the same result and leaves the same `ip rule` and `ip route show table all` (both
 * families, the local table left out); the reference's ADD then our CHECK and DEL, and
 * our ADD then the reference's DEL, leave the rules as they were; table numbering skips
 * tables rules already name, alike; failures answer alike (issue 12 items 3 and 5).
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { createThrowawayNetns, deleteThrowawayNetns, type ThrowawayNetns } from "@tscni/kernel/testing";
import { OUR_BIN_DIR, REFERENCE_PLUGINS, announceSkip, isRoot, missingReference } from "./_reference.ts";

const missing =
  missingReference({ go: false }) ??
  (existsSync(join(REFERENCE_PLUGINS, "sbr"))
    ? undefined
    : `missing ${REFERENCE_PLUGINS}/sbr (apt-get install containernetworking-plugins)`);
const skip = missing ?? (isRoot() ? undefined : "not root (the cases create network namespaces)");
announceSkip("sbr.compat.test.ts", skip);

function sh(argv: string[]): string {
  const r = Bun.spawnSync(argv, { stderr: "pipe" });
  if (r.exitCode !== 0) throw new Error(`${argv.join(" ")}: ${r.stderr.toString()}`);
  return r.stdout.toString();
}

/** One side: a container namespace and the namespace its eth0's peer lives in. */
interface Side {
  ctr: ThrowawayNetns;
  peer: ThrowawayNetns;
}

function side(extraRules: string[][] = []): Side {
  const ctr = createThrowawayNetns("sbrx");
  const peer = createThrowawayNetns("sbrp");
  const ip = (...a: string[]) => sh(["ip", "-n", ctr.name, ...a]);
  ip("link", "add", "eth0", "type", "veth", "peer", "name", "v0", "netns", peer.name);
  sh(["ip", "-n", peer.name, "link", "set", "v0", "up"]);
  ip("link", "set", "eth0", "up");
  ip("addr", "add", "198.18.0.5/24", "dev", "eth0");
  ip("addr", "add", "2001:db8::5/64", "dev", "eth0", "nodad");
  ip("route", "add", "default", "via", "198.18.0.1", "dev", "eth0");
  ip("route", "add", "198.18.8.0/24", "via", "198.18.0.2", "dev", "eth0");
  ip("-6", "route", "add", "default", "via", "2001:db8::1", "dev", "eth0");
  for (const r of extraRules) ip("rule", "add", ...r);
  return { ctr, peer };
}

const drop = (s: Side | undefined) => {
  deleteThrowawayNetns(s?.ctr);
  deleteThrowawayNetns(s?.peer);
};

const CONF = {
  cniVersion: "1.0.0",
  name: "sbr-compat",
  type: "sbr",
  prevResult: {
    cniVersion: "1.0.0",
    interfaces: [{ name: "eth0", sandbox: "/var/run/netns/x" }],
    ips: [
      { address: "198.18.0.5/24", gateway: "198.18.0.1", interface: 0 },
      { address: "2001:db8::5/64", gateway: "2001:db8::1", interface: 0 },
    ],
  },
};

/** Runs `<dir>/sbr` for the side's container as a runtime would. */
function sbr(dir: string, s: Side, command: string, config: object = CONF, ifName = "eth0") {
  const env = {
    PATH: process.env.PATH ?? "/usr/sbin:/usr/bin:/sbin:/bin",
    CNI_COMMAND: command,
    CNI_CONTAINERID: "ctr-sbr",
    CNI_NETNS: s.ctr.path,
    CNI_IFNAME: ifName,
    CNI_PATH: dir,
  };
  const r = Bun.spawnSync([join(dir, "sbr")], {
    env,
    stdin: new TextEncoder().encode(JSON.stringify(config)),
    stdout: "pipe",
    stderr: "pipe",
  });
  return { code: r.exitCode, stdout: r.stdout.toString() };
}
const ref = (s: Side, c: string, cfg?: object, ifName?: string) => sbr(REFERENCE_PLUGINS, s, c, cfg, ifName);
const ours = (s: Side, c: string, cfg?: object, ifName?: string) => sbr(OUR_BIN_DIR, s, c, cfg, ifName);

/** What sbr changes, as iproute2 prints it: the rules and every table but local, both families. */
function state(s: Side): string[] {
  const ip = (...a: string[]) => sh(["ip", "-n", s.ctr.name, ...a]);
  return [
    ...ip("-4", "rule", "show").split("\n"),
    ...ip("-6", "rule", "show").split("\n"),
    ...ip("-4", "route", "show", "table", "all")
      .split("\n")
      .filter((l) => !l.includes("table local")),
    ...ip("-6", "route", "show", "table", "all")
      .split("\n")
      .filter((l) => !l.includes("table local")),
  ].filter((l) => l.trim() !== "");
}
const rules = (s: Side): string[] => state(s).filter((l) => /^\d+:\t/.test(l));

/** A result as compared: parsed, without the empty `dns` libcni v1.1 prints (README: library age). */
function result(stdout: string): unknown {
  const { dns, ...rest } = JSON.parse(stdout) as Record<string, unknown>;
  if (dns !== undefined) expect(dns).toEqual({});
  return rest;
}

describe.skipIf(skip !== undefined)("sbr against the reference v1.1.1", () => {
  let a: Side | undefined;
  let b: Side | undefined;
  afterEach(() => {
    drop(a);
    drop(b);
    a = b = undefined;
  });

  test("the same ADD prints the same result and leaves the same rules and tables", () => {
    a = side();
    b = side();
    const r = ref(a, "ADD");
    const o = ours(b, "ADD");
    expect([r.code, o.code]).toEqual([0, 0]);
    expect(result(o.stdout)).toEqual(result(r.stdout));
    expect(state(b)).toEqual(state(a));
    expect(state(a)).toContain("32765:\tfrom 198.18.0.5 lookup 100");
    expect(state(a)).toContain("default via 2001:db8::1 dev eth0 table 101 metric 1024 pref medium");
  });

  test("table numbering skips tables that rules already name, alike", () => {
    const taken = [
      ["to", "198.18.99.0/24", "lookup", "100"],
      ["to", "198.18.98.0/24", "lookup", "102"],
    ];
    a = side(taken);
    b = side(taken);
    expect(ref(a, "ADD").code).toBe(0);
    expect(ours(b, "ADD").code).toBe(0);
    expect(state(b)).toEqual(state(a));
    expect(rules(a).filter((l) => l.includes("from 198.18.0.5") || l.includes("from 2001:db8::5"))).toEqual([
      "32763:\tfrom 198.18.0.5 lookup 101",
      "32765:\tfrom 2001:db8::5 lookup 103",
    ]);
  });

  test("the reference's ADD then our CHECK and DEL, and ours then the reference's DEL, leave the rules as they were", () => {
    a = side();
    b = side();
    const before = rules(a);
    expect(ref(a, "ADD").code).toBe(0);
    expect(ours(a, "CHECK").code).toBe(0);
    expect(ours(a, "DEL").code).toBe(0);
    expect(rules(a)).toEqual(before);
    expect(ours(b, "ADD").code).toBe(0);
    expect(ref(b, "CHECK").code).toBe(0);
    expect(ref(b, "DEL").code).toBe(0);
    expect(rules(b)).toEqual(before);
    // Both DELs leave the moved routes to the interface's deletion, alike.
    expect(state(b)).toEqual(state(a));
  });

  test("failures answer alike: a missing interface, no addresses; a missing prevResult differs only in its code", () => {
    a = side();
    b = side();
    const r1 = ref(a, "ADD", CONF, "eth9");
    const o1 = ours(b, "ADD", CONF, "eth9");
    expect(JSON.parse(o1.stdout)).toMatchObject({ code: 999, msg: JSON.parse(r1.stdout).msg });
    expect(JSON.parse(r1.stdout).msg).toBe("Cannot find network interface eth9: Link not found");
    const none = { ...CONF, prevResult: { cniVersion: "1.0.0" } };
    // v1.1.1 (Debian) differs: code 999 for these plain errors; SPEC §4.2 gives code 7 (invalid network config)
    expect(JSON.parse(ours(b, "ADD", none).stdout)).toMatchObject({
      code: 7,
      msg: JSON.parse(ref(a, "ADD", none).stdout).msg,
    });
    const { prevResult: _, ...bare } = CONF;
    expect(JSON.parse(ours(b, "ADD", bare).stdout)).toMatchObject({
      code: 7,
      msg: JSON.parse(ref(a, "ADD", bare).stdout).msg,
    });
    expect(state(b)).toEqual(state(a));
  });
});
