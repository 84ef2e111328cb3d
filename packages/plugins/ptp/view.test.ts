/**
 * ptp's kernel read before an ADD (§8.2 step 6): the host routes it reads are those of
 * the families the IPAM result has, so an IPv4-only ADD does not read the host's IPv6
 * table (a link-local route per veth), and what it finds there is the same as before.
 */
import { describe, expect, test } from "bun:test";
import { HOST, type Kernel, type RouteInfo } from "@tscni/kernel";
import { familiesOf, readPtpView } from "./view.ts";

const HOST_ROUTES: RouteInfo[] = [
  { dst: "198.18.0.2/32", family: 4, dev: "veth1", scope: "host" },
  { dst: "198.18.0.0/24", family: 4, dev: "eth0", scope: "link" },
  { dst: "2001:db8::2/128", family: 6, dev: "veth2", scope: "host" },
  { dst: "fe80::/64", family: 6, dev: "veth1", scope: "global" },
];

/** A kernel that answers the reads of a ptp view and records which route reads it got. */
function recordingKernel(calls: string[]): Kernel {
  return {
    apply: async () => {},
    netnsExists: async () => true,
    links: async () => [],
    link: async () => undefined,
    addresses: async () => [],
    routes: async (ns, family) => {
      calls.push(`${ns === HOST ? "host" : ns} ${family ?? "all"}`);
      return HOST_ROUTES.filter((r) => family === undefined || r.family === family);
    },
    rules: async () => [],
    qdiscs: async () => [],
    sysctl: async (_ns, key) => (key.startsWith("net.ipv6") ? "0" : "1"),
  };
}

describe("readPtpView", () => {
  test("an IPv4-only ADD reads the host's IPv4 routes only and finds the container's /32 there", async () => {
    const calls: string[] = [];
    const view = await readPtpView(
      recordingKernel(calls),
      "/var/run/netns/c",
      "eth0",
      familiesOf([{ address: "198.18.0.2/24" }]),
    );
    expect(calls).toEqual(["host 4"]);
    expect([...view.hostRoutes]).toEqual(["198.18.0.2/32"]);
  });

  test("a dual-stack ADD reads both families in one read, as before", async () => {
    const calls: string[] = [];
    const view = await readPtpView(
      recordingKernel(calls),
      "/var/run/netns/c",
      "eth0",
      familiesOf([{ address: "198.18.0.2/24" }, { address: "2001:db8::2/64" }]),
    );
    expect(calls).toEqual(["host all"]);
    expect([...view.hostRoutes].sort()).toEqual(["198.18.0.2/32", "2001:db8::2/128"]);
  });

  test("an IPv6-only ADD reads the IPv6 routes only; without families both are read", async () => {
    const calls: string[] = [];
    await readPtpView(recordingKernel(calls), "/var/run/netns/c", "eth0", familiesOf([{ address: "2001:db8::2/64" }]));
    await readPtpView(recordingKernel(calls), "/var/run/netns/c", "eth0");
    expect(calls).toEqual(["host 6", "host all"]);
  });
});
