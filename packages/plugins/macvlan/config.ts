/**
 * The macvlan plugin's configuration (issue 13; the reference's
 * `plugins/main/macvlan`): `master` (default: the default route's interface), `mode`
 * (bridge when empty), `mtu` (0..the master's), `mac` from the config, CNI_ARGS `MAC`
 * or the `mac` capability (the last present wins), `linkInContainer`, `bcqueuelen`.
 * Parsing is pure; the master's default and MTU bound need the kernel (shared/master.ts).
 */
import * as v from "valibot";
import { parseCniArgs } from "@tscni/skel";
import type { MacvlanMode } from "@tscni/kernel";
import type { DNS } from "@tscni/spec";
import { commonEntries, dnsOverride, goBool, goObject, goString, invalidConfig, parseWith } from "../shared/netconf.ts";

/** The macvlan config after defaults. */
export interface MacvlanConfig {
  cniVersion: string;
  name: string;
  /** Empty: the default route's interface. */
  master: string;
  /** As given; checked when the link is made, as the reference does ({@link macvlanMode}). */
  mode: string;
  mtu: number;
  mac: string | undefined;
  linkInContainer: boolean;
  /** 0: the kernel's default. */
  bcqueuelen: number;
  /** Empty: L2 only (the link just comes up). */
  ipamType: string;
  dns: DNS | undefined;
}

const u32 = v.nullish(
  v.pipe(v.number("uint32"), v.integer("uint32"), v.minValue(0, "uint32"), v.maxValue(4294967295, "uint32")),
);

const Schema = v.looseObject(
  {
    ...commonEntries,
    master: goString,
    mode: goString,
    mac: goString,
    linkInContainer: goBool,
    bcqueuelen: u32,
    runtimeConfig: v.nullish(goObject({ mac: goString }, 'struct { Mac string "json:\\"mac,omitempty\\"" }')),
  },
  "main.NetConf",
);

/** Parses the config and CNI_ARGS as the reference's `loadConf` does, without the kernel look-ups. */
export function parseMacvlanConfig(config: unknown, cniArgs: string): MacvlanConfig {
  const c = parseWith(Schema, config);
  // The MAC: config, then CNI_ARGS `MAC`, then the `mac` capability; the last present wins.
  let mac = c.mac || undefined;
  const fromArgs = parseCniArgs(cniArgs, ["MAC"]).MAC;
  if (fromArgs) mac = fromArgs;
  if (c.runtimeConfig?.mac) mac = c.runtimeConfig.mac;
  return {
    cniVersion: c.cniVersion ?? "0.1.0",
    name: c.name ?? "",
    master: c.master ?? "",
    mode: c.mode ?? "",
    mtu: c.mtu ?? 0,
    mac,
    linkInContainer: c.linkInContainer ?? false,
    bcqueuelen: c.bcqueuelen ?? 0,
    ipamType: c.ipam?.type ?? "",
    dns: dnsOverride(c.dns),
  };
}

const MODES: Readonly<Record<string, MacvlanMode>> = {
  "": "bridge",
  bridge: "bridge",
  private: "private",
  vepa: "vepa",
  passthru: "passthru",
};

/** The reference's `modeFromString`: `source` is a kernel mode the plugin does not offer. */
export function macvlanMode(mode: string): MacvlanMode {
  const m = Object.hasOwn(MODES, mode) ? MODES[mode] : undefined;
  // v1.1.1 (Debian) differs: code 999; SPEC §4.2 gives code 7 (invalid network config)
  if (m === undefined) throw invalidConfig(`unknown macvlan mode: ${JSON.stringify(mode)}`);
  return m;
}
