/**
 * tap.add's calls, compared with `strace -e ioctl ip tuntap add dev t0 mode tap
 * multi_queue user 1000 group 1001`: open /dev/net/tun, TUNSETIFF, TUNSETOWNER 0x3e8,
 * TUNSETGROUP 0x3e9, TUNSETPERSIST 1, in that order.
 */
import { describe, expect, test } from "bun:test";
import type { Libc } from "../libc.ts";
import { renderOp } from "../lines.ts";
import { createTap, tapFlags } from "./tuntap.ts";

function recordingLibc(failAt?: number): { c: Libc; calls: string[] } {
  const calls: string[] = [];
  const c = {
    open: (path: Uint8Array) => (calls.push(`open ${new TextDecoder().decode(path.subarray(0, path.indexOf(0)))}`), 5),
    ioctl: (_fd: number, request: number, arg: Uint8Array | number) => {
      const shown =
        typeof arg === "number"
          ? `0x${arg.toString(16)}`
          : `${new TextDecoder().decode(arg.subarray(0, arg.indexOf(0)))}/0x${new DataView(arg.buffer).getUint16(16, true).toString(16)}`;
      calls.push(`ioctl 0x${request.toString(16)} ${shown}`);
      return failAt === calls.length - 1 ? -1 : 0;
    },
    close: () => (calls.push("close"), 0),
    errno: () => 16,
  } as unknown as Libc;
  return { c, calls };
}

describe("tap creation through /dev/net/tun", () => {
  test("makes the ioctls ip tuntap add makes, in its order, and closes the descriptor", () => {
    const { c, calls } = recordingLibc();
    createTap(c, undefined, { op: "tap.add", ns: "host", name: "t0", multiQueue: true, owner: 1000, group: 1001 });
    expect(calls).toEqual([
      "open /dev/net/tun",
      "ioctl 0x400454ca t0/0x1102",
      "ioctl 0x400454cc 0x3e8",
      "ioctl 0x400454ce 0x3e9",
      "ioctl 0x400454cb 0x1",
      "close",
    ]);
  });

  test("a refused TUNSETIFF is a KernelError with the errno's text, and the descriptor is closed", () => {
    const { c, calls } = recordingLibc(1);
    expect(() => createTap(c, undefined, { op: "tap.add", ns: "host", name: "t0" })).toThrow(
      "ioctl(TUNSETIFF): Device or resource busy",
    );
    expect(calls.at(-1)).toBe("close");
  });

  test("the flags follow iproute2's words: no packet information unless pi, vnet_hdr and multi_queue on request", () => {
    expect(tapFlags({ op: "tap.add", ns: "host", name: "t0" })).toBe(0x1002);
    expect(tapFlags({ op: "tap.add", ns: "host", name: "t0", pi: true, vnetHdr: true })).toBe(0x4002);
    expect(
      renderOp(
        { op: "tap.add", ns: "host", name: "t0", pi: true, vnetHdr: true, multiQueue: true, owner: 0, group: 7 },
        "/proc/1/ns/net",
      ).line,
    ).toBe("tuntap add dev t0 mode tap pi vnet_hdr multi_queue user 0 group 7");
  });
});
