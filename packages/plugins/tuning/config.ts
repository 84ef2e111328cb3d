/**
 * The tuning plugin's configuration, as the reference's `parseConf` reads it: the keys of
 * the config, then the MAC from CNI_ARGS `MAC=`, then the `mac` capability
 * (`runtimeConfig.mac`, CAP-1), then `args.cni.*` (ARG-1) overriding each value it sets;
 * `dataDir` defaults to /run/cni/tuning. Messages are the reference's; config errors are
 * code 7 (SPEC §4.2) where the reference's plain errors are 999.
 */
import { foldToSchema } from "@tscni/spec/go";
import * as v from "valibot";
import { parseCniArgs } from "@tscni/skel";
import { CniError, ErrorCode } from "@tscni/spec";
import { goBool, goInt, goObject, goString, invalidConfig } from "../shared/netconf.ts";
import { hasDuplicateSysctlKey } from "./duplicates.ts";

/** Where the reference keeps the original link attributes (`defaultDataDir`). */
export const DEFAULT_DATA_DIR = "/run/cni/tuning";

/** tuning's config after every source is merged. */
export interface TuningConfig {
  cniVersion: string;
  dataDir: string;
  /** In config order, `args.cni.sysctl` merged in (a key it names again keeps its place). */
  sysctl: [string, string][];
  /** "" when unset, as given otherwise (CHECK compares it as a string, as the reference). */
  mac: string;
  /** Only `true` changes anything: ADD never turns promiscuous mode off. */
  promisc: boolean;
  /** 0 when unset. */
  mtu: number;
  allmulti: boolean | undefined;
  txQLen: number | undefined;
  prevResult: unknown;
}

const stringMap = v.nullish(
  v.pipe(
    v.custom<Record<string, unknown>>(
      (x) => typeof x === "object" && x !== null && !Array.isArray(x),
      "map[string]string",
    ),
    v.record(v.string(), v.string("string")),
  ),
);
const argsSchema = goObject(
  { sysctl: stringMap, mac: goString, promisc: goBool, mtu: goInt, allmulti: goBool, txQLen: goInt },
  "main.IPAMArgs",
);
const Schema = v.looseObject({
  cniVersion: goString,
  name: goString,
  type: goString,
  prevResult: v.nullish(goObject({}, "map[string]interface {}")),
  dataDir: goString,
  sysctl: stringMap,
  mac: goString,
  promisc: goBool,
  mtu: goInt,
  txQLen: goInt,
  allmulti: goBool,
  runtimeConfig: v.nullish(goObject({ mac: goString }, 'struct { Mac string "json:\\"mac,omitempty\\"" }')),
  args: v.nullish(goObject({ cni: v.nullish(argsSchema) }, "")),
});

function jsonKind(x: unknown): string {
  if (typeof x === "string") return "string";
  if (typeof x === "number") return Number.isInteger(x) ? "number" : `number ${x}`;
  if (typeof x === "boolean") return "bool";
  return Array.isArray(x) ? "array" : "object";
}

/** Go's message for the first issue, `struct` naming the decoded struct for top-level keys. */
function unmarshalMessage(issue: v.BaseIssue<unknown>, struct: string): string {
  const keys = (issue.path ?? []).map((p) => p.key).filter((k): k is string => typeof k === "string");
  const parent = keys.slice(0, -1).join(".");
  // A map value's error names the map field (Go's error context stops at the map).
  const path =
    keys[0] === "sysctl" || parent === "args.cni.sysctl" ? keys.slice(0, keys[0] === "sysctl" ? 1 : 3) : keys;
  const owner =
    path.length <= 1
      ? struct
      : (({ "args.cni": "IPAMArgs" } as Record<string, string>)[path.slice(0, -1).join(".")] ?? "");
  const field = path.length === 0 ? "" : ` into Go struct field ${owner}.${path.join(".")}`;
  return `json: cannot unmarshal ${jsonKind(issue.input)}${field} of type ${issue.message}`;
}

/**
 * `validateSysctlConflictingKeys` (run before the config is parsed, ADD and CHECK): a
 * `sysctl` that is not a map of strings, or that names a key twice, is refused.
 */
export function checkSysctlKeys(config: unknown, stdin: Uint8Array): void {
  const sysctl = (config as { sysctl?: unknown }).sysctl;
  const parsed = v.safeParse(v.object({ sysctl: stringMap }), { sysctl }, { abortEarly: true });
  // v1.1.1 (Debian) differs: it has no such check (the parse below reports the type); upstream main's message, code 7
  if (!parsed.success)
    throw invalidConfig(
      unmarshalMessage(parsed.issues[0], "sysctlCheck").replace(
        /of type map\[string\]string$/,
        "of type map[main.sysctlKey]string",
      ),
    );
  if (hasDuplicateSysctlKey(new TextDecoder().decode(stdin)))
    throw invalidConfig("duplicated sysctl keys are not allowed");
}

/** `parseConf`: the config with CNI_ARGS (`MAC=`) and the overrides, in the reference's order. */
export function parseTuningConfig(config: unknown, cniArgs: string): TuningConfig {
  // Keys in another letter case are the same fields to Go's decoder.
  const parsed = v.safeParse(Schema, foldToSchema(config, Schema), { abortEarly: true });
  if (!parsed.success)
    throw invalidConfig(`failed to load netconf: ${unmarshalMessage(parsed.issues[0], "TuningConf")}`);
  const c = parsed.output;
  const sysctl = new Map(Object.entries(c.sysctl ?? {}));
  let mac = c.mac ?? "";
  // CNI_ARGS errors keep their code 4 (parseCniArgs).
  const envMac = parseCniArgs(cniArgs, ["MAC"]).MAC ?? "";
  if (envMac !== "") mac = envMac;
  if ((c.runtimeConfig?.mac ?? "") !== "") mac = c.runtimeConfig?.mac ?? "";
  let promisc = c.promisc ?? false;
  let mtu = c.mtu ?? 0;
  let allmulti = c.allmulti ?? undefined;
  let txQLen = c.txQLen ?? undefined;
  const a = c.args?.cni;
  if (a !== undefined && a !== null) {
    // The reference writes into a nil map here when the config has no `sysctl` and panics; we merge.
    for (const [k, val] of Object.entries(a.sysctl ?? {})) sysctl.set(k, val);
    if (a.mac !== undefined && a.mac !== null) mac = a.mac;
    if (a.promisc !== undefined && a.promisc !== null) promisc = a.promisc;
    if (a.mtu !== undefined && a.mtu !== null) mtu = a.mtu;
    if (a.allmulti !== undefined && a.allmulti !== null) allmulti = a.allmulti;
    if (a.txQLen !== undefined && a.txQLen !== null) txQLen = a.txQLen;
  }
  return {
    cniVersion: c.cniVersion ?? "",
    dataDir: c.dataDir || DEFAULT_DATA_DIR,
    sysctl: [...sysctl],
    mac,
    promisc,
    mtu,
    allmulti,
    txQLen,
    prevResult: c.prevResult ?? undefined,
  };
}

/** True when ADD changes link attributes (and so keeps a backup of them first). */
export function changesLink(c: TuningConfig): boolean {
  return c.mac !== "" || c.mtu !== 0 || c.promisc || c.allmulti !== undefined || c.txQLen !== undefined;
}

/** `validateArgs`: the interface name becomes part of a file name. */
export function checkIfName(ifName: string): void {
  if (ifName.includes("/"))
    throw new CniError(
      ErrorCode.InvalidEnvironmentVariables,
      `Interface name (${ifName}) contains an invalid character /`,
    );
}
