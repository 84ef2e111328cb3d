/**
 * How the real backends run `iptables-save`, `iptables-restore`, `nft`: synchronously, in
 * the plugin's own namespace, or inside another one through the kernel package's setns
 * runner (tests run everything inside a throwaway namespace this way, never in the host).
 */
import type { NsRunner } from "@tscni/kernel/linux";

/** One finished tool run. */
export interface ToolResult {
  exitCode: number;
  stdout: string;
  stderr: string;
}

/** Runs a tool to completion with optional stdin. */
export type ToolExec = (argv: readonly string[], stdin?: string) => ToolResult;

const decoder = new TextDecoder();
const SEARCH = ["/usr/sbin", "/sbin", "/usr/bin", "/bin"];

/** Runs in this thread's namespace (LC_ALL=C so messages and formats are the tools' own). */
export function spawnTool(argv: readonly string[], stdin?: string): ToolResult {
  try {
    const r = Bun.spawnSync([...argv], {
      stdin: stdin === undefined ? "ignore" : new TextEncoder().encode(stdin),
      stdout: "pipe",
      stderr: "pipe",
      env: { ...process.env, LC_ALL: "C" },
    });
    return { exitCode: r.exitCode ?? 1, stdout: decoder.decode(r.stdout), stderr: decoder.decode(r.stderr) };
  } catch (e) {
    // A missing binary is a failed run, not a crash (support detection relies on it).
    return { exitCode: 127, stdout: "", stderr: e instanceof Error ? e.message : String(e) };
  }
}

/** Runs inside namespace `netns` through `runner` (setns around the synchronous spawn). */
export function execIn(runner: NsRunner, netns: string): ToolExec {
  return (argv, stdin) => {
    const [r] = runner.exec(netns, [{ argv, ...(stdin !== undefined && { stdin }) }]);
    return r ?? { exitCode: 1, stdout: "", stderr: "no result" };
  };
}

/** The absolute path of a tool, searched in `path` (a PATH-style list) then the sbin directories. */
export function findTool(name: string, path: string | undefined): string | undefined {
  return Bun.which(name, { PATH: [path ?? process.env.PATH ?? "", ...SEARCH].join(":") }) ?? undefined;
}
