/**
 * Kernel state of the fuzzing sandbox as a set of lines, so that what a failed ADD or a DEL
 * left behind is a set difference: links, addresses, routes, rules and qdiscs of both
 * namespaces and the firewall rule sets of the host namespace. Volatile parts (counters,
 * IPv6 link-local addresses and their routes, which the kernel adds by itself) are dropped.
 * Pure: the sandbox runs {@link snapshotScript} and hands its output to {@link parseSnapshot}.
 */

/** Batches of `ip` commands: one process prints every section (a JSON array each). */
const IP_BATCH = "link show\naddr show\nroute show table all\nrule show\n";
const IP6_BATCH = "route show table all\nrule show\n";
/** The sections each batch prints, in order. */
const IP_SECTIONS = ["link", "addr", "route", "rule"] as const;
const IP6_SECTIONS = ["route6", "rule6"] as const;

/**
 * A shell script that prints the state of the host namespace (where it runs) and of the
 * container namespace `container` (through `ip -n` / `tc -n`), each part after a marker
 * line; `legacy` adds the iptables-legacy rule sets (iptables-nft's live in `nft list ruleset`).
 */
export function snapshotScript(container: string, legacy = false): string {
  const lines: string[] = [];
  for (const [ns, n] of [
    ["host", ""],
    ["container", `-n ${container} `],
  ] as const) {
    lines.push(`echo '### ${ns} ip'; printf '${IP_BATCH}' | ip ${n}-j -d -batch - 2>/dev/null`);
    lines.push(`echo '### ${ns} ip6'; printf '${IP6_BATCH}' | ip ${n}-6 -j -batch - 2>/dev/null`);
    lines.push(`echo '### ${ns} qdisc'; tc ${n}-j qdisc show 2>/dev/null`);
  }
  lines.push("echo '### host nft'; nft list ruleset 2>/dev/null");
  if (legacy) {
    lines.push("echo '### host iptlegacy'; iptables-legacy-save 2>/dev/null");
    lines.push("echo '### host ip6tlegacy'; ip6tables-legacy-save 2>/dev/null");
  }
  return lines.join("\n");
}

/** The top-level JSON values of `text`, which holds several one after the other. */
export function splitJsonValues(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = -1;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    else if (c === "[" || c === "{") {
      if (depth === 0) start = i;
      depth++;
    } else if (c === "]" || c === "}") {
      depth--;
      if (depth === 0 && start !== -1) out.push(text.slice(start, i + 1));
    }
  }
  return out;
}

type Json = Record<string, unknown>;
const str = (x: unknown): string => (x === undefined || x === null ? "" : String(x));
const isLinkLocal = (a: string): boolean => /^(fe80|ff0[0-9a-f]):/i.test(a) || a === "ff00::/8";

// The kernel gives lo 127.0.0.1/8 and ::1 (with their local routes) the first time it comes
// up and keeps the IPv4 one when it goes down: no plugin adds or owes them.
const isLoopbackAddr = (a: string): boolean => /^127\./.test(a) || a === "::1";

function parseJson(text: string): Json[] {
  try {
    const v = JSON.parse(text.trim() === "" ? "[]" : text) as unknown;
    return Array.isArray(v) ? (v as Json[]) : [];
  } catch {
    return [];
  }
}

function sectionLines(name: string, body: string): string[] {
  switch (name) {
    case "link":
      return parseJson(body).map((l) => {
        const kind = str((l.linkinfo as Json | undefined)?.info_kind);
        const up = ((l.flags as string[] | undefined) ?? []).includes("UP") ? "up" : "down";
        // A bridge takes a port's MAC as ports come and go: its own MAC is not state a plugin owns.
        const mac = kind === "bridge" ? "" : ` mac=${str(l.address)}`;
        return `link ${str(l.ifname)} kind=${kind} master=${str(l.master)} mtu=${str(l.mtu)} ${up}${mac}`;
      });
    case "addr":
      return parseJson(body).flatMap((l) =>
        ((l.addr_info as Json[] | undefined) ?? [])
          .filter((a) => !isLinkLocal(str(a.local)) && !(l.ifname === "lo" && isLoopbackAddr(str(a.local))))
          .map((a) => `addr ${str(l.ifname)} ${str(a.local)}/${str(a.prefixlen)}`),
      );
    case "route":
    case "route6":
      // The local table follows the addresses (kept above), IPv6's only once DAD is done.
      return parseJson(body)
        .filter(
          (r) => r.table !== "local" && !isLinkLocal(str(r.dst)) && !(r.dev === "lo" && isLoopbackAddr(str(r.dst))),
        )
        .map(
          (r) =>
            `${name} table=${str(r.table)} type=${str(r.type)} ${str(r.dst)} dev=${str(r.dev)} via=${str(r.gateway)} src=${str(r.prefsrc)}`,
        );
    case "rule":
    case "rule6":
      return parseJson(body).map((r) => `${name} ${JSON.stringify(r)}`);
    case "qdisc":
      // noqueue and noop are what the kernel gives a link by itself as it comes and goes.
      return parseJson(body)
        .filter((q) => q.kind !== "noqueue" && q.kind !== "noop")
        .map((q) => `qdisc ${str(q.dev)} ${str(q.kind)} ${str(q.handle)} ${str(q.parent)}`);
    default:
      // Firewall rule sets: counters and generator comments change by themselves.
      return body
        .split("\n")
        .map((l) =>
          l
            .replace(/counter packets \d+ bytes \d+/g, "counter")
            .replace(/\[\d+:\d+\]/g, "")
            .trim(),
        )
        .filter((l) => l !== "" && !l.startsWith("#"))
        .map((l) => `${name} ${l}`);
  }
}

/** The state lines of a script's output, each prefixed with its namespace ("host" or "container"). */
export function parseSnapshot(output: string): Set<string> {
  const out = new Set<string>();
  const parts = output.split(/^### /m).slice(1);
  for (const part of parts) {
    const nl = part.indexOf("\n");
    const [ns = "", name = ""] = (nl === -1 ? part : part.slice(0, nl)).trim().split(" ");
    const body = nl === -1 ? "" : part.slice(nl + 1);
    const batch = name === "ip" ? IP_SECTIONS : name === "ip6" ? IP6_SECTIONS : undefined;
    const pieces: Array<readonly [string, string]> =
      batch === undefined ? [[name, body]] : splitJsonValues(body).map((v, i) => [batch[i] ?? "", v] as const);
    for (const [section, text] of pieces) for (const line of sectionLines(section, text)) out.add(`${ns} ${line}`);
  }
  return out;
}

/** What changed from `before` to `after`: lines added (`+ ...`) and removed (`- ...`). */
export function diffSnapshots(before: ReadonlySet<string>, after: ReadonlySet<string>): string[] {
  const out: string[] = [];
  for (const l of after) if (!before.has(l)) out.push(`+ ${l}`);
  for (const l of before) if (!after.has(l)) out.push(`- ${l}`);
  return out;
}
