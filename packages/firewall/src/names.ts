/**
 * The reference's firewall names, computed exactly as upstream computes them
 * (`pkg/utils/utils.go`, `pkg/ip/ipmasq_nftables_linux.go`, `plugins/meta/portmap`), so
 * rules made by the reference are found, checked and deleted by us and ours by it
 * (SPEC 8.0 H-3, 8.5). Hashes are SHA-512 in lower-case hex; lengths count bytes, as Go's
 * slicing does.
 */
import { goQuote } from "@tscni/spec/go";

/** Go's `%q` (one home: `@tscni/spec/go`). */
export { goQuote };

/** iptables chain names the reference makes are exactly this long (utils.maxChainLength). */
export const CHAIN_NAME_LENGTH = 28;

/** nftables comments are cut to this many bytes (knftables.CommentLengthMax). */
export const NFT_COMMENT_MAX = 128;

/** iptables comments are cut to this many bytes (portmap's trimComment). */
export const IPT_COMMENT_MAX = 255;

const encoder = new TextEncoder();

function sha512Hex(text: string): string {
  return new Bun.CryptoHasher("sha512").update(text).digest("hex");
}

/**
 * `prefix` followed by the SHA-512 hex of `toHash`, cut to `length` characters
 * (utils.MustFormatHashWithPrefix). Throws when the prefix leaves no room, as Go panics.
 */
export function formatHashWithPrefix(length: number, prefix: string, toHash: string): string {
  if (prefix.length >= length || length > 128) throw new RangeError(`invalid length ${length} for prefix "${prefix}"`);
  return (prefix + sha512Hex(toHash)).slice(0, length);
}

/**
 * The per-container chain name `CNI-<prefix><hash of net + cid>`, 28 characters
 * (utils.FormatChainName / MustFormatChainNameWithPrefix; portmap passes `DN-` and `SN-`).
 */
export function formatChainName(net: string, cid: string, prefix = ""): string {
  return formatHashWithPrefix(CHAIN_NAME_LENGTH, `CNI-${prefix}`, net + cid);
}

/** The ipMasq rule comment `name: "<net>" id: "<cid>"`, quoted as Go's `%q` (H-3). */
export function formatComment(net: string, cid: string): string {
  return `name: ${goQuote(net)} id: ${goQuote(cid)}`;
}

/** portmap's DNAT comment `dnat name: "<net>" id: "<cid>"` (plain `%s`), trimmed to 255 bytes (8.5). */
export function formatDnatComment(net: string, cid: string): string {
  return trimComment(`dnat name: "${net}" id: "${cid}"`);
}

/** portmap's trimComment: over 255 bytes keeps the first 253 and appends `...`. */
export function trimComment(value: string): string {
  if (encoder.encode(value).length <= IPT_COMMENT_MAX) return value;
  return `${cutBytes(value, IPT_COMMENT_MAX - 2)}...`;
}

/** The nft ipmasq hash of a network: the first 16 hex characters (hashForNetwork). */
export function nftMasqNetworkHash(net: string): string {
  return formatHashWithPrefix(16, "", net);
}

/** The nft ipmasq hash of one attachment, `hash16(net)-hash16(ifname:cid)` (hashForInstance). */
export function nftMasqInstanceHash(net: string, ifname: string, cid: string): string {
  return `${nftMasqNetworkHash(net)}-${formatHashWithPrefix(16, "", `${ifname}:${cid}`)}`;
}

/**
 * The nft ipmasq rule comment: the instance hash, then readable net/if/id with double
 * quotes removed, cut to 128 bytes (commentForInstance, H-3). DEL and GC match rules by
 * the hash prefix, so a cut in the readable part never loses a rule.
 */
export function nftMasqComment(net: string, ifname: string, cid: string): string {
  const strip = (s: string): string => s.replaceAll('"', "");
  const comment = `${nftMasqInstanceHash(net, ifname, cid)}, net: ${strip(net)}, if: ${strip(ifname)}, id: ${strip(cid)}`;
  return cutBytes(comment, NFT_COMMENT_MAX);
}

/**
 * The first `max` UTF-8 bytes of `text`. Go slices bytes and may split a character; we
 * drop a split character instead, since a JS string cannot hold half of one.
 */
function cutBytes(text: string, max: number): string {
  const bytes = encoder.encode(text);
  if (bytes.length <= max) return text;
  let end = max;
  // Back up over continuation bytes (10xxxxxx) so the cut falls on a character boundary.
  while (end > 0 && ((bytes[end] ?? 0) & 0xc0) === 0x80) end--;
  return new TextDecoder().decode(bytes.subarray(0, end));
}
