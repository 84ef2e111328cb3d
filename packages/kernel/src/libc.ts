/**
 * The few libc calls tscni makes, through the one bun:ffi libc loader (loaded on first use,
 * never at import time): a netlink socket's life (socket, setsockopt, send, recv, close),
 * switching the thread's network namespace around the socket's creation (open, setns),
 * CONVENTIONS.md item 10, flock(2) for the locks the reference shares with us, and the
 * packet socket of the DHCP client (bind, sendto, ioctl), the shim's unix socket and
 * standard streams (connect, read, write), and the file operations of the plugin path
 * (`fs.ts`: statx, mkdir, unlink, rmdir, rename, access, realpath, utimensat, getdents64).
 * One dlopen for all of them: a plugin call needs both sets, and a second dlopen of libc
 * costs more than the symbols one process does not call. Each call returns the raw result;
 * errors come from {@link Libc.errno}.
 */

/** Typed libc entry points. */
export interface Libc {
  socket(domain: number, type: number, protocol: number): number;
  setsockopt(fd: number, level: number, name: number, value: Uint8Array, len: number): number;
  send(fd: number, buf: Uint8Array, len: number, flags: number): number;
  recv(fd: number, buf: Uint8Array, len: number, flags: number): number;
  close(fd: number): number;
  /** open(2) of a NUL-terminated path (`mode` for O_CREAT, 0 otherwise). */
  open(path: Uint8Array, flags: number, mode?: number): number;
  setns(fd: number, nstype: number): number;
  flock(fd: number, op: number): number;
  bind(fd: number, addr: Uint8Array, len: number): number;
  /** connect(2): the shim's synchronous exchange with the daemon over a unix socket. */
  connect(fd: number, addr: Uint8Array, len: number): number;
  /** read(2) and write(2): the shim's stdin and stdout without node:fs. */
  read(fd: number, buf: Uint8Array, len: number): number;
  write(fd: number, buf: Uint8Array, len: number): number;
  sendto(fd: number, buf: Uint8Array, len: number, flags: number, addr: Uint8Array, alen: number): number;
  /** ioctl(2) with a buffer or an integer argument (SIOCGIF*, tun/tap creation). */
  ioctl(fd: number, req: number, arg: Uint8Array | number): number;
  statx(dirfd: number, path: Uint8Array, flags: number, mask: number, out: Uint8Array): number;
  mkdir(path: Uint8Array, mode: number): number;
  unlink(path: Uint8Array): number;
  rmdir(path: Uint8Array): number;
  rename(from: Uint8Array, to: Uint8Array): number;
  access(path: Uint8Array, mode: number): number;
  /** realpath(3) into `out` (PATH_MAX + 1 bytes): false on failure (see errno). */
  realpath(path: Uint8Array, out: Uint8Array): boolean;
  utimensat(dirfd: number, path: Uint8Array, times: Uint8Array, flags: number): number;
  getdents64(fd: number, buf: Uint8Array, len: number): number;
  errno(): number;
}

type Ffi = typeof import("bun:ffi");

let loaded: Libc | undefined;

// glibc first; musl's names for the static-musl builds of Bun.
const LIBC_NAMES = ["libc.so.6", "libc.musl-x86_64.so.1", "libc.musl-aarch64.so.1", "libc.so"];

function load({ dlopen, FFIType: T, read }: Ffi): Libc {
  const symbols = {
    socket: { args: [T.i32, T.i32, T.i32], returns: T.i32 },
    setsockopt: { args: [T.i32, T.i32, T.i32, T.ptr, T.u32], returns: T.i32 },
    send: { args: [T.i32, T.ptr, T.u64, T.i32], returns: T.i64_fast },
    recv: { args: [T.i32, T.ptr, T.u64, T.i32], returns: T.i64_fast },
    close: { args: [T.i32], returns: T.i32 },
    open: { args: [T.ptr, T.i32, T.u32], returns: T.i32 },
    setns: { args: [T.i32, T.i32], returns: T.i32 },
    flock: { args: [T.i32, T.i32], returns: T.i32 },
    bind: { args: [T.i32, T.ptr, T.u32], returns: T.i32 },
    connect: { args: [T.i32, T.ptr, T.u32], returns: T.i32 },
    read: { args: [T.i32, T.ptr, T.u64], returns: T.i64_fast },
    write: { args: [T.i32, T.ptr, T.u64], returns: T.i64_fast },
    sendto: { args: [T.i32, T.ptr, T.u64, T.i32, T.ptr, T.u32], returns: T.i64_fast },
    ioctl: { args: [T.i32, T.u64, T.ptr], returns: T.i32 },
    statx: { args: [T.i32, T.ptr, T.i32, T.u32, T.ptr], returns: T.i32 },
    mkdir: { args: [T.ptr, T.u32], returns: T.i32 },
    unlink: { args: [T.ptr], returns: T.i32 },
    rmdir: { args: [T.ptr], returns: T.i32 },
    rename: { args: [T.ptr, T.ptr], returns: T.i32 },
    access: { args: [T.ptr, T.i32], returns: T.i32 },
    realpath: { args: [T.ptr, T.ptr], returns: T.ptr },
    utimensat: { args: [T.i32, T.ptr, T.ptr, T.i32], returns: T.i32 },
    getdents64: { args: [T.i32, T.ptr, T.u64], returns: T.i64_fast },
    __errno_location: { args: [], returns: T.ptr },
  } as const;
  const errors: string[] = [];
  for (const name of LIBC_NAMES) {
    let s: ReturnType<typeof dlopen<typeof symbols>>["symbols"];
    try {
      s = dlopen(name, symbols).symbols;
    } catch (err) {
      errors.push(`${name}: ${err instanceof Error ? err.message : String(err)}`);
      continue;
    }
    return {
      socket: (d, t, p) => s.socket(d, t, p),
      setsockopt: (fd, level, name, value, len) => s.setsockopt(fd, level, name, value, len),
      send: (fd, buf, len, flags) => Number(s.send(fd, buf, len, flags)),
      recv: (fd, buf, len, flags) => Number(s.recv(fd, buf, len, flags)),
      close: (fd) => s.close(fd),
      open: (path, flags, mode = 0) => s.open(path, flags, mode),
      setns: (fd, nstype) => s.setns(fd, nstype),
      flock: (fd, op) => s.flock(fd, op),
      bind: (fd, a, l) => s.bind(fd, a, l),
      connect: (fd, a, l) => s.connect(fd, a, l),
      read: (fd, buf, len) => Number(s.read(fd, buf, len)),
      write: (fd, buf, len) => Number(s.write(fd, buf, len)),
      sendto: (fd, b, l, f, a, al) => Number(s.sendto(fd, b, l, f, a, al)),
      // An integer argument travels in the pointer slot, as C passes it.
      ioctl: (fd, r, a) => s.ioctl(fd, r, a as unknown as Uint8Array),
      statx: (d, p, f, m, out) => s.statx(d, p, f, m, out),
      mkdir: (p, mode) => s.mkdir(p, mode),
      unlink: (p) => s.unlink(p),
      rmdir: (p) => s.rmdir(p),
      rename: (a, b) => s.rename(a, b),
      access: (p, mode) => s.access(p, mode),
      // The result is `out` itself; only null (failure) matters.
      realpath: (p, out) => s.realpath(p, out) !== null,
      utimensat: (d, p, t, f) => s.utimensat(d, p, t, f),
      getdents64: (fd, buf, len) => Number(s.getdents64(fd, buf, len)),
      errno: () => {
        const p = s.__errno_location();
        return p === null ? 0 : read.i32(p, 0);
      },
    };
  }
  throw new Error(`cannot load libc: ${errors.join("; ")}`);
}

/** libc through bun:ffi, loaded once per process. */
export async function libc(): Promise<Libc> {
  loaded ??= load(await import("bun:ffi"));
  return loaded;
}

/** {@link libc} for callers that cannot await (a lock taken inside a synchronous step). */
export function libcNow(): Libc {
  loaded ??= load(import.meta.require("bun:ffi") as Ffi);
  return loaded;
}

/** A path as the NUL-terminated bytes open(2) takes. */
export function cPath(path: string): Uint8Array {
  const b = new TextEncoder().encode(path);
  const z = new Uint8Array(b.length + 1);
  z.set(b);
  return z;
}

/** strerror(3) texts of the errnos rtnetlink answers with, as iproute2 prints them. */
export const STRERROR: Readonly<Record<number, string>> = {
  1: "Operation not permitted",
  2: "No such file or directory",
  3: "No such process",
  13: "Permission denied",
  16: "Device or resource busy",
  17: "File exists",
  19: "No such device",
  22: "Invalid argument",
  34: "Numerical result out of range",
  90: "Message too long",
  93: "Protocol not supported",
  95: "Operation not supported",
  97: "Address family not supported by protocol",
  98: "Address already in use",
  99: "Cannot assign requested address",
  100: "Network is down",
  101: "Network is unreachable",
  105: "No buffer space available",
  113: "No route to host",
};
