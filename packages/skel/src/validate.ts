/**
 * Validation of the identifiers a plugin receives (SPEC.md §2.5): container ID, interface
 * name and network name, with the reference's codes and messages.
 */
import { CniError, ErrorCode } from "@tscni/spec";

const NAME_RE = /^[a-zA-Z0-9][a-zA-Z0-9_.\-]*$/;

/** The longest interface name the kernel takes, in bytes (IFNAMSIZ - 1). */
export const MAX_IFNAME_BYTES = 15;

// Go's unicode.IsSpace: ASCII whitespace, NEL, NBSP and the Unicode White_Space set.
// JavaScript's \s differs (it has U+FEFF and lacks U+0085), so list them.
const IFNAME_BAD_RE = /[/:\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]/u;

/**
 * Checks a container ID against the name regex (VAL-2). An empty ID is the caller's
 * "missing" case; a bad one is code 4 `invalid characters in containerID`.
 *
 * @example validateContainerID("ctr-1") // undefined
 */
export function validateContainerID(id: string): CniError | undefined {
  if (id === "") return new CniError(ErrorCode.UnknownContainer, "missing containerID");
  if (!NAME_RE.test(id))
    return new CniError(ErrorCode.InvalidEnvironmentVariables, "invalid characters in containerID", id);
  return undefined;
}

/**
 * Checks an interface name as the reference does (VAL-3), all failures code 4.
 *
 * @example validateInterfaceName("eth0:1")?.msg // "interface name contains / or : or whitespace characters"
 */
export function validateInterfaceName(name: string): CniError | undefined {
  const code = ErrorCode.InvalidEnvironmentVariables;
  if (name === "") return new CniError(code, "interface name is empty");
  if (new TextEncoder().encode(name).length > MAX_IFNAME_BYTES) {
    return new CniError(
      code,
      "interface name is too long",
      `interface name should be less than ${MAX_IFNAME_BYTES + 1} characters`,
    );
  }
  if (name === "." || name === "..") return new CniError(code, "interface name is . or ..");
  if (IFNAME_BAD_RE.test(name)) return new CniError(code, "interface name contains / or : or whitespace characters");
  return undefined;
}

/**
 * Checks a network name (VAL-1): code 7 `missing network name` when empty, code 7
 * `invalid characters found in network name` (details = the name) when the regex fails.
 *
 * @example validateNetworkName("my net")?.code // 7
 */
export function validateNetworkName(name: string): CniError | undefined {
  if (name === "") return new CniError(ErrorCode.InvalidNetworkConfig, "missing network name");
  if (!NAME_RE.test(name))
    return new CniError(ErrorCode.InvalidNetworkConfig, "invalid characters found in network name", name);
  return undefined;
}
