/**
 * The link alias (IFLA_IFALIAS) as iproute2 sends it, from `strace -xx ip link set dev
 * nic0 alias nic0` (nlmsg_len 40, the attribute 8 bytes: no NUL) and `... alias ""`
 * (nlmsg_len 36, an empty attribute, which clears the alias).
 */
import { describe, expect, test } from "bun:test";
import { HOST } from "../ops.ts";
import { encodeOp } from "./encode.ts";

const ctx = { index: () => 3, nsFd: () => 0 };
const u16 = (b: Uint8Array, at: number): number => new DataView(b.buffer, b.byteOffset).getUint16(at, true);

describe("link.set alias on the wire", () => {
  test("an alias is sent without a terminating NUL, as iproute2 and Go netlink send it", () => {
    const m = encodeOp({ op: "link.set", ns: HOST, name: "nic0", alias: "nic0" }, ctx).build(1);
    expect(m.length).toBe(40);
    expect(u16(m, 32)).toBe(8);
    expect(u16(m, 34)).toBe(20);
    expect(new TextDecoder().decode(m.subarray(36, 40))).toBe("nic0");
  });

  test("an empty alias is an empty attribute, which clears it", () => {
    const m = encodeOp({ op: "link.set", ns: HOST, name: "nic0", alias: "" }, ctx).build(1);
    expect(m.length).toBe(36);
    expect([u16(m, 32), u16(m, 34)]).toEqual([4, 20]);
  });
});
