/**
 * `cni fuzz config --against CMD`: config bytes (valid, near-valid, hostile, byte-mutated)
 * parsed as a plugin config or as a list by us (parsePluginConf / parseConfList) and by
 * the other side, which reads `{"bytes": "<base64>", "list": bool}` lines and answers the
 * parsed `name`, `type` and `cniVersion` (a list: `name`, `cniVersion` and the plugins'
 * types) or `{"error"}` (scripts/compat/go/confparse speaks it, with libcni).
 */
import fc from "fast-check";
import { CniError } from "@tscni/spec";
import { parseConfList, parsePluginConf } from "@tscni/config";
import { mutatedBytes } from "../bytes.ts";
import { configDocument } from "../configs.ts";
import { describeThrown } from "../target.ts";
import type { Answer } from "./answer.ts";
import { CONFIG_ALLOWANCES } from "./config-allowances.ts";
import type { Differential } from "./differential.ts";

/** One differential config case: the bytes, read as a list or as one plugin config. */
export interface AgainstConfigCase {
  readonly bytes: Uint8Array;
  readonly list: boolean;
}

/** Our answer, in process: the fields the other side reports, or our error. */
export function ourParse(c: AgainstConfigCase): Answer {
  try {
    if (c.list) {
      const l = parseConfList(c.bytes);
      return { result: { name: l.name, cniVersion: l.cniVersion, plugins: l.plugins.map((p) => p.network.type) } };
    }
    const { network } = parsePluginConf(c.bytes);
    return { result: { name: network.name ?? "", type: network.type, cniVersion: network.cniVersion ?? "" } };
  } catch (e) {
    return e instanceof CniError ? { error: e.message } : { broken: describeThrown(e) };
  }
}

/** The config differential. */
export function againstConfig(): Differential<AgainstConfigCase> {
  return {
    name: "config",
    summary: "config bytes parsed as a plugin config or a list, ours against the other side's",
    arbitrary: fc.record({ bytes: mutatedBytes(configDocument), list: fc.boolean() }),
    request: (c) => ({ bytes: Buffer.from(c.bytes).toString("base64"), list: c.list }),
    ours: ourParse,
    comparable: (a) => ("result" in a ? a.result : a),
    label: (c) => `config ${c.list ? "list" : "plugin"}`,
    allowances: CONFIG_ALLOWANCES,
    save: (c) => ({
      base64: Buffer.from(c.bytes).toString("base64"),
      text: new TextDecoder().decode(c.bytes).slice(0, 2000),
      list: c.list,
    }),
    load: (saved) => {
      const s = saved as { base64?: unknown; list?: unknown };
      return { bytes: Uint8Array.from(Buffer.from(String(s.base64 ?? ""), "base64")), list: s.list === true };
    },
  };
}
