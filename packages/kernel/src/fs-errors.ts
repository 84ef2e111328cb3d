/**
 * The errors of `fs.ts` as `node:fs` makes them under Bun: `code` (the errno's name),
 * `path` (and `dest` for a rename), `syscall`, `errno` (negative) and the message
 * `CODE: description, syscall 'path'`, the description libuv's. Callers branch on `code`
 * and some messages reach a CNI error, so both must be node:fs's exactly.
 */

/** errno to [code, libuv's description], for the errors file calls can give. */
const ERRNO: Readonly<Record<number, readonly [string, string]>> = {
  1: ["EPERM", "operation not permitted"],
  2: ["ENOENT", "no such file or directory"],
  4: ["EINTR", "interrupted system call"],
  5: ["EIO", "i/o error"],
  6: ["ENXIO", "no such device or address"],
  9: ["EBADF", "bad file descriptor"],
  11: ["EAGAIN", "resource temporarily unavailable"],
  12: ["ENOMEM", "not enough memory"],
  13: ["EACCES", "permission denied"],
  14: ["EFAULT", "bad address in system call argument"],
  16: ["EBUSY", "resource busy or locked"],
  17: ["EEXIST", "file already exists"],
  18: ["EXDEV", "cross-device link not permitted"],
  19: ["ENODEV", "no such device"],
  20: ["ENOTDIR", "not a directory"],
  21: ["EISDIR", "illegal operation on a directory"],
  22: ["EINVAL", "invalid argument"],
  23: ["ENFILE", "file table overflow"],
  24: ["EMFILE", "too many open files"],
  26: ["ETXTBSY", "text file is busy"],
  27: ["EFBIG", "file too large"],
  28: ["ENOSPC", "no space left on device"],
  30: ["EROFS", "read-only file system"],
  31: ["EMLINK", "too many links"],
  36: ["ENAMETOOLONG", "name too long"],
  39: ["ENOTEMPTY", "directory not empty"],
  40: ["ELOOP", "too many symbolic links encountered"],
  95: ["ENOTSUP", "operation not supported on socket"],
  122: ["EDQUOT", "disk quota exceeded"],
};

/** An error the way node:fs throws it for `errno` from `syscall` on `path`. */
export function fsError(errno: number, syscall: string, path?: string, dest?: string): Error {
  const [code, description] = ERRNO[errno] ?? [`Unknown system error ${-errno}`, `Unknown system error ${-errno}`];
  const where = path === undefined ? "" : ` '${path}'${dest === undefined ? "" : ` -> '${dest}'`}`;
  return Object.assign(new Error(`${code}: ${description}, ${syscall}${where}`), {
    code,
    ...(path === undefined ? {} : { path }),
    ...(dest === undefined ? {} : { dest }),
    syscall,
    errno: -errno,
  });
}
