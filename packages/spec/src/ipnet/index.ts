/**
 * Bigint IP arithmetic, Go-exact in its text forms (`@tscni/spec/ipnet`): imports nothing
 * but `../ip.ts`, so the plugin path can take it without valibot or the schemas.
 */
export {
  compareIP,
  familyBits,
  formatAddr,
  formatIP,
  ipEqual,
  ipFromBytes,
  ipToBytes,
  isMapped,
  nextIP,
  parseAddr,
  parseIP,
  prevIP,
} from "./addr.ts";
export type { Family, IP } from "./addr.ts";
export {
  contains,
  familyPrefix,
  formatCIDR,
  formatPrefix,
  hostNet,
  isNetwork,
  lastAddress,
  maskOf,
  network,
  networkAddress,
  parseCIDR,
  parsePrefix,
} from "./net.ts";
export type { IPNet } from "./net.ts";
