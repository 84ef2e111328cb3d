/**
 * The portmap plugin's configuration (SPEC.md §8.5): every key with the reference's
 * defaults, checks in the reference's order and its exact messages, the backend choice
 * (§8.5 `backend`) and the container addresses taken from the previous result.
 */
import * as v from "valibot";
import { parsePrevResult } from "@tscni/skel";
import { CniError, type Result100 } from "@tscni/spec";
import { goFoldName, isJsonObject } from "@tscni/spec/go";
import { type IPNet, parsePrefix } from "@tscni/spec/ipnet";
import { goBool, goInt, goObject, goString, goStrings, invalidConfig } from "../shared/netconf.ts";

/** One entry of the `portMappings` capability (§6.2), as given. */
export interface PortMapping {
  hostPort: number;
  containerPort: number;
  /** Passed to the firewall as given, never validated (§8.5). */
  protocol: string;
  /** Empty when unset. */
  hostIP: string;
}

/** The two firewall backends portmap can drive. */
export type PortmapBackend = "iptables" | "nftables";

/** portmap's config after defaults and validation. */
export interface PortmapConfig {
  cniVersion: string;
  name: string;
  backend: PortmapBackend;
  snat: boolean;
  masqAll: boolean;
  /** 13 unless set; 0..31 (§8.5). */
  markMasqBit: number;
  externalSetMarkChain: string | undefined;
  conditionsV4: readonly string[];
  conditionsV6: readonly string[];
  portMappings: readonly PortMapping[];
  /** The previous result in 1.x form; undefined when the config has none. */
  prevResult: Result100 | undefined;
  /** The first IPv4 and IPv6 address of the container (host bits and prefix kept). */
  containerV4: IPNet | undefined;
  containerV6: IPNet | undefined;
}

/** Kubernetes uses mark bits 14 and 15, Calico 20-31; the reference's default is 13. */
export const DEFAULT_MARK_BIT = 13;

const mappingSchema = goObject(
  { hostPort: goInt, containerPort: goInt, protocol: goString, hostIP: goString },
  "main.PortMapEntry",
);

const Schema = v.looseObject(
  {
    cniVersion: goString,
    name: goString,
    type: goString,
    prevResult: v.nullish(goObject({}, "map[string]interface {}")),
    backend: goString,
    snat: goBool,
    conditionsV4: goStrings,
    conditionsV6: goStrings,
    masqAll: goBool,
    markMasqBit: goInt,
    externalSetMarkChain: goString,
    runtimeConfig: v.nullish(
      goObject(
        { portMappings: v.nullish(v.array(mappingSchema, "[]main.PortMapEntry")) },
        'struct { PortMaps []main.PortMapEntry "json:\\"portMappings,omitempty\\"" }',
      ),
    ),
  },
  "main.PortMapConf",
);

function jsonKind(x: unknown): string {
  if (typeof x === "string") return "string";
  if (typeof x === "number") return Number.isInteger(x) ? "number" : `number ${x}`;
  if (typeof x === "boolean") return "bool";
  return Array.isArray(x) ? "array" : "object";
}

/** Go's unmarshal message for the first issue, under the reference's prefix (code 7, SPEC §4.2). */
function unmarshalError(issue: v.BaseIssue<unknown>): CniError {
  const keys = (issue.path ?? []).map((p) => p.key).filter((k): k is string => typeof k === "string");
  // Go names the innermost struct: the mapping entry, the anonymous runtimeConfig, or the conf.
  const struct =
    keys.length <= 1 ? "PortMapConf" : keys[0] === "runtimeConfig" && keys.length > 2 ? "PortMapEntry" : "";
  const field = keys.length === 0 ? "" : ` into Go struct field ${struct}.${keys.join(".")}`;
  // v1.1.1 (Debian) differs: code 999; SPEC §4.2 gives code 7 (invalid network config)
  return invalidConfig(
    `failed to parse network configuration: json: cannot unmarshal ${jsonKind(issue.input)}${field} of type ${issue.message}`,
  );
}

/** The backend whose syntax `conditions` use: iptables when the first token starts with `-` or `!` (§8.5). */
export function backendOfConditions(conditions: readonly string[] | null | undefined): PortmapBackend | undefined {
  const first = conditions?.[0];
  if (first === undefined || first === "") return undefined;
  return first.startsWith("-") || first.startsWith("!") ? "iptables" : "nftables";
}

/** The backend to use when the config names none (iptables unless only nftables works), asked only then. */
export type DefaultBackend = () => Promise<PortmapBackend>;

/**
 * The backend the config asks for (`ensureBackend`): iptables unless only nftables
 * works, and no option of the other backend.
 */
async function chooseBackend(
  c: v.InferOutput<typeof Schema>,
  defaultBackend: DefaultBackend,
  noMappings: boolean,
): Promise<string> {
  const options: Record<PortmapBackend, string[]> = { iptables: [], nftables: [] };
  if (c.externalSetMarkChain !== undefined && c.externalSetMarkChain !== null)
    options.iptables.push("externalSetMarkChain");
  const b4 = backendOfConditions(c.conditionsV4);
  if (b4 !== undefined) options[b4].push("conditionsV4");
  const b6 = backendOfConditions(c.conditionsV6);
  if (b6 !== undefined) options[b6].push("conditionsV6");
  let backend = c.backend ?? undefined;
  // Without mappings and backend options the choice changes nothing: skip the probe (issue 9 item 5).
  if (backend === undefined && noMappings && options.iptables.length + options.nftables.length === 0)
    backend = "iptables";
  backend ??= await defaultBackend();
  const wrong: PortmapBackend = backend === "iptables" ? "nftables" : "iptables";
  if (options[wrong].length > 0)
    throw invalidConfig(
      `${backend} backend was requested but configuration contains ${wrong}-specific options [${options[wrong].join(" ")}]`,
    );
  return backend;
}

/**
 * The container's addresses (§8.5): the first IPv4 and the first IPv6 whose `interface`
 * is unset, out of range, or the interface `ifName` inside a sandbox.
 */
export function containerAddresses(prev: Result100 | undefined, ifName: string): { v4?: IPNet; v6?: IPNet } {
  const out: { v4?: IPNet; v6?: IPNet } = {};
  const ifaces = prev?.interfaces ?? [];
  for (const ip of prev?.ips ?? []) {
    const net = parsePrefix(ip.address);
    if (net === undefined) continue;
    const key = net.ip.family === 4 ? "v4" : "v6";
    if (out[key] !== undefined) continue;
    const i = ip.interface;
    if (
      i !== undefined &&
      i >= 0 &&
      i < ifaces.length &&
      (ifaces[i]?.name !== ifName || (ifaces[i]?.sandbox ?? "") === "")
    )
      continue;
    out[key] = net;
  }
  return out;
}

const MAPPING_FIELDS = ["hostPort", "containerPort", "protocol", "hostIP"] as const;

/**
 * Renames each mapping's keys to the fields Go's decoder matches them to, case-insensitively
 * (a later key wins): containerd's go-cni sends `HostPort`/`ContainerPort`/`Protocol`/`HostIP`
 * (its PortMapping has no JSON tags) and the reference reads them as `hostPort`...
 */
function foldMappingKeys(config: unknown): unknown {
  const rc = isJsonObject(config) ? config.runtimeConfig : undefined;
  const maps = isJsonObject(rc) ? rc.portMappings : undefined;
  if (!isJsonObject(config) || !isJsonObject(rc) || !Array.isArray(maps)) return config;
  const fold = (m: unknown): unknown => {
    if (!isJsonObject(m)) return m;
    const out: Record<string, unknown> = {};
    for (const [k, val] of Object.entries(m)) {
      const field = MAPPING_FIELDS.find((f) => f === k) ?? MAPPING_FIELDS.find((f) => goFoldName(f) === goFoldName(k));
      out[field ?? k] = val;
    }
    return out;
  };
  return { ...config, runtimeConfig: { ...rc, portMappings: maps.map(fold) } };
}

/**
 * Parses the config (`parseConfig`): prevResult, defaults, the mark-bit and backend checks
 * and the port numbers, in the reference's order. ADD and DEL wrap its errors as
 * `failed to parse config: ...` ({@link wrapParseError}); CHECK does not.
 */
export async function parsePortmapConfig(
  config: unknown,
  ifName: string,
  defaultBackend: DefaultBackend,
): Promise<PortmapConfig> {
  const parsed = v.safeParse(Schema, foldMappingKeys(config), { abortEarly: true });
  if (!parsed.success) throw unmarshalError(parsed.issues[0]);
  const c = parsed.output;
  const cniVersion = c.cniVersion ?? "0.1.0";
  const prevResult = parsePrevResult({ cniVersion, prevResult: c.prevResult });
  const markSet = c.markMasqBit !== undefined && c.markMasqBit !== null;
  const external = c.externalSetMarkChain ?? undefined;
  if (markSet && external !== undefined) throw invalidConfig("Cannot specify externalSetMarkChain and markMasqBit");
  const markMasqBit = c.markMasqBit ?? DEFAULT_MARK_BIT;
  if (markMasqBit < 0 || markMasqBit > 31) throw invalidConfig("MasqMarkBit must be between 0 and 31");
  const rawMappings = c.runtimeConfig?.portMappings ?? [];
  const backend = await chooseBackend(c, defaultBackend, rawMappings.length === 0);
  if (backend !== "iptables" && backend !== "nftables")
    throw invalidConfig(`unrecognized backend ${JSON.stringify(backend)}`);
  const portMappings = rawMappings.map((m) => ({
    hostPort: m?.hostPort ?? 0,
    containerPort: m?.containerPort ?? 0,
    protocol: m?.protocol ?? "",
    hostIP: m?.hostIP ?? "",
  }));
  for (const m of portMappings) {
    if (m.containerPort <= 0) throw invalidConfig(`Invalid container port number: ${m.containerPort}`);
    if (m.hostPort <= 0) throw invalidConfig(`Invalid host port number: ${m.hostPort}`);
  }
  const ips = containerAddresses(prevResult, ifName);
  return {
    cniVersion,
    name: c.name ?? "",
    backend,
    snat: c.snat ?? true,
    masqAll: c.masqAll ?? false,
    markMasqBit,
    externalSetMarkChain: external,
    conditionsV4: c.conditionsV4 ?? [],
    conditionsV6: c.conditionsV6 ?? [],
    portMappings,
    prevResult,
    containerV4: ips.v4,
    containerV6: ips.v6,
  };
}

/** ADD's and DEL's wrapping of a parse failure (§8.5), keeping the cause's code. */
export function wrapParseError(err: unknown): CniError {
  const e = CniError.from(err);
  return new CniError(e.code, `failed to parse config: ${e.msg}`, e.details);
}
