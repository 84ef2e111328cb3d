/**
 * The sbr plugin's configuration (issue 12 item 3, the reference's plugins/meta/sbr at
 * upstream main): `table` (rules only, into a table the admin manages), `gateways` (one
 * static IPv4 and/or IPv6 default gateway) and `addSourceHints`, with Go's decoding
 * errors; and the addresses of the previous result that belong to the interface.
 */
import { foldToSchema } from "@tscni/spec/go";
import * as v from "valibot";
import { parsePrevResult } from "@tscni/skel";
import type { IPConfig100, Result100 } from "@tscni/spec";
import { formatIP, parseIP, type IP } from "@tscni/spec/ipnet";
import { unmarshalError } from "../shared/go-errors.ts";
import { goBool, goInt, goObject, goStrings, invalidConfig } from "../shared/netconf.ts";

/** sbr's config after decoding. */
export interface SbrConfig {
  cniVersion: string;
  /** Set: only rules, into this table (newer upstream); unset: a table per address from 100. */
  table: number | undefined;
  gateways: readonly string[];
  addSourceHints: boolean;
  prevResult: Result100 | undefined;
}

const Schema = v.looseObject({
  prevResult: v.nullish(goObject({}, "map[string]interface {}")),
  table: goInt,
  gateways: goStrings,
  addSourceHints: goBool,
});

/** Decodes the config (`parseConfig`); a wrong type is Go's unmarshal error under the reference's prefix. */
export function parseSbrConfig(config: { cniVersion: string } & Record<string, unknown>): SbrConfig {
  // Keys in another letter case are the same fields to Go's decoder.
  const r = v.safeParse(Schema, foldToSchema(config, Schema), { abortEarly: true });
  if (!r.success) throw unmarshalError("failed to parse network configuration", "PluginConf", r.issues[0]);
  const c = r.output;
  return {
    cniVersion: config.cniVersion,
    table: c.table ?? undefined,
    gateways: c.gateways ?? [],
    addSourceHints: c.addSourceHints ?? false,
    prevResult: parsePrevResult({ cniVersion: config.cniVersion, prevResult: c.prevResult }),
  };
}

/**
 * The addresses of the previous result on `ifName` (`getIPCfgs`): those without an
 * interface index, or whose index is out of range, or names `ifName`.
 */
export function ipConfigsOf(prev: Result100, ifName: string): IPConfig100[] {
  // v1.1.1 (Debian) differs: code 999; a result without addresses is config the plugin cannot use (SPEC §4.2 code 7)
  if ((prev.ips ?? []).length === 0) throw invalidConfig(`No IP addresses supplied on interface: ${ifName}`);
  const ifaces = prev.interfaces ?? [];
  return (prev.ips ?? []).filter((ip) => {
    const i = ip.interface;
    return i === undefined || i < 0 || i >= ifaces.length || ifaces[i]?.name === ifName;
  });
}

/** The static gateways by family (`gateways`: at most one IPv4 and one IPv6), with the reference's messages. */
export function staticGateways(gateways: readonly string[]): { v4?: IP; v6?: IP } {
  if (gateways.length > 2) throw new Error("gateways list cannot contain more than 2 entries (one IPv4, one IPv6)");
  const out: { v4?: IP; v6?: IP } = {};
  for (const text of gateways) {
    const ip = parseIP(text);
    if (ip === undefined) throw new Error(`invalid static gateway IP address: ${text}`);
    const key = ip.family === 4 ? "v4" : "v6";
    const seen = out[key];
    if (seen !== undefined)
      throw new Error(
        `gateways list contains multiple ${ip.family === 4 ? "IPv4" : "IPv6"} addresses: ${formatIP(seen)} and ${text}`,
      );
    out[key] = ip;
  }
  return out;
}
