/**
 * What the machine offers the tests (root, tools on PATH, built files), each as "why it
 * is missing" or undefined, so a test file, the test runner and the demo name the same
 * missing piece the same way. No `bun:test` here: scripts import it too.
 */
import { existsSync } from "node:fs";

/** True when the run is CI's (`CI=true`), where nothing may skip. */
export function underCi(): boolean {
  return process.env.CI === "true";
}

/** Why this process cannot create network namespaces, or undefined when it can (root on Linux). */
export function missingRoot(): string | undefined {
  if (process.platform !== "linux") return `not Linux (${process.platform}): the tests create network namespaces`;
  return process.getuid?.() === 0 ? undefined : "not root: the tests create network namespaces";
}

/** Why a tool on PATH is missing (naming it and its Debian package), or undefined. */
export function missingTools(tools: readonly string[]): string | undefined {
  const gone = tools.filter((t) => Bun.which(t) === null);
  if (gone.length === 0) return undefined;
  return `missing tools on PATH: ${gone.map((t) => `${t} (apt-get install ${DEBIAN_PACKAGE[t] ?? t})`).join(", ")}`;
}

/** The Debian package that provides each tool the real-kernel tests run. */
export const DEBIAN_PACKAGE: Readonly<Record<string, string>> = {
  ip: "iproute2",
  ping: "iputils-ping",
  nft: "nftables",
  iptables: "iptables",
  "iptables-restore": "iptables",
  "ip6tables-restore": "iptables",
  go: "golang-go",
  dnsmasq: "dnsmasq-base",
};

/** Why a file is missing (naming it and how to make it), or undefined when it exists. */
export function missingFile(path: string, how: string): string | undefined {
  return existsSync(path) ? undefined : `missing ${path} (${how})`;
}

/** The first reason given, or undefined when every prerequisite is met. */
export function firstMissing(...reasons: (string | undefined)[]): string | undefined {
  return reasons.find((r) => r !== undefined);
}
