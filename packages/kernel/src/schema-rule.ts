/**
 * valibot schemas of the {@link RuleOp} and {@link VrfAdd} ops, for schema.ts's batch
 * variant: the same restrictions as the other ops (names and paths safe on one batch line).
 */
import * as v from "valibot";
// Function declarations only: schema.ts imports this module, so nothing here may read its constants at load time.
import { isCidr, isInterfaceName } from "./schema.ts";

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
const cidr = v.pipe(
  v.string(),
  v.check((s) => isCidr(s), "invalid CIDR"),
);
const u32 = v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(4294967295));
/** Table 0 is "unspecified"; a VRF needs a real one. */
const table = v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(4294967295));

/** Schema of a `rule.add` / `rule.del` op; `from` and `to` must be of one family, and of `family` when given. */
export const RuleOpSchema = v.pipe(
  v.strictObject({
    op: v.picklist(["rule.add", "rule.del"]),
    ns: netns,
    family: v.optional(v.picklist([4, 6])),
    priority: v.optional(u32),
    from: v.optional(cidr),
    to: v.optional(cidr),
    iif: v.optional(ifname),
    oif: v.optional(ifname),
    table: v.optional(table),
  }),
  v.check((op) => {
    const fams = [op.from, op.to].filter((p) => p !== undefined).map((p) => (p.includes(":") ? 6 : 4));
    if (op.family !== undefined) fams.push(op.family);
    return fams.every((f) => f === fams[0]);
  }, "rule prefixes and family must agree"),
  v.check((op) => op.op === "rule.del" || op.table !== undefined, "rule.add needs a table"),
);

/** Schema of a `vrf.add` op. */
export const VrfAddSchema = v.strictObject({ op: v.literal("vrf.add"), ns: netns, name: ifname, table });
