/**
 * The ptp plugin's configuration (SPEC.md §8.2): IPAM is required, `mtu` optional,
 * `ipMasq` with its backend (H-3).
 */
import * as v from "valibot";
import type { DNS } from "@tscni/spec";
import { masqBackendOf } from "../shared/masq.ts";
import { commonEntries, dnsOverride, orUndefined, parseWith } from "../shared/netconf.ts";

/** The ptp config after defaults. */
export interface PtpConfig {
  cniVersion: string;
  name: string;
  ipMasq: boolean;
  /** `ipMasqBackend` as given; undefined means auto (H-3). */
  ipMasqBackend: string | undefined;
  /** 0 means the kernel default. */
  mtu: number;
  /** Empty fails at the IPAM call with `no plugin name provided`, as the reference. */
  ipamType: string;
  /** The config's DNS when it sets anything; it replaces the IPAM DNS in the result. */
  dns: DNS | undefined;
}

const Schema = v.looseObject(commonEntries, "main.NetConf");

/** Parses the ptp config as the reference's `json.Unmarshal` into its NetConf would. */
export function parsePtpConfig(config: unknown): PtpConfig {
  const c = parseWith(Schema, config);
  return {
    cniVersion: c.cniVersion ?? "0.1.0",
    name: c.name ?? "",
    ipMasq: c.ipMasq ?? false,
    ipMasqBackend: orUndefined(c.ipMasqBackend),
    mtu: c.mtu ?? 0,
    ipamType: c.ipam?.type ?? "",
    dns: dnsOverride(c.dns),
  };
}

/** The checks ADD makes before IPAM runs: an unknown `ipMasqBackend` when masquerading (H-3). */
export function validateForAdd(c: PtpConfig): void {
  if (c.ipMasq) masqBackendOf(c);
}
