/**
 * Two parts of one plugin call run together: the firewall's tools run as child processes,
 * so a transaction started before the kernel work finishes while the kernel makes or
 * deletes the veth (docs/PERFORMANCE.md, "bridge with ipMasq").
 */

/**
 * Waits for `main` and `side` both, whatever either does, then returns `main`'s value or
 * throws the first failure, `main`'s before `side`'s: a caller's rollback never starts
 * while the other part is still changing things.
 */
export async function alongside<T>(main: Promise<T>, side: Promise<unknown>): Promise<T> {
  const [m, s] = await Promise.allSettled([main, side]);
  if (m.status === "rejected") throw m.reason;
  if (s.status === "rejected") throw s.reason;
  return m.value;
}
