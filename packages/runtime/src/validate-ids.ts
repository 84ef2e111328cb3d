/**
 * The identifier checks libcni runs before an ADD (VAL-1..VAL-4), with the Go utils'
 * codes and messages.
 */
import { CniError, ErrorCode } from "@tscni/spec";

/** Network names and container IDs (§0): a letter or digit, then letters, digits, `_`, `.`, `-`. */
const NAME_RE = /^[a-zA-Z0-9][a-zA-Z0-9_.\-]*$/;

/** The longest interface name Linux accepts, in bytes (IFNAMSIZ - 1). */
const MAX_IFNAME_BYTES = 15;

/** Code 3 for an empty ID, code 4 for bad characters (VAL-2). */
export function validateContainerID(containerID: string): void {
  if (containerID === "") throw new CniError(ErrorCode.UnknownContainer, "missing containerID");
  if (!NAME_RE.test(containerID))
    throw new CniError(ErrorCode.InvalidEnvironmentVariables, "invalid characters in containerID", containerID);
}

/** Code 7 for an empty or badly formed network name (VAL-1; the trailing colon is libcni's). */
export function validateNetworkName(name: string): void {
  if (name === "") throw new CniError(ErrorCode.InvalidNetworkConfig, "missing network name:");
  if (!NAME_RE.test(name))
    throw new CniError(ErrorCode.InvalidNetworkConfig, "invalid characters found in network name", name);
}

/** `/`, `:` or any code point Go's unicode.IsSpace accepts (JS \s differs: U+0085, U+FEFF). */
const GO_SPACE_OR_SEPARATOR = /[/:\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]/;

/** Code 4 for an interface name Linux would refuse (VAL-3). */
export function validateInterfaceName(ifName: string): void {
  const fail = (msg: string, details = ""): CniError =>
    new CniError(ErrorCode.InvalidEnvironmentVariables, msg, details);
  if (ifName === "") throw fail("interface name is empty");
  if (new TextEncoder().encode(ifName).length > MAX_IFNAME_BYTES) {
    throw fail("interface name is too long", `interface name should be less than ${MAX_IFNAME_BYTES + 1} characters`);
  }
  if (ifName === "." || ifName === "..") throw fail("interface name is . or ..");
  if (GO_SPACE_OR_SEPARATOR.test(ifName)) throw fail("interface name contains / or : or whitespace characters");
}
