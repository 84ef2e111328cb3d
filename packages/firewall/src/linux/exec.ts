/**
 * How the real backends run `iptables-save`, `iptables-restore`, `nft`: as a child the
 * plugin does not block on (its kernel work goes on meanwhile), in the plugin's own
 * namespace, or inside another one through the kernel package's runner (tests run
 * everything inside a throwaway namespace this way, never in the host).
 */
import type { NsRunner } from "@tscni/kernel/linux";

/** One finished tool run. */
export interface ToolResult {
  exitCode: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs a tool to completion with optional stdin. The child is started before the call
 * returns; the promise settles when it exits.
 */
export type ToolExec = (argv: readonly string[], stdin?: string) => Promise<ToolResult>;

const SEARCH = ["/usr/sbin", "/sbin", "/usr/bin", "/bin"];

/** A missing binary is a failed run, not a crash (support detection relies on it). */
const notRun = (e: unknown): ToolResult => ({
  exitCode: 127,
  stdout: "",
  stderr: e instanceof Error ? e.message : String(e),
});

/** Runs in this thread's namespace (LC_ALL=C so messages and formats are the tools' own). */
export function spawnTool(argv: readonly string[], stdin?: string): Promise<ToolResult> {
  try {
    const child = Bun.spawn([...argv], {
      stdin: stdin === undefined ? "ignore" : new TextEncoder().encode(stdin),
      stdout: "pipe",
      stderr: "pipe",
      env: { ...process.env, LC_ALL: "C" },
    });
    return Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]).then(
      ([stdout, stderr, exitCode]) => ({ exitCode, stdout, stderr }),
      notRun,
    );
  } catch (e) {
    return Promise.resolve(notRun(e));
  }
}

/** Runs inside namespace `netns` through `runner` (setns only while the child is made). */
export function execIn(runner: NsRunner, netns: string): ToolExec {
  return (argv, stdin) => runner.spawn(netns, { argv, ...(stdin !== undefined && { stdin }) }).catch(notRun);
}

/** The absolute path of a tool, searched in `path` (a PATH-style list) then the sbin directories. */
export function findTool(name: string, path: string | undefined): string | undefined {
  return Bun.which(name, { PATH: [path ?? process.env.PATH ?? "", ...SEARCH].join(":") }) ?? undefined;
}
