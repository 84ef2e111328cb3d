/**
 * The vrf plugin's configuration (issue 12 item 3, the reference's plugins/meta/vrf):
 * `vrfname` (required, also on DEL) and `table` (Go uint32; 0 or absent: picked when the
 * VRF is created), with Go's decoding errors and the reference's messages.
 */
import { foldToSchema } from "@tscni/spec/go";
import * as v from "valibot";
import { parsePrevResult } from "@tscni/skel";
import type { Result100 } from "@tscni/spec";
import { unmarshalError } from "../shared/go-errors.ts";
import { goObject, goString, invalidConfig } from "../shared/netconf.ts";

/** vrf's config after decoding. */
export interface VrfConfig {
  cniVersion: string;
  vrfName: string;
  /** 0 when unset: the first table no VRF of the namespace uses. */
  table: number;
  prevResult: Result100 | undefined;
}

const uint32 = v.nullish(
  v.pipe(v.number("uint32"), v.integer("uint32"), v.minValue(0, "uint32"), v.maxValue(0xffffffff, "uint32")),
);

const Schema = v.looseObject({
  prevResult: v.nullish(goObject({}, "map[string]interface {}")),
  vrfname: goString,
  table: uint32,
});

/** Decodes the config (`parseConf`), in the reference's order: JSON, then the name, then prevResult. */
export function parseVrfConfig(config: { cniVersion: string } & Record<string, unknown>): VrfConfig {
  // Keys in another letter case are the same fields to Go's decoder.
  const r = v.safeParse(Schema, foldToSchema(config, Schema), { abortEarly: true });
  if (!r.success) throw unmarshalError("failed to load netconf", "VRFNetConf", r.issues[0]);
  const vrfName = r.output.vrfname ?? "";
  // v1.1.1 (Debian) differs: code 999 (a plain error); SPEC §4.2 gives code 7 (invalid network config)
  if (vrfName === "") throw invalidConfig("configuration is expected to have a valid vrf name");
  return {
    cniVersion: config.cniVersion,
    vrfName,
    table: r.output.table ?? 0,
    prevResult: parsePrevResult({ cniVersion: config.cniVersion, prevResult: r.output.prevResult }),
  };
}
