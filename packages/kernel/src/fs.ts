/**
 * The file operations of the plugin path through libc (`bun:ffi`), under the names and
 * signatures of `node:fs`, with its errors (`code`, `path`, `syscall`, `errno` and the
 * same message). Loading `node:fs` costs a plugin call more CPU and page faults than any
 * other module it loads (docs/PERFORMANCE.md "What changed"), and the netlink driver
 * loads `bun:ffi` anyway. Only what the plugin path uses is here; `fs.test.ts` holds each
 * operation to `node:fs` on the same files.
 */
import { fsError } from "./fs-errors.ts";
import { cPath, libcNow } from "./libc.ts";

const O_RDONLY = 0;
const O_WRONLY = 1;
const O_CREAT = 0o100;
const O_EXCL = 0o200;
const O_TRUNC = 0o1000;
const O_APPEND = 0o2000;
const O_DIRECTORY = 0o200000;
const O_CLOEXEC = 0o2000000;
const AT_FDCWD = -100;
const AT_EMPTY_PATH = 0x1000;
const STATX_BASIC = 0x7ff;
const EINTR = 4;
const ENOENT = 2;
const EEXIST = 17;
const S_IFMT = 0o170000;
const S_IFDIR = 0o040000;
const S_IFREG = 0o100000;

/** `fs.constants` as far as the plugin path uses them. */
export const constants = { F_OK: 0, R_OK: 4, W_OK: 2, X_OK: 1 } as const;

/** The one libc loader's entry points (loaded on first use). */
const lib = libcNow;

/** Runs a call that returns -1 on failure, again on EINTR; throws node:fs's error otherwise. */
function check(r: number, syscall: string, path?: string, dest?: string): number {
  if (r >= 0) return r;
  throw fsError(lib().errno(), syscall, path, dest);
}

function retry(call: () => number, syscall: string, path?: string): number {
  for (;;) {
    const r = call();
    if (r >= 0) return r;
    const e = lib().errno();
    if (e !== EINTR) throw fsError(e, syscall, path);
  }
}

const FLAGS: Readonly<Record<string, number>> = {
  r: O_RDONLY,
  w: O_WRONLY | O_CREAT | O_TRUNC,
  wx: O_WRONLY | O_CREAT | O_TRUNC | O_EXCL,
  a: O_WRONLY | O_CREAT | O_APPEND,
};

/** `fs.openSync` for the flags "r", "w", "wx" and "a" (close-on-exec, as node:fs opens). */
export function openSync(path: string, flags: "r" | "w" | "wx" | "a", mode = 0o666): number {
  const f = FLAGS[flags] ?? O_RDONLY;
  const p = cPath(path);
  return retry(() => lib().open(p, f | O_CLOEXEC, mode), "open", path);
}

/** `fs.closeSync`. */
export function closeSync(fd: number): void {
  check(lib().close(fd), "close");
}

/** `fs.readSync(fd, buffer)`: bytes read into `buf`, 0 at the end (EAGAIN thrown as code). */
export function readSync(fd: number, buf: Uint8Array): number {
  if (buf.length === 0) return 0;
  return retry(() => Number(lib().read(fd, buf, buf.length)), "read");
}

/** `fs.writeSync(fd, data)`: one write(2); the bytes written. */
export function writeSync(fd: number, data: string | Uint8Array): number {
  const b = typeof data === "string" ? new TextEncoder().encode(data) : data;
  if (b.length === 0) return 0;
  return retry(() => Number(lib().write(fd, b, b.length)), "write");
}

/** `fs.readFileSync(path, "utf8")`. */
export function readFileSync(path: string, _encoding: "utf8"): string {
  const fd = openSync(path, "r");
  try {
    const parts: Uint8Array[] = [];
    for (;;) {
      const buf = new Uint8Array(parts.length === 0 ? 4096 : 65536);
      const n = readSync(fd, buf);
      if (n === 0) break;
      parts.push(buf.subarray(0, n));
    }
    const all = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
    let at = 0;
    for (const p of parts) {
      all.set(p, at);
      at += p.length;
    }
    return new TextDecoder().decode(all);
  } finally {
    lib().close(fd);
  }
}

/** `fs.writeFileSync(path, data, { mode })`: created (mode, before umask) or truncated, all written. */
export function writeFileSync(path: string, data: string | Uint8Array, opts: { mode?: number } = {}): void {
  const fd = openSync(path, "w", opts.mode ?? 0o666);
  try {
    let b = typeof data === "string" ? new TextEncoder().encode(data) : data;
    while (b.length > 0) b = b.subarray(writeSync(fd, b));
  } finally {
    lib().close(fd);
  }
}

/** `fs.accessSync(path, mode)`. */
export function accessSync(path: string, mode: number = constants.F_OK): void {
  check(lib().access(cPath(path), mode), "access", path);
}

/** `fs.existsSync`: access(2) with F_OK, as node:fs does. */
export function existsSync(path: string): boolean {
  return lib().access(cPath(path), constants.F_OK) === 0;
}

/** What the plugin path reads of a stat: device, inode, type, and mtime in ns. */
export interface Stat {
  dev: number;
  ino: number;
  mode: number;
  size: number;
  mtimeNs: bigint;
  isFile(): boolean;
  isDirectory(): boolean;
}

function statOf(b: Uint8Array): Stat {
  const v = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const mode = v.getUint16(28, true);
  const [major, minor] = [v.getUint32(136, true), v.getUint32(140, true)];
  return {
    // glibc's makedev, as node:fs reports st_dev.
    dev: (major & 0xfff) * 256 + (minor & 0xff) + (minor & 0xffffff00) * 4096 + (major & 0xfffff000) * 2 ** 32,
    ino: Number(v.getBigUint64(32, true)),
    mode,
    size: Number(v.getBigUint64(40, true)),
    mtimeNs: v.getBigInt64(112, true) * 1_000_000_000n + BigInt(v.getUint32(120, true)),
    isFile: () => (mode & S_IFMT) === S_IFREG,
    isDirectory: () => (mode & S_IFMT) === S_IFDIR,
  };
}

/** `fs.statSync(path)` (symlinks followed); `mtimeNs` always set. */
export function statSync(path: string, _opts?: { bigint: true }): Stat {
  const b = new Uint8Array(256);
  check(lib().statx(AT_FDCWD, cPath(path), 0, STATX_BASIC, b), "stat", path);
  return statOf(b);
}

/** `fs.fstatSync(fd)`. */
export function fstatSync(fd: number): Stat {
  const b = new Uint8Array(256);
  check(lib().statx(fd, cPath(""), AT_EMPTY_PATH, STATX_BASIC, b), "fstat");
  return statOf(b);
}

/**
 * `fs.mkdirSync(path, { recursive, mode })`: with `recursive`, parents too, no error for a
 * directory already there, and the first directory made returned (undefined if none).
 */
export function mkdirSync(path: string, opts: { recursive?: boolean; mode?: number } = {}): string | undefined {
  const mode = opts.mode ?? 0o777;
  const make = (p: string): number => lib().mkdir(cPath(p), mode);
  if (make(path) === 0) return opts.recursive === true ? path : undefined;
  let e = lib().errno();
  if (opts.recursive === true) {
    if (e === EEXIST && isDirectory(path)) return undefined;
    const parent = path.replace(/\/+[^/]*\/*$/, "");
    if (e === ENOENT && parent !== "" && parent !== path) {
      const first = mkdirSync(parent, opts);
      if (make(path) === 0) return first ?? path;
      e = lib().errno();
      if (e === EEXIST && isDirectory(path)) return first;
    }
  }
  throw fsError(e, "mkdir", path);
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** `fs.unlinkSync`. */
export function unlinkSync(path: string): void {
  check(lib().unlink(cPath(path)), "unlink", path);
}

/** `fs.rmdirSync`. */
export function rmdirSync(path: string): void {
  check(lib().rmdir(cPath(path)), "rmdir", path);
}

/** `fs.renameSync`. */
export function renameSync(from: string, to: string): void {
  check(lib().rename(cPath(from), cPath(to)), "rename", from, to);
}

/** `fs.realpathSync`. */
export function realpathSync(path: string): string {
  const out = new Uint8Array(4097);
  if (!lib().realpath(cPath(path), out)) throw fsError(lib().errno(), "realpath", path);
  return new TextDecoder().decode(out.subarray(0, out.indexOf(0)));
}

/** `fs.utimesSync(path, atime, mtime)`: times as Dates or seconds (microseconds kept). */
export function utimesSync(path: string, atime: Date | number, mtime: Date | number): void {
  const ts = new DataView(new ArrayBuffer(32));
  for (const [i, t] of [atime, mtime].entries()) {
    const micros = Math.round((typeof t === "number" ? t : t.getTime() / 1000) * 1e6);
    const sec = Math.floor(micros / 1e6);
    ts.setBigInt64(i * 16, BigInt(sec), true);
    ts.setBigInt64(i * 16 + 8, BigInt((micros - sec * 1e6) * 1000), true);
  }
  check(lib().utimensat(AT_FDCWD, cPath(path), new Uint8Array(ts.buffer), 0), "utime", path);
}

/** An open directory read one entry at a time (`fs.Dir`); "." and ".." are skipped. */
export interface Dir {
  readSync(): { name: string } | null;
  closeSync(): void;
}

/** `fs.opendirSync`: entries in the order getdents64(2) returns them, read in batches. */
export function opendirSync(path: string): Dir {
  const fd = retry(() => lib().open(cPath(path), O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0), "opendir", path);
  const buf = new Uint8Array(32768);
  const view = new DataView(buf.buffer);
  const decoder = new TextDecoder();
  let [at, end] = [0, 0];
  return {
    readSync() {
      for (;;) {
        if (at >= end) {
          end = retry(() => Number(lib().getdents64(fd, buf, buf.length)), "scandir", path);
          at = 0;
          if (end === 0) return null;
        }
        // struct linux_dirent64: d_ino u64, d_off s64, d_reclen u16, d_type u8, d_name NUL-terminated.
        const reclen = view.getUint16(at + 16, true);
        const nameStart = at + 19;
        const nul = buf.indexOf(0, nameStart);
        const name = decoder.decode(buf.subarray(nameStart, nul < 0 || nul > at + reclen ? at + reclen : nul));
        at += reclen;
        if (name !== "." && name !== "..") return { name };
      }
    },
    closeSync() {
      lib().close(fd);
    },
  };
}

/** `fs.readdirSync(path)`: the names, in directory order. */
export function readdirSync(path: string): string[] {
  let dir: Dir;
  try {
    dir = opendirSync(path);
  } catch (err) {
    const e = err as { errno?: number };
    throw fsError(-(e.errno ?? 0), "scandir", path);
  }
  try {
    const names: string[] = [];
    for (let e = dir.readSync(); e !== null; e = dir.readSync()) names.push(e.name);
    return names;
  } finally {
    dir.closeSync();
  }
}
