/**
 * The subset of Go's `encoding/gob` that Go's `net/rpc` needs to carry the reference
 * dhcp daemon's messages (rpc.Request/Response, skel.CmdArgs, current.Result): a stream
 * of length-prefixed messages, each a type definition (negative id, a `wireType`) or a
 * value (positive id). Structs send only their non-zero fields as (field delta, value)
 * pairs ending with 0; pointers are flattened; `net.IP` travels as plain bytes (gob does
 * not use MarshalText). The decoder is generic over the definitions the peer sends.
 */
export { GobEncoder, T } from "./gob-encode.ts";
export type { GobType } from "./gob-encode.ts";
export { GobDecoder } from "./gob-decode.ts";
