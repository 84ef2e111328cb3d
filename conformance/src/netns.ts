/**
 * Throwaway network namespaces for the kernel cases, and what `ip -json` shows in them.
 * Every namespace is created here and deleted in `finally`, even when the case fails.
 */

/** A namespace created for one case. */
export interface TestNetns {
  name: string;
  /** The path a runtime passes as CNI_NETNS. */
  path: string;
}

/** Runs `ip` and returns stdout; throws with stderr on failure. */
export async function ip(args: readonly string[]): Promise<string> {
  const proc = Bun.spawn(["ip", ...args], { stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  if (code !== 0) throw new Error(`ip ${args.join(" ")}: ${err.trim()}`);
  return out;
}

/** `ip -n <ns> -json <args>` parsed. */
export async function ipJson<T = unknown>(ns: TestNetns, args: readonly string[]): Promise<T> {
  const out = await ip(["-n", ns.name, "-json", ...args]);
  return (out.trim() === "" ? [] : JSON.parse(out)) as T;
}

/** Creates a namespace `tscni-conf-<random>`. */
export async function createNetns(): Promise<TestNetns> {
  const name = `tscni-conf-${crypto.randomUUID().slice(0, 8)}`;
  await ip(["netns", "add", name]);
  return { name, path: `/var/run/netns/${name}` };
}

/** Deletes a namespace made by {@link createNetns}; a missing one is fine. */
export async function deleteNetns(ns: TestNetns): Promise<void> {
  await ip(["netns", "del", ns.name]).catch(() => undefined);
}

/**
 * Runs `fn` with a fresh namespace and deletes it afterwards.
 *
 * @example await withNetns(async (ns) => ipJson(ns, ["link", "show", "lo"]))
 */
export async function withNetns<T>(fn: (ns: TestNetns) => Promise<T>): Promise<T> {
  const ns = await createNetns();
  try {
    return await fn(ns);
  } finally {
    await deleteNetns(ns);
  }
}
