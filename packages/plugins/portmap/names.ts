/**
 * The reference's per-container chain names (`utils.MustFormatChainNameWithPrefix`):
 * `CNI-` + prefix + the SHA-512 hex of (network name + container ID), cut to 28
 * characters, so rules made by the reference are found by their names (§8.5, H-3).
 */
import { createHash } from "node:crypto";

const MAX_CHAIN_LENGTH = 28;

/** `CNI-<prefix><sha512 hex of name+id>` cut to 28 characters. */
export function chainNameWithPrefix(name: string, id: string, prefix: string): string {
  const hex = createHash("sha512").update(name + id).digest("hex");
  return `CNI-${prefix}${hex}`.slice(0, MAX_CHAIN_LENGTH);
}
