/**
 * Choosing a list's effective version from `cniVersion` and `cniVersions` (§2.6 step 4,
 * VN-2): the highest of them that this library supports, chosen at load time.
 */
import { CURRENT_VERSION, CniError, compareVersions } from "@tscni/spec";
import { goTypeName } from "@tscni/spec/go";
import { type ConfigIssue, invalid } from "./issue.ts";

const PREFIX = "error parsing configuration list: ";

/** The chosen version and every problem met on the way (the first is libcni's error). */
export interface VersionChoice {
  readonly cniVersion: string;
  readonly issues: readonly ConfigIssue[];
}

function parseError(v: string): string | undefined {
  try {
    compareVersions(v, CURRENT_VERSION);
    return undefined;
  } catch (err) {
    return err instanceof CniError ? err.msg : String(err);
  }
}

/**
 * Selects the effective version. Entries above 1.1.0 are dropped silently; `cniVersion`
 * joins the candidates only when set and not above 1.1.0; the maximum wins (the first
 * spelling of it, as Go's sort leaves it); no candidates leave `cniVersion` unchanged.
 *
 * @example selectCniVersion("0.4.0", ["1.0.0", "2.0.0"]).cniVersion // "1.0.0"
 */
export function selectCniVersion(cniVersion: string, rawVersions: unknown): VersionChoice {
  const issues: ConfigIssue[] = [];
  if (!Array.isArray(rawVersions)) {
    return {
      cniVersion,
      issues: [invalid(["cniVersions"], `${PREFIX}invalid type for cniVersions: ${goTypeName(rawVersions)}`)],
    };
  }
  const candidates: string[] = [];
  rawVersions.forEach((raw: unknown, i) => {
    if (typeof raw !== "string") {
      issues.push(invalid(["cniVersions", i], `${PREFIX}invalid type for cniVersions index ${i}: ${goTypeName(raw)}`));
      return;
    }
    const err = parseError(raw);
    if (err !== undefined)
      issues.push(invalid(["cniVersions", i], `${PREFIX}invalid cniVersions entry ${raw} at index ${i}: ${err}`));
    else if (compareVersions(raw, CURRENT_VERSION) <= 0) candidates.push(raw);
  });
  if (cniVersion !== "") {
    const err = parseError(cniVersion);
    if (err !== undefined) issues.push(invalid(["cniVersion"], `${PREFIX}invalid cniVersion ${cniVersion}: ${err}`));
    else if (compareVersions(cniVersion, CURRENT_VERSION) <= 0) candidates.push(cniVersion);
  }
  let best: string | undefined;
  for (const c of candidates) if (best === undefined || compareVersions(c, best) > 0) best = c;
  return { cniVersion: best ?? cniVersion, issues };
}
