/**
 * The veth pair of an attachment (H-1): the container end is `CNI_IFNAME` inside the
 * container's namespace, the host end is `veth` + 8 random hex characters in the host
 * namespace, brought up, with `accept_ra=0` (and `accept_dad=0`, see below). Deleting the host end takes the container
 * end with it, so that is the pair's undo.
 */
import { HOST, type Netns } from "@tscni/kernel";
import { ifKey, sysctlSet } from "./sysctl.ts";
import { keep, type PlanStep } from "./steps.ts";

/** A source of random bytes (crypto in production, seeded in tests). */
export type RandomBytes = (n: number) => Uint8Array;

/** The production random source. */
export const cryptoBytes: RandomBytes = (n) => crypto.getRandomValues(new Uint8Array(n));

/** How many random names to try before giving up (H-1). */
export const VETH_NAME_TRIES = 10;

/** `veth` + 8 hex characters, as the reference's `RandomVethName`. */
export function randomVethName(random: RandomBytes): string {
  return `veth${Array.from(random(4), (b) => b.toString(16).padStart(2, "0")).join("")}`;
}

/** A random host veth name not in `taken`; fails as the reference does after 10 collisions. */
export function pickVethName(taken: ReadonlySet<string>, random: RandomBytes): string {
  for (let i = 0; i < VETH_NAME_TRIES; i++) {
    const name = randomVethName(random);
    if (!taken.has(name)) return name;
  }
  throw new Error("failed to find a unique veth name");
}

/** A locally administered unicast MAC (used to pin a new bridge's address). */
export function randomMac(random: RandomBytes): string {
  const b = random(6);
  b[0] = (b[0]! & 0xfe) | 0x02;
  return Array.from(b, (x) => x.toString(16).padStart(2, "0")).join(":");
}

/** What a veth pair needs. */
export interface VethSpec {
  netns: Netns;
  ifName: string;
  hostName: string;
  /** 0 means the kernel default. */
  mtu: number;
  mac?: string | undefined;
  /** Write the host end's IPv6 `accept_ra` (only when the kernel has IPv6). */
  ipv6: boolean;
}

/** The steps creating the pair and bringing the host end up; undone by deleting the host end. */
export function vethSteps(s: VethSpec): PlanStep[] {
  const mtu = s.mtu > 0 ? { mtu: s.mtu } : {};
  const steps: PlanStep[] = [
    {
      op: {
        op: "veth.add",
        ns: s.netns,
        name: s.ifName,
        ...mtu,
        ...(s.mac !== undefined ? { mac: s.mac } : {}),
        peer: { name: s.hostName, ns: HOST, ...mtu },
      },
      undo: { op: "link.del", ns: HOST, name: s.hostName },
    },
  ];
  if (s.ipv6) {
    // We own the routes of this interface (H-1). And no DAD for its link-local address:
    // until DAD ends, the host cannot solicit the container's neighbours, which delays
    // the first forwarded packets by ~1.5 s (the only other end is the container's).
    steps.push(keep(sysctlSet(HOST, ifKey("ipv6", s.hostName, "accept_ra"), "0")));
    steps.push(keep(sysctlSet(HOST, ifKey("ipv6", s.hostName, "accept_dad"), "0")));
  }
  steps.push(keep({ op: "link.set", ns: HOST, name: s.hostName, up: true }));
  return steps;
}

/**
 * The reference's error when the container end's name is taken (H-1, ADD-4): both names
 * in Go's `%q` (JSON quoting is the same for a valid interface name).
 */
export function containerNameTaken(ifName: string, hostName: string): Error {
  // v1.1.1 (Debian) differs: `container veth name provided (eth0) already exists`; SPEC H-1 follows upstream main
  return new Error(
    `container veth name (${JSON.stringify(ifName)}) peer provided (${JSON.stringify(hostName)}) already exists`,
  );
}
