import { describe, expect, test } from "bun:test";
import type { Segment } from "../segments.ts";
import { classify, failedLine, reason, segmentError } from "./errors.ts";

describe("classify", () => {
  test("maps iproute2 messages to the kinds callers branch on", () => {
    const cases: [string, string][] = [
      ['Cannot find device "nope"', "not-found"],
      ['Error: argument "nope" is wrong: Device does not exist', "not-found"],
      ["Error: ipv4: Address not found.", "not-found"],
      ["RTNETLINK answers: No such process", "not-found"],
      ["RTNETLINK answers: File exists", "exists"],
      ["Error: ipv6: address already assigned.", "exists"],
      ["An interface with the same name exists in the target netns", "exists"],
      ["Error: Nexthop has invalid gateway.", "unreachable"],
      ["Error: Nexthop device required for onlink.", "not-found"],
      ["RTNETLINK answers: Network is unreachable", "unreachable"],
      ["RTNETLINK answers: No route to host", "unreachable"],
      ["Error: Device for nexthop is not up.", "unreachable"],
      ["Error: mtu less than device minimum.", "invalid"],
      ["Error: Invalid prefsrc address.", "invalid"],
      ["RTNETLINK answers: Operation not supported", "invalid"],
      ['tbf: the "burst" parameter is mandatory', "invalid"],
      ["RTNETLINK answers: Device or resource busy", "other"],
    ];
    for (const [msg, kind] of cases) expect([msg, classify(msg)]).toEqual([msg, kind]);
  });
});

describe("failedLine and reason", () => {
  test("read the line number and the message without the footer", () => {
    const stderr = 'Cannot find device "nope"\nCommand failed -:3\n';
    expect(failedLine(stderr)).toBe(3);
    expect(reason(stderr)).toBe('Cannot find device "nope"');
    expect(reason("Error: mtu less than device minimum.\n")).toBe("mtu less than device minimum");
    expect(failedLine("no footer")).toBeUndefined();
  });
});

describe("segmentError", () => {
  const seg: Segment = {
    ns: "/n",
    tool: "ip",
    first: 4,
    lines: ["link set dev lo up", "link set dev eth0 master nope", "link del dev x"],
  };

  test("names the failing op by the batch line ip reports", () => {
    const e = segmentError(seg, "RTNETLINK answers: File exists\nCommand failed -:3\n");
    expect([e.kind, e.opIndex, e.message]).toEqual(["exists", 6, "ip link del dev x: RTNETLINK answers: File exists"]);
  });

  test("finds the op by its quoted argument when ip exits without the footer", () => {
    const e = segmentError(seg, 'Error: argument "nope" is wrong: Device does not exist\n');
    expect([e.kind, e.opIndex]).toEqual(["not-found", 5]);
  });

  test("passes over a line that only defines the quoted name (found by the differential test)", () => {
    const lines = [
      "link add eth0 type veth peer name br0 netns /var/run/netns/c",
      "link set dev lo master br0",
      "route add 0.0.0.0/0 dev lo",
    ];
    const veth = { ...seg, lines, first: 0 };
    const e = segmentError(veth, 'Error: argument "br0" is wrong: Device does not exist\n');
    expect([e.kind, e.opIndex]).toEqual(["not-found", 1]);
  });

  test("leaves the index unknown when nothing points at a line", () => {
    expect(segmentError(seg, "something odd").opIndex).toBeUndefined();
  });
});
