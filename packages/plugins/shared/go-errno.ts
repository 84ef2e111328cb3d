/**
 * A kernel failure in the words the reference plugins use: Go's netlink library returns
 * the bare errno (`syscall.Errno`), which prints as strerror in lower case, e.g.
 * `failed to create ipvlan: operation not supported` on a kernel without ipvlan. Our
 * drivers report iproute2's text (`Unknown device type`), the fake kernel its own; this
 * maps either back to Go's so mixed logs read alike (CONVENTIONS.md "Errors").
 */
import { KernelError } from "@tscni/kernel";

// Checked in order; the first match names the errno.
const ERRNOS: readonly [RegExp, string][] = [
  [/Unknown device type|Operation not supported|not supported/i, "operation not supported"],
  [/File exists|already exists/i, "file exists"],
  [/Numerical result out of range|out of range/i, "numerical result out of range"],
  [/Device or resource busy|resource busy/i, "device or resource busy"],
  [/No such device|Cannot find device/i, "no such device"],
  [/Invalid argument|invalid/i, "invalid argument"],
];

const BY_KIND: Readonly<Record<string, string>> = {
  exists: "file exists",
  "not-found": "no such device",
  invalid: "invalid argument",
};

/** Go's errno text for a kernel failure; other errors keep their message. */
export function goErrno(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  if (!(err instanceof KernelError)) return text;
  for (const [re, errno] of ERRNOS) if (re.test(text)) return errno;
  return BY_KIND[err.kind] ?? text;
}
