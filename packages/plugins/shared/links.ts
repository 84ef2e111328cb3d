/**
 * Reading only the links a plugin names. A plan or a check looks links up by name, so a
 * GETLINK per name answers it; a dump of every link would grow with the number of
 * containers on the host and cost more to decode than the few links it needs.
 */
import type { Kernel, LinkInfo } from "@tscni/kernel";
import type { Netns } from "@tscni/kernel";

/** Above this many names, one dump of the namespace is cheaper than a read per name. */
const READS_BY_NAME_MAX = 8;

/**
 * The links of `ns` named in `names` that exist, each once: for lookups by name, the
 * same answer as the whole of {@link Kernel.links}.
 *
 * @example await linksNamed(kernel, HOST, ["cni0", "cni0.100"]) // [cni0] when only it exists
 */
export async function linksNamed(kernel: Kernel, ns: Netns, names: readonly string[]): Promise<LinkInfo[]> {
  const wanted = [...new Set(names)];
  if (wanted.length > READS_BY_NAME_MAX) return (await kernel.links(ns)).filter((l) => wanted.includes(l.name));
  const found = await Promise.all(wanted.map((name) => kernel.link(ns, name)));
  return found.filter((l): l is LinkInfo => l !== undefined);
}
