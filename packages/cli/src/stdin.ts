/**
 * Reading a plugin's stdin to its end. A runtime hands the config through a pipe, so
 * plain blocking reads get all of it; they cost ~0.1 ms where the first use of
 * `Bun.stdin` costs 0.4 to 1 ms of a plugin call (docs/PERFORMANCE.md).
 */

/** `node:fs` readSync's shape: bytes read into `buf`, 0 at the end. */
export type ReadSync = (fd: number, buf: Uint8Array) => number;

const CHUNK = 1 << 16;

/**
 * Reads `fd` to its end with `readSync`. A non-blocking fd with nothing to read yet
 * (EAGAIN) is read on by `rest`, which receives what is left; the parts are joined.
 *
 * @example await readToEnd(0, readSync, async () => new Uint8Array(await Bun.stdin.arrayBuffer()))
 */
export async function readToEnd(fd: number, readSync: ReadSync, rest: () => Promise<Uint8Array>): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  for (;;) {
    const buf = new Uint8Array(CHUNK);
    let n: number;
    try {
      n = readSync(fd, buf);
    } catch (err) {
      if ((err as { code?: string }).code !== "EAGAIN") throw err;
      parts.push(await rest());
      break;
    }
    if (n === 0) break;
    parts.push(buf.subarray(0, n));
  }
  if (parts.length === 1) return parts[0] ?? new Uint8Array(0);
  const out = new Uint8Array(parts.reduce((sum, p) => sum + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
