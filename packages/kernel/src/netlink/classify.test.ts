import { describe, expect, test } from "bun:test";
import { classify } from "../linux/errors.ts";
import { STRERROR } from "../libc.ts";
import type { KernelOp } from "../ops.ts";
import { errnoKind, failureKind } from "./classify.ts";
import { Refused } from "./encode.ts";
import { NetlinkError } from "./socket.ts";

const OPS: KernelOp["op"][] = [
  "veth.add",
  "bridge.add",
  "vlan.add",
  "link.set",
  "bridge-port.set",
  "bridge-vlan.add",
  "link.move",
  "link.del",
  "addr.add",
  "addr.del",
  "route.add",
  "route.del",
];

describe("netlink failures are classified by errno and op, not by text (issue 10)", () => {
  test("each errno the kernel answers means what iproute2's text of it means, for every op", () => {
    // EADDRNOTAVAIL to a delete and ELOOP are the two where the kernel's extended ack,
    // not strerror, carries the meaning the text classifier used to find.
    for (const [errno, text] of Object.entries(STRERROR)) {
      for (const op of OPS) {
        const n = Number(errno);
        if ((n === 99 && op === "addr.del") || n === 40) continue;
        expect({ errno: n, op, kind: errnoKind(n, op) }).toEqual({
          errno: n,
          op,
          kind: classify(`RTNETLINK answers: ${text}`),
        });
      }
    }
  });

  test("deleting an address that is not there is not-found; an unusable address elsewhere is invalid", () => {
    expect(errnoKind(99, "addr.del")).toBe("not-found");
    expect(errnoKind(99, "route.add")).toBe("invalid");
    expect(errnoKind(99, undefined)).toBe("invalid");
  });

  test("a bridge enslaved to a bridge (ELOOP) is invalid, as the fake kernel says", () => {
    expect(errnoKind(40, "link.set")).toBe("invalid");
  });

  test("the kind never depends on the extended ack's wording", () => {
    const op: KernelOp = { op: "route.add", ns: "host", dst: "198.18.0.0/16", gw: "198.19.0.1" };
    expect(failureKind(new NetlinkError(101, "Nexthop has invalid gateway"), op)).toBe("unreachable");
    expect(failureKind(new NetlinkError(101, "anything at all"), op)).toBe("unreachable");
    expect(failureKind(new NetlinkError(22, "No such device"), op)).toBe("invalid");
  });

  test("our own refusals carry their kind: a missing device is not-found, a bad argument invalid", () => {
    expect(failureKind(new Refused('Cannot find device "x"', "not-found"), undefined)).toBe("not-found");
    expect(failureKind(new Refused('"zz" is invalid lladdr.'), undefined)).toBe("invalid");
  });

  test("an errno no rule names is other", () => {
    expect(errnoKind(16, "link.set")).toBe("other");
    expect(errnoKind(1, "link.del")).toBe("other");
  });
});
