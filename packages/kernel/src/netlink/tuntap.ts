/**
 * Creating a tap device as `ip tuntap add` and Go netlink's Tuntap do: the kernel
 * refuses tun/tap creation over rtnetlink (tun_validate: "tun/tap creation via rtnetlink
 * is not supported"), so /dev/net/tun is opened inside the namespace, TUNSETIFF names
 * the device and its flags, TUNSETOWNER / TUNSETGROUP set who may attach, and
 * TUNSETPERSIST keeps it after the descriptor closes.
 */
import { KernelError } from "../kernel.ts";
import { cPath, STRERROR, type Libc } from "../libc.ts";
import { within } from "../netns.ts";
import type { TapAdd } from "../ops.ts";

const TUNSETIFF = 0x400454ca;
const TUNSETPERSIST = 0x400454cb;
const TUNSETOWNER = 0x400454cc;
const TUNSETGROUP = 0x400454ce;
const IFF_TAP = 0x0002;
const IFF_MULTI_QUEUE = 0x0100;
const IFF_NO_PI = 0x1000;
const IFF_VNET_HDR = 0x4000;
const O_RDWR = 2;
const O_CLOEXEC = 0x80000;

/** The TUNSETIFF flags of a tap.add (iproute2's defaults: no packet information header). */
export function tapFlags(op: TapAdd): number {
  return (
    IFF_TAP |
    (op.pi === true ? 0 : IFF_NO_PI) |
    (op.vnetHdr === true ? IFF_VNET_HDR : 0) |
    (op.multiQueue === true ? IFF_MULTI_QUEUE : 0)
  );
}

function fail(c: Libc, what: string): never {
  const errno = c.errno();
  const text = STRERROR[errno] ?? `errno ${errno}`;
  const kind = errno === 16 || errno === 17 ? "exists" : errno === 22 ? "invalid" : "other";
  throw new KernelError(kind, `ioctl(${what}): ${text}`);
}

/** Creates the persistent tap `op.name` inside `ns` (undefined: this process's namespace). */
export function createTap(c: Libc, ns: string | undefined, op: TapAdd): void {
  within(c, ns, () => {
    const fd = c.open(cPath("/dev/net/tun"), O_RDWR | O_CLOEXEC);
    if (fd < 0) fail(c, "open /dev/net/tun");
    try {
      const ifr = new Uint8Array(40);
      ifr.set(new TextEncoder().encode(op.name).subarray(0, 15));
      new DataView(ifr.buffer).setUint16(16, tapFlags(op), true);
      if (c.ioctl(fd, TUNSETIFF, ifr) !== 0) fail(c, "TUNSETIFF");
      if (op.owner !== undefined && c.ioctl(fd, TUNSETOWNER, op.owner) !== 0) fail(c, "TUNSETOWNER");
      if (op.group !== undefined && c.ioctl(fd, TUNSETGROUP, op.group) !== 0) fail(c, "TUNSETGROUP");
      if (c.ioctl(fd, TUNSETPERSIST, 1) !== 0) fail(c, "TUNSETPERSIST");
    } finally {
      c.close(fd);
    }
  });
}
