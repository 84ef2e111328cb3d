/**
 * valibot schemas of the traffic-control {@link TcOp}s, for batches that come from outside
 * (`cni plan --batch FILE`); schema.ts lists them beside the other ops.
 */
import * as v from "valibot";
import { isInterfaceName } from "./schema.ts";

const ifname = v.pipe(
  v.string(),
  v.check((s) => isInterfaceName(s), "invalid interface name"),
);
const netns = v.pipe(
  v.string(),
  v.check(
    (s) => s === "host" || (s.startsWith("/") && !/[\s"'\\]/.test(s)),
    'netns must be "host" or an absolute path',
  ),
);
const u32 = v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(4294967295));
const u16 = v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(65535));

/** `ifb.add`. */
export const IfbAddSchema = v.strictObject({
  op: v.literal("ifb.add"),
  ns: netns,
  name: ifname,
  mtu: v.optional(v.pipe(v.number(), v.integer(), v.minValue(68), v.maxValue(65535))),
  txqlen: v.optional(u32),
  up: v.optional(v.boolean()),
});

/** `qdisc.add`. */
export const QdiscAddSchema = v.strictObject({
  op: v.literal("qdisc.add"),
  ns: netns,
  dev: ifname,
  kind: v.picklist(["tbf", "ingress"]),
  handle: u32,
  parent: u32,
  tbf: v.optional(
    v.strictObject({
      rate: v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(Number.MAX_SAFE_INTEGER)),
      limit: u32,
      buffer: u32,
    }),
  ),
});

/** `qdisc.del`. */
export const QdiscDelSchema = v.strictObject({ op: v.literal("qdisc.del"), ns: netns, dev: ifname, parent: u32 });

/** `filter.add`. */
export const FilterAddSchema = v.strictObject({
  op: v.literal("filter.add"),
  ns: netns,
  dev: ifname,
  parent: u32,
  priority: u16,
  protocol: u16,
  kind: v.literal("u32"),
  classId: u32,
  actions: v.array(
    v.strictObject({
      kind: v.literal("mirred"),
      action: v.literal("egress-redirect"),
      dev: ifname,
      verdict: v.picklist(["stolen", "pass"]),
    }),
  ),
});
