/**
 * The ipvlan plugin's configuration (issue 13; the reference's
 * `plugins/main/ipvlan`): `master`, `mode` (l2 when empty), `mtu`, `linkInContainer`.
 * Chained after an interface plugin it may have no IPAM: the master then defaults to the
 * previous result's single interface, and its IPs are the ones applied. Pure but for
 * the default route look-up, which the caller makes ({@link ipvlanMaster}).
 */
import * as v from "valibot";
import type { IpvlanMode, Kernel } from "@tscni/kernel";
import { parsePrevResult } from "@tscni/skel";
import type { DNS, Result100 } from "@tscni/spec";
import { defaultRouteInterface, masterNs } from "../shared/master.ts";
import { requireNetns } from "../shared/attach.ts";
import { commonEntries, dnsOverride, goBool, goString, invalidConfig, parseWith } from "../shared/netconf.ts";

/** The ipvlan config after parsing. */
export interface IpvlanConfig {
  cniVersion: string;
  name: string;
  /** Empty: the default route's interface, or the previous result's one interface. */
  master: string;
  mode: string;
  mtu: number;
  linkInContainer: boolean;
  ipamType: string;
  dns: DNS | undefined;
}

const Schema = v.looseObject(
  { ...commonEntries, master: goString, mode: goString, linkInContainer: goBool },
  "main.NetConf",
);

/** Parses the config as the reference's `json.Unmarshal` into its NetConf. */
export function parseIpvlanConfig(config: unknown): IpvlanConfig {
  const c = parseWith(Schema, config);
  return {
    cniVersion: c.cniVersion ?? "0.1.0",
    name: c.name ?? "",
    master: c.master ?? "",
    mode: c.mode ?? "",
    mtu: c.mtu ?? 0,
    linkInContainer: c.linkInContainer ?? false,
    ipamType: c.ipam?.type ?? "",
    dns: dnsOverride(c.dns),
  };
}

/** The previous result of a chained ADD in 1.x form, with the reference's wording when it does not parse. */
export function chainedPrev(config: Parameters<typeof parsePrevResult>[0]): Result100 | undefined {
  try {
    return parsePrevResult(config);
  } catch (err) {
    throw new Error(`could not parse prevResult: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/** The master of an ADD, as the reference's `loadConf`: configured, else the previous result's single interface, else the default route's. */
export async function ipvlanMaster(
  kernel: Kernel,
  conf: IpvlanConfig,
  prev: Result100 | undefined,
  netns: string,
): Promise<string> {
  if (conf.master !== "") return conf.master;
  if (prev === undefined) {
    if (conf.linkInContainer) await requireNetns(kernel, netns);
    return defaultRouteInterface(kernel, masterNs(netns, conf.linkInContainer));
  }
  const ifs = prev.interfaces ?? [];
  if (ifs.length === 1 && ifs[0]!.name !== "") return ifs[0]!.name;
  throw new Error("chained master failure. PrevResult lacks a single named interface");
}

const MODES: Readonly<Record<string, IpvlanMode>> = { "": "l2", l2: "l2", l3: "l3", l3s: "l3s" };

/** The reference's `modeFromString`. */
export function ipvlanMode(mode: string): IpvlanMode {
  const m = Object.hasOwn(MODES, mode) ? MODES[mode] : undefined;
  // v1.1.1 (Debian) differs: code 999; SPEC §4.2 gives code 7 (invalid network config)
  if (m === undefined) throw invalidConfig(`unknown ipvlan mode: ${JSON.stringify(mode)}`);
  return m;
}
