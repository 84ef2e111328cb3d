/**
 * Parsing a network configuration list (§2.6): libcni's `NetworkConfFromBytes`, with its
 * checks in libcni's order, so the first issue is libcni's error.
 */
import { goMarshal, goQuote, goTypeName, isJsonObject } from "@tscni/spec/go";
import { hasFoldedKey } from "./_every-occurrence.ts";
import { decodeJson, toBytes } from "./_json.ts";
import { type ConfigIssue, invalid, issueToError, nestIssues } from "./issue.ts";
import { selectCniVersion } from "./cni-versions.ts";
import { checkPluginValue } from "./plugin-conf.ts";
import type { NetworkConfig, NetworkConfigList } from "./types.ts";

/** The upstream prefix of list parse errors. */
export const LIST_PREFIX = "error parsing configuration list: ";

const BOOL_KEYS = ["disableCheck", "disableGC", "loadOnlyInlinedPlugins"] as const;

/** A list without its bytes, and every problem found (the first is libcni's error). */
export interface ListCheck {
  readonly list: Omit<NetworkConfigList, "bytes"> | undefined;
  readonly issues: readonly ConfigIssue[];
}

/** A bool, or "true"/"false" in any letter case (§2.6 step 5). */
function readBool(raw: Record<string, unknown>, key: string, issues: ConfigIssue[]): boolean {
  if (!Object.hasOwn(raw, key)) return false;
  const value = raw[key];
  if (typeof value === "boolean") return value;
  if (typeof value !== "string") {
    issues.push(invalid([key], `${LIST_PREFIX}invalid type ${goTypeName(value)} for ${key}`));
    return false;
  }
  const lower = value.toLowerCase();
  if (lower === "true" || lower === "false") return lower === "true";
  issues.push(invalid([key], `${LIST_PREFIX}invalid value ${goQuote(lower)} for ${key}`));
  return false;
}

/** Checks a decoded JSON value as a list, going on past problems libcni would stop at. */
export function checkListValue(value: unknown): ListCheck {
  // Go decodes `null` into a map as an empty map (so the error is "no name").
  if (value !== null && !isJsonObject(value)) {
    const kind = Array.isArray(value) ? "array" : typeof value === "boolean" ? "bool" : typeof value;
    return {
      list: undefined,
      issues: [
        invalid([], `${LIST_PREFIX}json: cannot unmarshal ${kind} into Go value of type map[string]interface {}`),
      ],
    };
  }
  const raw: Record<string, unknown> = value ?? {};
  const issues: ConfigIssue[] = [];
  let name = "";
  if (!Object.hasOwn(raw, "name")) issues.push(invalid(["name"], `${LIST_PREFIX}no name`));
  else if (typeof raw.name !== "string")
    issues.push(invalid(["name"], `${LIST_PREFIX}invalid name type ${goTypeName(raw.name)}`));
  else name = raw.name;

  let cniVersion = "";
  if (Object.hasOwn(raw, "cniVersion")) {
    if (typeof raw.cniVersion === "string") cniVersion = raw.cniVersion;
    else issues.push(invalid(["cniVersion"], `${LIST_PREFIX}invalid cniVersion type ${goTypeName(raw.cniVersion)}`));
  }
  if (Object.hasOwn(raw, "cniVersions")) {
    const choice = selectCniVersion(cniVersion, raw.cniVersions);
    issues.push(...choice.issues);
    cniVersion = choice.cniVersion;
  }
  const [disableCheck, disableGC, loadOnlyInlinedPlugins] = BOOL_KEYS.map((key) => readBool(raw, key, issues)) as [
    boolean,
    boolean,
    boolean,
  ];

  const plugins: NetworkConfig[] = [];
  if (!Object.hasOwn(raw, "plugins")) {
    // Without `plugins` the list may still get drop-ins from the file loader (step 6, DI-1).
    if (loadOnlyInlinedPlugins)
      issues.push(invalid([], `${LIST_PREFIX}\`loadOnlyInlinedPlugins\` is true, and no 'plugins' key`));
  } else if (!Array.isArray(raw.plugins)) {
    issues.push(invalid(["plugins"], `${LIST_PREFIX}invalid 'plugins' type ${goTypeName(raw.plugins)}`));
  } else if (raw.plugins.length === 0) {
    issues.push(invalid(["plugins"], `${LIST_PREFIX}no plugins in list`));
  } else {
    raw.plugins.forEach((element: unknown, i) => {
      // libcni re-encodes each element from a map (keys unique, sorted) and decodes that into
      // its struct, so two spellings of one field are both type-checked, in sorted order.
      const checked = checkPluginValue(element, hasFoldedKey(element) ? goMarshal(element) : undefined);
      issues.push(...nestIssues(checked.issues, ["plugins", i], `failed to parse plugin config ${i}: `));
      // libcni re-encodes each element and parses those bytes (step 6).
      if (checked.network !== undefined)
        plugins.push({ network: checked.network, bytes: toBytes(JSON.stringify(element)) });
    });
  }
  if (issues.length > 0) return { list: undefined, issues };
  return { list: { name, cniVersion, disableCheck, disableGC, loadOnlyInlinedPlugins, plugins }, issues };
}

/**
 * Parses a network configuration list (§2.6). The name is not checked against the name
 * rules here (VAL-5), and no drop-ins are read (DI-4). Throws a CniError naming `source`
 * and the JSON path: code 6 for bad JSON, 7 for a bad config.
 *
 * @example parseConfList('{"cniVersion":"1.0.0","name":"n","plugins":[{"type":"bridge"}]}').plugins.length // 1
 */
export function parseConfList(bytes: Uint8Array | string, source?: string): NetworkConfigList {
  const decoded = decodeJson(bytes, LIST_PREFIX);
  if (!decoded.ok) throw issueToError(decoded.issue, source);
  const { list, issues } = checkListValue(decoded.value);
  const first = issues[0];
  if (first !== undefined || list === undefined)
    throw issueToError(first ?? invalid([], `${LIST_PREFIX}invalid list`), source);
  return { ...list, bytes: toBytes(bytes), ...(source !== undefined ? { source } : {}) };
}

/** Every problem of a list document (for lint): the first is what {@link parseConfList} throws. */
export function checkConfList(bytes: Uint8Array | string): readonly ConfigIssue[] {
  const decoded = decodeJson(bytes, LIST_PREFIX);
  return decoded.ok ? checkListValue(decoded.value).issues : [decoded.issue];
}
