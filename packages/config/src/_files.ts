/**
 * File-name helpers shared by the directory rules: Go's `filepath.Ext` test and
 * `sort.Strings` order (bytes of UTF-8, not UTF-16 code units).
 */
import type { ConfFile } from "./types.ts";

/** The final element of a path. */
export function baseName(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1);
}

/** True when the file's extension (from its last dot, case-sensitive) is one of `exts`. */
export function hasExtension(path: string, exts: readonly string[]): boolean {
  const base = baseName(path);
  const dot = base.lastIndexOf(".");
  return dot >= 0 && exts.includes(base.slice(dot));
}

const encoder = new TextEncoder();

/** Compares two strings by their UTF-8 bytes, as Go's `sort.Strings` does. */
export function byteOrder(a: string, b: string): number {
  return Buffer.compare(encoder.encode(a), encoder.encode(b));
}

/** The files with one of `exts`, sorted by full path in byte order. */
export function filesWithExtension(files: readonly ConfFile[], exts: readonly string[]): ConfFile[] {
  return files.filter((f) => hasExtension(f.path, exts)).sort((a, b) => byteOrder(a.path, b.path));
}
