/**
 * TypeScript types of the CNI wire formats: configurations (SPEC.md §2) and results
 * of each version family (§3). Valibot schemas for them live in `schemas/`.
 */

/** A route as written in every result family (R02-1, R04-3, §3.4). */
export interface Route {
  dst: string;
  gw?: string;
  /** 1.1.0 fields (the Go type carries them in 0.4.0 too, R04-3). */
  mtu?: number;
  advmss?: number;
  priority?: number;
  table?: number;
  scope?: number;
}

/** DNS settings of a result (all fields omitted when empty). */
export interface DNS {
  nameservers?: string[];
  domain?: string;
  search?: string[];
  options?: string[];
}

/** The per-family IP configuration of a 0.1.0/0.2.0 result (§3.2). */
export interface IPConfig020 {
  /** CIDR with host bits kept. */
  ip: string;
  gateway?: string;
  routes?: Route[];
}

/** A 0.1.0/0.2.0 result: at most one IPv4 and one IPv6 configuration (§3.2). */
export interface Result020 {
  cniVersion: string;
  ip4?: IPConfig020;
  ip6?: IPConfig020;
  /** Always present on output, possibly `{}` (R02-2). */
  dns: DNS;
}

/** An interface entry of a 0.3.x/0.4.0 result (R04-1). */
export interface Interface040 {
  name: string;
  mac?: string;
  sandbox?: string;
}

/** An IP entry of a 0.3.x/0.4.0 result (R04-2). */
export interface IPConfig040 {
  version: string;
  address: string;
  gateway?: string;
  interface?: number;
}

/** A 0.3.0/0.3.1/0.4.0 result (§3.3). */
export interface Result040 {
  cniVersion: string;
  interfaces?: Interface040[];
  ips?: IPConfig040[];
  routes?: Route[];
  /** Always present on output, possibly `{}` (R04-4). */
  dns: DNS;
}

/** An interface entry of a 1.0.0/1.1.0 result (§3.4). */
export interface Interface100 {
  name: string;
  mac?: string;
  mtu?: number;
  sandbox?: string;
  socketPath?: string;
  pciID?: string;
}

/** An IP entry of a 1.0.0/1.1.0 result: no `version` field (§3.4). */
export interface IPConfig100 {
  address: string;
  gateway?: string;
  interface?: number;
}

/** A 1.0.0/1.1.0 result (§3.4). */
export interface Result100 {
  cniVersion: string;
  interfaces?: Interface100[];
  ips?: IPConfig100[];
  routes?: Route[];
  /** Omitted entirely when empty (§3.4). */
  dns?: DNS;
}

/** A result of any version; `resultFamily(result.cniVersion)` tells which shape it has. */
export type Result = Result020 | Result040 | Result100;

/** The three result shapes: 0.1.0/0.2.0, 0.3.x/0.4.0, 1.x. */
export type ResultFamily = "020" | "040" | "100";

/** The contents of a CNI error as sent on the wire (E-1). */
export interface ErrorResult {
  cniVersion?: string;
  code: number;
  msg: string;
  details?: string;
}

/** The VERSION reply (VER-2). */
export interface VersionInfo {
  cniVersion: string;
  supportedVersions: string[];
}

/** The IPAM section of a plugin configuration (PC-4); other keys pass through. */
export interface IPAMConfig {
  type?: string;
  [key: string]: unknown;
}

/** A plugin configuration object (§2.3); unknown keys pass through unchanged (PC-5). */
export interface PluginConf {
  cniVersion?: string;
  name?: string;
  type: string;
  capabilities?: Record<string, boolean>;
  ipam?: IPAMConfig;
  dns?: DNS;
  args?: Record<string, unknown>;
  runtimeConfig?: Record<string, unknown>;
  prevResult?: Record<string, unknown>;
  [key: string]: unknown;
}

/** A network configuration list (§2.2). */
export interface NetConfList {
  cniVersion?: string;
  cniVersions?: string[];
  name: string;
  disableCheck?: boolean;
  disableGC?: boolean;
  loadOnlyInlinedPlugins?: boolean;
  plugins?: PluginConf[];
  [key: string]: unknown;
}

/** One attachment, identified by (containerID, ifname) (P-6, GC-2). */
export interface Attachment {
  containerID: string;
  ifname: string;
}
