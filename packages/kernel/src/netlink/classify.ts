/**
 * What a netlink failure means, from the errno the kernel answered (or our own refusal's
 * kind) and the op that was refused: never from the message text (issue 10), which is
 * for people and changes between kernels. Pure.
 */
import type { KernelErrorKind } from "../kernel.ts";
import type { KernelOp } from "../ops.ts";
import { Refused } from "./encode.ts";
import { NetlinkError } from "./socket.ts";

const ENOENT = 2;
const ESRCH = 3;
const EEXIST = 17;
const ENODEV = 19;
const EINVAL = 22;
const ERANGE = 34;
const ELOOP = 40;
const EOPNOTSUPP = 95;
const EADDRNOTAVAIL = 99;
const ENETDOWN = 100;
const ENETUNREACH = 101;
const EHOSTUNREACH = 113;

/**
 * The kind of an errno for an op. The op matters where one errno means two things:
 * EADDRNOTAVAIL is "no such address" to a delete and "address not usable here" (a route's
 * `src` the host does not have) to anything else. EOPNOTSUPP is a link that cannot do
 * what was asked (port flags on a non-port, a kind this kernel lacks) and ELOOP a bridge
 * enslaved to a bridge: both invalid, as the fake kernel has them.
 */
export function errnoKind(errno: number, op: KernelOp["op"] | undefined): KernelErrorKind {
  switch (errno) {
    case ENOENT:
    case ESRCH:
    case ENODEV:
      return "not-found";
    case EADDRNOTAVAIL:
      return op === "addr.del" ? "not-found" : "invalid";
    case EEXIST:
      return "exists";
    case ENETDOWN:
    case ENETUNREACH:
    case EHOSTUNREACH:
      return "unreachable";
    case EINVAL:
    case ERANGE:
    case ELOOP:
    case EOPNOTSUPP:
      return "invalid";
    default:
      return "other";
  }
}

/** The kind of a failure thrown while encoding or sending `op` (undefined for a read). */
export function failureKind(e: Refused | NetlinkError, op: KernelOp | undefined): KernelErrorKind {
  return e instanceof Refused ? e.kind : errnoKind(e.errno, op?.op);
}
