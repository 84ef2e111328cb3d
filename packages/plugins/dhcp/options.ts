/**
 * What the daemon asks for and offers (the reference's `request` and `provide` ipam keys,
 * options.go and lease.go `prepareOptions`), the client identifier it sends, and the
 * result it builds from an ACK (address, gateway, routes: option 121 over 33 + router,
 * RFC 3442).
 */
import type { Route } from "@tscni/spec";
import { type DhcpMessage, Opt, ipString, optIPs } from "./packet.ts";
import { lenientCniArgs } from "@tscni/spec/cni-args";

/** The reference's option names (options.go `optionNameToID`); any other option is a number 0-255. */
export const OPTION_NAMES: Readonly<Record<string, number>> = {
  "dhcp-client-identifier": Opt.ClientId,
  "subnet-mask": Opt.SubnetMask,
  routers: Opt.Router,
  "host-name": Opt.HostName,
  "user-class": Opt.UserClass,
  "vendor-class-identifier": Opt.ClassId,
};

/** The options requested unless `skipDefault` (lease.go `requestOptionsDefault`). */
export const DEFAULT_REQUESTED = [Opt.Router, Opt.SubnetMask] as const;

/** The parameter request list a DISCOVER carries when no `request` overrides it (nclient4's NewDiscovery). */
export const DISCOVERY_REQUESTED = [Opt.SubnetMask, Opt.Router, Opt.DomainName, Opt.DomainNameServer] as const;

/** One `provide` entry of the ipam config. */
export interface ProvideOption {
  option: string;
  value?: string;
  fromArg?: string;
}

/** One `request` entry of the ipam config. */
export interface RequestOption {
  option?: string;
  skipDefault?: boolean;
}

/** An option code from a name or a decimal number, in the reference's words on failure. */
export function parseOptionName(name: string): number {
  const known = OPTION_NAMES[name];
  if (known !== undefined) return known;
  if (!/^\d+$/.test(name) || Number(name) > 255) {
    const why = /^\d+$/.test(name) ? "value out of range" : "invalid syntax";
    throw new Error(
      `Can not parse option ${JSON.stringify(name)}: Can not parse option: strconv.ParseUint: parsing ${JSON.stringify(name)}: ${why}`,
    );
  }
  return Number(name);
}

/**
 * The options every message of a lease carries, as the reference's `prepareOptions`:
 * provided values (literal, then from CNI_ARGS), then the parameter request list.
 * Later entries for the same code win (the Go code `Update`s them in order).
 */
export function prepareOptions(
  cniArgs: string,
  provide: readonly ProvideOption[],
  request: readonly RequestOption[],
): Map<number, Uint8Array> {
  const args = lenientCniArgs(cniArgs);
  const enc = new TextEncoder();
  const out = new Map<number, Uint8Array>();
  for (const p of provide) {
    const code = parseOptionName(p.option);
    if (p.value !== undefined && p.value.length > 0) {
      if (p.value.length > 255)
        throw new Error(`value too long for option ${JSON.stringify(p.option)}: ${JSON.stringify(p.value)}`);
      out.set(code, enc.encode(p.value));
    }
    const fromArg = p.fromArg === undefined ? undefined : args.get(p.fromArg);
    if (fromArg !== undefined) {
      if (fromArg.length > 255)
        throw new Error(
          `value too long for option ${JSON.stringify(p.option)} from CNI_ARGS ${JSON.stringify(p.fromArg)}: ${JSON.stringify(p.value ?? "")}`,
        );
      out.set(code, enc.encode(fromArg));
    }
  }
  const wanted: number[] = [];
  let skipDefault = false;
  for (const r of request) {
    if (r.skipDefault === true) skipDefault = true;
    if (r.option === undefined || r.option === "") continue;
    const code = parseOptionName(r.option);
    if (!wanted.includes(code)) wanted.push(code);
  }
  if (!skipDefault) for (const c of DEFAULT_REQUESTED) if (!wanted.includes(c)) wanted.push(c);
  if (wanted.length > 0) out.set(Opt.ParameterRequestList, Uint8Array.from(wanted));
  return out;
}

/** The reference's client id text: `<containerID>/<network>/<ifname>`, cut to 254 bytes (RFC 2132 section 9.14). */
export function clientIdText(containerID: string, network: string, ifName: string): string {
  const id = `${containerID}/${network}/${ifName}`;
  return id.length > 254 ? id.slice(0, 254) : id;
}

/** Option 61's value: type 0 (not a hardware address) followed by the id's bytes (lease.go `withClientID`). */
export function clientIdOption(id: string): Uint8Array {
  return Uint8Array.from([0, ...new TextEncoder().encode(id)]);
}

/** Prefix length of a netmask option; undefined when it is not a contiguous mask. */
export function maskPrefix(mask: Uint8Array | undefined): number | undefined {
  if (mask?.length !== 4) return undefined;
  const n =
    ((mask[0] as number) << 24) | ((mask[1] as number) << 16) | ((mask[2] as number) << 8) | (mask[3] as number);
  const bits = (n >>> 0).toString(2).padStart(32, "0");
  return /^1*0*$/.test(bits) ? (bits.indexOf("0") === -1 ? 32 : bits.indexOf("0")) : undefined;
}

function classfulPrefix(first: number): number | undefined {
  if (first < 128) return 8;
  if (first < 192) return 16;
  if (first < 224) return 24;
  return undefined;
}

/** Routes of option 121 (RFC 3442); a 0.0.0.0 router is on-link (scope link, 253) as the reference. */
export function classlessRoutes(v: Uint8Array): Route[] {
  const out: Route[] = [];
  let i = 0;
  while (i < v.length) {
    const width = v[i] as number;
    const octets = Math.ceil(width / 8);
    if (width > 32 || i + 1 + octets + 4 > v.length) break;
    const dst = new Uint8Array(4);
    dst.set(v.subarray(i + 1, i + 1 + octets));
    const gw = ipString(v, i + 1 + octets);
    out.push(
      gw === "0.0.0.0"
        ? { dst: `${ipString(dst)}/${width}`, gw, scope: 253 }
        : { dst: `${ipString(dst)}/${width}`, gw },
    );
    i += 1 + octets + 4;
  }
  return out;
}

/** The address, gateway and routes an ACK gives (lease.go IPNet, Gateway, Routes). */
export function leaseResult(
  ack: DhcpMessage,
  priority: number,
): { address: string; gateway?: string; routes: Route[] } {
  const prefix = maskPrefix(ack.options.get(Opt.SubnetMask));
  if (prefix === undefined) throw new Error("DHCP option Subnet Mask not found in DHCPACK");
  const gateway = optIPs(ack, Opt.Router)[0];
  let routes: Route[];
  const c121 = ack.options.get(Opt.ClasslessRoutes);
  const classless = c121 === undefined ? [] : classlessRoutes(c121);
  if (classless.length > 0) routes = classless;
  else {
    routes = [];
    const s33 = ack.options.get(Opt.StaticRoutes) ?? new Uint8Array();
    for (let i = 0; i + 8 <= s33.length; i += 8) {
      const p = classfulPrefix(s33[i] as number);
      if (p !== undefined) routes.push({ dst: `${ipString(s33, i)}/${p}`, gw: ipString(s33, i + 4) });
    }
    // The spec wants the default route in routes even when the gateway is given (lease.go).
    if (gateway !== undefined) routes.push({ dst: "0.0.0.0/0", gw: gateway });
  }
  if (priority !== 0) routes = routes.map((r) => ({ ...r, priority }));
  return { address: `${ack.yiaddr}/${prefix}`, ...(gateway === undefined ? {} : { gateway }), routes };
}
