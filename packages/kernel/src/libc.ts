/**
 * The few libc calls the kernel drivers make (the one bun:ffi libc loader), through bun:ffi (loaded on first use, never
 * at import time): a netlink socket's life (socket, setsockopt, send, recv, close) and
 * switching the thread's network namespace around the socket's creation (open, setns),
 * CONVENTIONS.md item 10. Each call returns the raw result; errors come from {@link Libc.errno}.
 */

/** Typed libc entry points. */
export interface Libc {
  socket(domain: number, type: number, protocol: number): number;
  setsockopt(fd: number, level: number, name: number, value: Uint8Array, len: number): number;
  send(fd: number, buf: Uint8Array, len: number, flags: number): number;
  recv(fd: number, buf: Uint8Array, len: number, flags: number): number;
  close(fd: number): number;
  /** open(2) of a NUL-terminated path. */
  open(path: Uint8Array, flags: number): number;
  setns(fd: number, nstype: number): number;
  /** ioctl(2) with a buffer or an integer argument (tun/tap creation). */
  ioctl(fd: number, request: number, arg: Uint8Array | number): number;
  errno(): number;
}

let loaded: Promise<Libc> | undefined;

/** libc through bun:ffi, loaded once per process. */
export function libc(): Promise<Libc> {
  loaded ??= (async () => {
    const { dlopen, FFIType: T, read } = await import("bun:ffi");
    const { symbols: s } = dlopen("libc.so.6", {
      socket: { args: [T.i32, T.i32, T.i32], returns: T.i32 },
      setsockopt: { args: [T.i32, T.i32, T.i32, T.ptr, T.u32], returns: T.i32 },
      send: { args: [T.i32, T.ptr, T.u64, T.i32], returns: T.i64_fast },
      recv: { args: [T.i32, T.ptr, T.u64, T.i32], returns: T.i64_fast },
      close: { args: [T.i32], returns: T.i32 },
      open: { args: [T.ptr, T.i32], returns: T.i32 },
      setns: { args: [T.i32, T.i32], returns: T.i32 },
      ioctl: { args: [T.i32, T.u64, T.ptr], returns: T.i32 },
      __errno_location: { args: [], returns: T.ptr },
    });
    return {
      socket: (d, t, p) => s.socket(d, t, p),
      setsockopt: (fd, level, name, value, len) => s.setsockopt(fd, level, name, value, len),
      send: (fd, buf, len, flags) => Number(s.send(fd, buf, len, flags)),
      recv: (fd, buf, len, flags) => Number(s.recv(fd, buf, len, flags)),
      close: (fd) => s.close(fd),
      open: (path, flags) => s.open(path, flags),
      setns: (fd, nstype) => s.setns(fd, nstype),
      // An integer argument travels in the pointer slot, as the variadic C call passes it.
      ioctl: (fd, request, arg) => s.ioctl(fd, request, arg as unknown as Uint8Array),
      errno: () => {
        const p = s.__errno_location();
        return p === null ? 0 : read.i32(p, 0);
      },
    };
  })();
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
