/**
 * encodeOp against iproute2, byte for byte: each request in fixtures/iproute2-requests.json
 * was captured from `ip`/`bridge` running the line our Linux driver would run for the same
 * op (fixtures/capture.ts, strace). Pure: no kernel, no root. A change to a flag, a header
 * field or an attribute (say, never setting IFF_PROMISC) shows here as a diff.
 *
 * Requests are compared as the kernel reads them (fixtures/canonical.ts: attribute order
 * and a string's trailing NUL do not matter), with the two places where our request differs
 * from iproute2's on purpose rewritten first (DIFFERENCES); each rewrite must be used.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import type { KernelOp } from "../ops.ts";
import { encodeOp, Refused } from "./encode.ts";
import { canonical } from "./fixtures/canonical.ts";
import { SEQUENCE } from "./fixtures/sequence.ts";

type Case = {
  op: Exclude<KernelOp, { op: "sysctl.set" }>;
  line: string;
  indexes: Record<string, number>;
  request: string;
};
// Read, not imported: the type checker need not infer a type for 40 captured requests.
const golden = JSON.parse(readFileSync(new URL("./fixtures/iproute2-requests.json", import.meta.url), "utf8")) as {
  iproute2: string;
  cases: Case[];
};
const cases = golden.cases;

/** Our request, sequence number and port id zero as in the fixture. */
function encoded(c: Case): Uint8Array {
  const ctx = {
    index(name: string): number {
      const i = c.indexes[name];
      if (i === undefined) throw new Refused(`Cannot find device "${name}"`, "not-found");
      return i;
    },
    nsFd(): number {
      throw new Error("no golden op moves a link between namespaces");
    },
  };
  return encodeOp(c.op, ctx).build(0);
}

const text = (s: string): string => Buffer.from(s).toString("hex");

/**
 * Where we send something else than iproute2 6.1, and the kernel does the same with it.
 * `from` is an iproute2 line (canonical form), `to` ours (undefined: we leave it out).
 */
const DIFFERENCES: readonly { why: string; from: string; to: string | undefined }[] = [
  {
    why: 'a bridge port\'s options go under IFLA_INFO_SLAVE_KIND "bridge"; iproute2 names the kind "bridge_slave", which no link has, and the kernel then applies the slave data through the master alike',
    from: `18.1=${text("bridge_slave")}`,
    to: `18.4=${text("bridge")}`,
  },
  {
    why: 'a /0 destination needs no RTA_DST (rtm_dst_len 0 already says "any"); iproute2 sends 0.0.0.0',
    from: "1=00000000",
    to: undefined,
  },
];
const used = new Set<string>();

/** iproute2's request in canonical form, with DIFFERENCES applied. */
function expected(c: Case): string[] {
  const [head = "", fixed = "", ...attrs] = canonical(Buffer.from(c.request, "hex"));
  const rewritten = attrs.flatMap((l) => {
    const d = DIFFERENCES.find((x) => x.from === l);
    if (d === undefined) return [l];
    used.add(d.from);
    return d.to === undefined ? [] : [d.to];
  });
  return [head, fixed, ...rewritten.sort()];
}

describe(`encodeOp sends what ${golden.iproute2.split(",")[1]?.trim() ?? "iproute2"} sends`, () => {
  test("the fixture covers the golden sequence op by op", () => {
    expect(cases.map((c) => c.op)).toEqual([...SEQUENCE]);
  });

  test("the fixture reaches every kind of op but link.move and sysctl.set", () => {
    expect(new Set(cases.map((c) => c.op.op))).toEqual(
      new Set([
        "veth.add",
        "bridge.add",
        "vlan.add",
        "link.set",
        "bridge-port.set",
        "bridge-vlan.add",
        "bridge-vlan.del",
        "link.del",
        "addr.add",
        "addr.del",
        "route.add",
        "route.del",
      ]),
    );
  });

  for (const c of cases) {
    test(`${c.line} is encoded as iproute2 encodes it, attribute for attribute`, () => {
      expect(canonical(encoded(c))).toEqual(expected(c));
    });
  }

  test("every listed difference from iproute2 still occurs in the fixture", () => {
    for (const c of cases) expected(c);
    expect([...used].sort()).toEqual(DIFFERENCES.map((d) => d.from).sort());
  });
});
