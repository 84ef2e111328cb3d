/**
 * The dummy plugin's configuration (the reference's `plugins/main/dummy`, upstream main;
 * Debian's v1.1.1 has none): the common NetConf keys; IPAM is required for ADD and CHECK.
 */
import * as v from "valibot";
import { commonEntries, invalidConfig, parseWith } from "../shared/netconf.ts";

/** The dummy config. */
export interface DummyConfig {
  cniVersion: string;
  name: string;
  ipamType: string;
}

const Schema = v.looseObject(commonEntries, "types.NetConf");

/** Parses the config as the reference's `json.Unmarshal` into types.NetConf. */
export function parseDummyConfig(config: unknown): DummyConfig {
  const c = parseWith(Schema, config);
  return { cniVersion: c.cniVersion ?? "0.1.0", name: c.name ?? "", ipamType: c.ipam?.type ?? "" };
}

/** ADD and CHECK refuse a config without IPAM, with the reference's message. */
export function requireIpam(c: DummyConfig): void {
  // v1.1.1 (Debian) has no dummy; upstream returns a plain error (code 999); SPEC §4.2 gives code 7
  if (c.ipamType === "") throw invalidConfig("dummy interface requires an IPAM configuration");
}
