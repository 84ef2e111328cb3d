/** A sysfs tree in memory for tests: directories and symlink targets by absolute path. */
import type { Sysfs } from "./sysfs.ts";

/**
 * A tree under `/fake-sys` holding `paths` (each path's parents exist too); `links` maps a
 * path to the name its symlink resolves to (a PCI device's `driver`).
 */
export function memorySysfs(paths: readonly string[], links: Readonly<Record<string, string>> = {}): Sysfs {
  const root = "/fake-sys";
  const all = new Set<string>();
  for (const p of [...paths, ...Object.keys(links)]) {
    const parts = `${root}${p}`.split("/");
    for (let i = 2; i <= parts.length; i++) all.add(parts.slice(0, i).join("/"));
  }
  return {
    root,
    list: (dir) =>
      all.has(dir)
        ? [
            ...new Set(
              [...all].filter((p) => p.startsWith(`${dir}/`)).map((p) => p.slice(dir.length + 1).split("/")[0]!),
            ),
          ].sort()
        : undefined,
    exists: (p) => all.has(p),
    linkTarget: (p) => links[p.slice(root.length)],
  };
}
