/**
 * One plugin call of the compiled binary under `strace -f -e trace=execve`, inside a
 * World's host namespace: its stdout, exit code and every program it (or a child) exec'd,
 * so a test can prove how many processes a call costs (scripts/e2e/nft-noexec.e2e.test.ts).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { BIN_DIR, type World } from "./harness.ts";

/** How the firewall writes nftables: in process (the default) or through `nft` (TSCNI_NFT_TRANSPORT=nft). */
export type Transport = "nfnetlink" | "nft";

/** One plugin call under strace: its stdout, exit code and the programs it (and its children) exec'd. */
export async function traced(
  w: World,
  transport: Transport,
  plugin: string,
  command: string,
  cid: string,
  config: object,
): Promise<{ code: number; stdout: string; execs: string[] }> {
  const log = join(w.dir, `strace-${plugin}-${command}-${cid}`);
  const proc = Bun.spawn(
    [
      "ip",
      "netns",
      "exec",
      w.host,
      "strace",
      "-f",
      "-qq",
      "-e",
      "trace=execve",
      "-e",
      "signal=none",
      "-o",
      log,
      join(BIN_DIR, plugin),
    ],
    {
      env: {
        PATH: process.env.PATH ?? "/usr/sbin:/usr/bin:/sbin:/bin",
        CNI_COMMAND: command,
        CNI_CONTAINERID: cid,
        CNI_NETNS: w.netns(0),
        CNI_IFNAME: "eth0",
        CNI_ARGS: "",
        CNI_PATH: BIN_DIR,
        ...(transport === "nft" && { TSCNI_NFT_TRANSPORT: "nft" }),
      },
      stdin: new TextEncoder().encode(JSON.stringify(config)),
      stdout: "pipe",
      stderr: "pipe",
    },
  );
  const [stdout, code] = await Promise.all([new Response(proc.stdout).text(), proc.exited]);
  return { code, stdout, execs: successfulExecs(readFileSync(log, "utf8")) };
}

/**
 * The programs strace -f saw exec'd successfully, in order, the traced plugin itself
 * left out: `PID execve("/path", ...) = 0`, or the same split by another thread into
 * `<unfinished ...>` and `<... execve resumed> ... = 0`; failed PATH lookups end `= -1`.
 */
export function successfulExecs(log: string): string[] {
  const pending = new Map<string, string>();
  const out: string[] = [];
  for (const line of log.split("\n")) {
    const call = /^(\d+) +execve\("([^"]+)"/.exec(line);
    const resumed = /^(\d+) +<\.\.\. execve resumed>/.exec(line);
    const pid = call?.[1] ?? resumed?.[1];
    if (pid === undefined) continue;
    if (call !== null) pending.set(pid, call[2] as string);
    if (!/= 0$/.test(line)) continue;
    const path = pending.get(pid);
    pending.delete(pid);
    if (path !== undefined) out.push(path.split("/").pop() ?? path);
  }
  return out.slice(1);
}
