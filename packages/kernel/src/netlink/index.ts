export { createNetlinkKernel } from "./driver.ts";
export type { NetlinkKernelOptions } from "./driver.ts";
export { decodeAddrs, decodeLinks, decodeRoutes, rawLink } from "./decode.ts";
export type { RawLink } from "./decode.ts";
export { encodeOp, Refused } from "./encode.ts";
export type { EncodeContext } from "./encode.ts";
export { NetlinkError, NetlinkSocket } from "./socket.ts";
export { MessageBuilder, attrs, attrStr, attrU, messages } from "./wire.ts";
export { cidrBytes, ipBytes, ipText, macBytes, macText } from "./text.ts";
