/**
 * The valibot side of result decoding: the family's schema after Go's key folding, for
 * whatever `decodeResult100` leaves (older families, invalid values, keys in another
 * letter case). Loaded on first use (`parse.ts`), so a plugin whose results all decode
 * by hand never builds a schema (docs/PERFORMANCE.md).
 */
import * as v from "valibot";
import { foldToShape } from "./_gojson.ts";
import { describeIssues } from "./schemas/_go.ts";
import { RESULT_SHAPES, Result020Schema, Result040Schema, Result100Schema } from "./schemas/result.ts";
import type { Result, ResultFamily } from "./types.ts";

const SCHEMAS = { "020": Result020Schema, "040": Result040Schema, "100": Result100Schema } as const;

/**
 * The family schema's output for a JSON object, or the first issue as `path: message`.
 *
 * @example schemaDecode("100", { cniVersion: "1.0.0" }) // { ok: { cniVersion: "1.0.0" } }
 */
export function schemaDecode(family: ResultFamily, raw: Record<string, unknown>): { ok: Result } | { error: string } {
  const parsed = v.safeParse(SCHEMAS[family], foldToShape(raw, RESULT_SHAPES[family]));
  return parsed.success ? { ok: parsed.output } : { error: describeIssues(parsed.issues) };
}
