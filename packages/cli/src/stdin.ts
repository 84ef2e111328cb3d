/**
 * Reading a plugin's stdin to its end. A runtime hands the config through a pipe, so
 * plain blocking reads get all of it; they cost ~0.1 ms where the first use of
 * `Bun.stdin` costs 0.4 to 1 ms of a plugin call (docs/PERFORMANCE.md).
 */

/** `node:fs` readSync's shape: bytes read into `buf`, 0 at the end. */
export type ReadSync = (fd: number, buf: Uint8Array) => number;

const CHUNK = 1 << 16;

/**
 * Reads `fd` to its end with `readSync`, into one buffer that doubles when full (the
 * read that finds the end reuses it: a fresh 64 KiB per read was page faults for
 * nothing). A non-blocking fd with nothing to read yet (EAGAIN) is read on by `rest`,
 * which receives what is left; the parts are joined.
 *
 * @example await readToEnd(0, readSync, async () => new Uint8Array(await Bun.stdin.arrayBuffer()))
 */
export async function readToEnd(fd: number, readSync: ReadSync, rest: () => Promise<Uint8Array>): Promise<Uint8Array> {
  let buf = new Uint8Array(CHUNK);
  let len = 0;
  for (;;) {
    if (len === buf.length) {
      const bigger = new Uint8Array(buf.length * 2);
      bigger.set(buf);
      buf = bigger;
    }
    let n: number;
    try {
      n = readSync(fd, buf.subarray(len));
    } catch (err) {
      if ((err as { code?: string }).code !== "EAGAIN") throw err;
      const tail = await rest();
      const out = new Uint8Array(len + tail.length);
      out.set(buf.subarray(0, len));
      out.set(tail, len);
      return out;
    }
    if (n === 0) return buf.subarray(0, len);
    len += n;
  }
}
