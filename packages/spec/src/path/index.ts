/**
 * POSIX `join`, `dirname` and `basename` as `node:path` computes them. The plugin path
 * joins file names in host-local's store, the locks and CNI_PATH; importing `node:path`
 * for that loaded Bun's internal validator modules on every plugin call
 * (docs/PERFORMANCE.md "What changed"). `path.prop.test.ts` holds them to `node:path`.
 */

/** `path.posix.normalize`: "." and ".." resolved, slashes collapsed, a trailing slash kept. */
export function normalize(p: string): string {
  if (p === "") return ".";
  const absolute = p.startsWith("/");
  const out: string[] = [];
  for (const seg of p.split("/")) {
    if (seg === "" || seg === ".") continue;
    if (seg === "..") {
      if (out.length > 0 && out[out.length - 1] !== "..") out.pop();
      else if (!absolute) out.push("..");
    } else out.push(seg);
  }
  let body = out.join("/");
  if (body === "" && !absolute) body = ".";
  if (body !== "" && p.endsWith("/")) body += "/";
  return absolute ? `/${body}` : body;
}

/**
 * `path.posix.join`: the non-empty parts joined with "/" and normalized.
 *
 * @example join("/var/lib/cni/networks", "net", "10.0.0.2") // "/var/lib/cni/networks/net/10.0.0.2"
 */
export function join(...parts: string[]): string {
  const joined = parts.filter((x) => x !== "").join("/");
  return joined === "" ? "." : normalize(joined);
}

/** `path.posix.dirname`: the path up to its last separator; "." without one, "/" (or "//") at the root. */
export function dirname(p: string): string {
  if (p === "") return ".";
  const rooted = p.startsWith("/");
  let end = -1;
  let inSlashes = true;
  for (let i = p.length - 1; i >= 1; i--) {
    if (p[i] === "/") {
      if (!inSlashes) {
        end = i;
        break;
      }
    } else inSlashes = false;
  }
  if (end === -1) return rooted ? "/" : ".";
  if (rooted && end === 1) return "//";
  return p.slice(0, end);
}

/** `path.posix.basename` (no suffix): the last segment, trailing slashes ignored. */
export function basename(p: string): string {
  let start = 0;
  let end = -1;
  for (let i = p.length - 1; i >= 0; i--) {
    if (p[i] === "/") {
      if (end !== -1) {
        start = i + 1;
        break;
      }
    } else if (end === -1) end = i + 1;
  }
  return end === -1 ? "" : p.slice(start, end);
}
