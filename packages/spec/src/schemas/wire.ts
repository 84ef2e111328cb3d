/**
 * Valibot schemas of the two small wire objects: the CNI error (SPEC.md §4.1) and the
 * VERSION reply (VER-2, VER-6), decoded as the Go library decodes them.
 */
import * as v from "valibot";
import { isJsonObject } from "../_gojson.ts";
import type { ErrorResult, VersionInfo } from "../types.ts";
import { CURRENT_VERSION } from "../version.ts";
import { goStringField, goUint, typeMessage } from "./_go.ts";

/**
 * The error object (E-1, E-2): `code` (uint), `msg`, optional `details`; `cniVersion` is
 * accepted but not required, and other keys are ignored (E-5). Absent fields are zero.
 */
export const ErrorSchema = v.pipe(
  v.custom<Record<string, unknown>>(isJsonObject, typeMessage("Error")),
  v.object({
    cniVersion: goStringField,
    code: v.optional(v.nullable(goUint)),
    msg: goStringField,
    details: goStringField,
  }),
  v.transform(
    (e): ErrorResult => ({
      ...(e.cniVersion !== "" ? { cniVersion: e.cniVersion } : {}),
      code: e.code ?? 0,
      msg: e.msg,
      ...(e.details !== "" ? { details: e.details } : {}),
    }),
  ),
);

/**
 * The VERSION reply (VER-6): `cniVersion` is required (`missing field cniVersion`), and so
 * is a non-empty `supportedVersions`, except that a bare `0.2.0` reply means
 * `["0.1.0","0.2.0"]` (reported, like Go's `PluginSupports`, at the current version).
 */
export const VersionInfoSchema = v.pipe(
  v.custom<Record<string, unknown>>(isJsonObject, typeMessage("pluginInfo")),
  v.object({
    cniVersion: goStringField,
    supportedVersions: v.optional(v.nullable(v.array(goStringField, typeMessage("[]string")))),
  }),
  v.rawTransform(({ dataset, addIssue, NEVER }): VersionInfo => {
    const { cniVersion, supportedVersions } = dataset.value;
    if (cniVersion === "") {
      addIssue({ message: "missing field cniVersion" });
      return NEVER;
    }
    if (supportedVersions === null || supportedVersions === undefined || supportedVersions.length === 0) {
      if (cniVersion === "0.2.0") return { cniVersion: CURRENT_VERSION, supportedVersions: ["0.1.0", "0.2.0"] };
      addIssue({ message: "missing field supportedVersions" });
      return NEVER;
    }
    return { cniVersion, supportedVersions };
  }),
);
