/**
 * The real sandbox of `cni fuzz plugin`: a throwaway "host" network namespace (where the
 * plugin runs, as a runtime runs it, P-1) and a throwaway container namespace, made with
 * `ip netns add` and deleted in `destroy()`; a temp dir for host-local's store and the
 * regular-file CNI_NETNS; each exec traced with strace for the files it writes; snapshots
 * of both namespaces' kernel state. Nothing here touches the machine's own namespace.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fillTokens } from "../env.ts";
import type { EnvSet } from "../env.ts";
import { CHAINED_ADDR, CHAINED_HOST_IFNAME, HOST_MASTER, HOST_SPARE } from "../configs.ts";
import { CHAINED_IFNAME } from "../env.ts";
import type { ExecOutcome } from "../judge.ts";
import { parseSnapshot, snapshotScript } from "../snapshot.ts";
import { ALLOWED_WRITE_DIRS, outsideAllowed, TRACED_SYSCALLS, writtenPaths } from "../writes.ts";
import { killTree } from "./kill-tree.ts";
import type { Sandbox, SandboxExec } from "../sandbox.ts";

const PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

function run(argv: readonly string[]): { code: number; out: string; err: string } {
  const r = Bun.spawnSync([...argv], { stdout: "pipe", stderr: "pipe", env: { PATH } });
  return { code: r.exitCode ?? 1, out: r.stdout.toString(), err: r.stderr.toString() };
}

function must(argv: readonly string[]): void {
  const r = run(argv);
  if (r.code !== 0) throw new Error(`${argv.join(" ")}: ${r.err.trim()}`);
}

/** Names of every namespace a sandbox made and has not deleted yet (for the Ctrl-C handler). */
export const liveNamespaces = new Set<string>();

/** Deletes every namespace still in {@link liveNamespaces}; never throws. */
export function deleteLiveNamespaces(): void {
  for (const name of liveNamespaces) {
    Bun.spawnSync(["ip", "netns", "del", name], { stderr: "ignore", env: { PATH } });
    liveNamespaces.delete(name);
  }
}

/** Options of a sandbox. */
export interface LinuxSandboxOptions {
  /** The plugin directory (CNI_PATH, and where plugin binaries are found). */
  readonly dir: string;
  /** Kill a plugin after this many milliseconds. */
  readonly timeoutMs: number;
  /** Trace file writes with strace (default true). */
  readonly strace?: boolean;
}

/** Creates a sandbox: two namespaces, their test links, a temp dir. */
export function createLinuxSandbox(opts: LinuxSandboxOptions): Sandbox {
  const tag = Math.random().toString(36).slice(2, 8);
  const host = `tscni-fzp-host-${tag}`;
  const container = `tscni-fzp-c-${tag}`;
  const tmp = mkdtempSync(join(tmpdir(), "tscni-fzp-"));
  const useStrace = opts.strace !== false;
  let execs = 0;

  const setUp = () => {
    for (const ns of [host, container]) {
      must(["ip", "netns", "add", ns]);
      liveNamespaces.add(ns);
    }
    // A runtime's new container namespace has lo down (the loopback plugin brings it up).
    must(["ip", "-n", host, "link", "set", "lo", "up"]);
    // A master for macvlan/ipvlan/vlan and a spare device for host-device, in the host namespace.
    must(["ip", "-n", host, "link", "add", HOST_MASTER, "type", "veth", "peer", "name", HOST_SPARE]);
    // Both ends up, so the master has a carrier and IPv6 DAD on a macvlan completes.
    must(["ip", "-n", host, "link", "set", HOST_MASTER, "up"]);
    must(["ip", "-n", host, "link", "set", HOST_SPARE, "up"]);
    // The interface chained plugins adjust (their prevResult names it), with its host side.
    must(["ip", "-n", host, "link", "add", CHAINED_HOST_IFNAME, "type", "veth", "peer", "name", CHAINED_IFNAME]);
    must(["ip", "-n", host, "link", "set", CHAINED_IFNAME, "netns", container]);
    must(["ip", "-n", host, "addr", "add", CHAINED_ADDR.host, "dev", CHAINED_HOST_IFNAME]);
    must(["ip", "-n", host, "link", "set", CHAINED_HOST_IFNAME, "up"]);
    must(["ip", "-n", container, "addr", "add", CHAINED_ADDR.container, "dev", CHAINED_IFNAME]);
    must(["ip", "-n", container, "link", "set", CHAINED_IFNAME, "up"]);
    rmSync(join(tmp, "ipam"), { recursive: true, force: true });
    mkdirSync(join(tmp, "ipam"), { recursive: true });
    mkdirSync(join(tmp, "cwd"), { recursive: true });
    writeFileSync(join(tmp, "regular-file"), "not a namespace\n");
  };
  const tearDown = () => {
    for (const ns of [container, host]) {
      run(["ip", "netns", "del", ns]);
      liveNamespaces.delete(ns);
    }
  };
  try {
    setUp();
  } catch (e) {
    tearDown();
    rmSync(tmp, { recursive: true, force: true });
    throw e;
  }
  const tokens = { netns: `/var/run/netns/${container}`, dir: opts.dir, tmp };
  // Opening CNI_NETNS read-write (sbr flocks it) changes nothing on disk.
  const allowed = [...ALLOWED_WRITE_DIRS, tmp, tokens.netns];
  // iptables-nft's rules show in `nft list ruleset`; legacy ones need their own dump.
  const legacy = run(["iptables", "--version"]).out.includes("legacy");

  return {
    names: { host, container, tmp },
    async exec(plugin: string, env: EnvSet, stdin: Uint8Array): Promise<SandboxExec> {
      const filled: Record<string, string> = { PATH };
      for (const [k, v] of Object.entries(env)) filled[k] = fillTokens(v, tokens);
      const bytes = new TextEncoder().encode(fillTokens(new TextDecoder().decode(stdin), tokens));
      const log = join(tmp, `strace-${execs++}.log`);
      const trace = useStrace
        ? ["strace", "-f", "--seccomp-bpf", "-qq", "-e", `trace=${TRACED_SYSCALLS.join(",")}`, "-o", log, "--"]
        : [];
      const started = performance.now();
      const proc = Bun.spawn(["ip", "netns", "exec", host, ...trace, join(opts.dir, plugin)], {
        env: filled,
        cwd: join(tmp, "cwd"),
        stdin: bytes,
        stdout: "pipe",
        stderr: "pipe",
      });
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        killTree(proc.pid);
      }, opts.timeoutMs);
      try {
        const [stdout, stderr] = await Promise.all([
          new Response(proc.stdout).text(),
          new Response(proc.stderr).text(),
          proc.exited,
        ]);
        const outcome: ExecOutcome = {
          command: env.CNI_COMMAND,
          exitCode: proc.signalCode === null ? proc.exitCode : null,
          signal: timedOut || proc.signalCode === null ? null : String(proc.signalCode),
          stdout,
          stderr,
          timedOut,
        };
        let writes: string[] = [];
        if (useStrace) {
          const text = await Bun.file(log)
            .text()
            .catch(() => "");
          writes = outsideAllowed(writtenPaths(text, join(tmp, "cwd")), allowed);
          rmSync(log, { force: true });
        }
        return { outcome, writes, ms: performance.now() - started };
      } finally {
        clearTimeout(timer);
      }
    },
    async snapshot(): Promise<Set<string>> {
      const proc = Bun.spawn(["ip", "netns", "exec", host, "sh", "-c", snapshotScript(container, legacy)], {
        env: { PATH },
        stdout: "pipe",
        stderr: "ignore",
      });
      const out = await new Response(proc.stdout).text();
      await proc.exited;
      return parseSnapshot(out);
    },
    reset(): void {
      tearDown();
      setUp();
    },
    destroy(): void {
      tearDown();
      rmSync(tmp, { recursive: true, force: true });
    },
  };
}
