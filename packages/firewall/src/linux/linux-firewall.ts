/**
 * The real {@link Firewall}: iptables through one `iptables-restore --noflush --wait` per
 * family touched (iptables-nft and iptables-legacy alike, ipt-backend.ts), nftables
 * through one atomic `nft -f -` (nft-backend.ts) or nfnetlink (nfnl/). The tools run as
 * children the caller does not block on: a plugin starts a transaction and does its
 * kernel work while the restore runs (bridge and ptp ADD and DEL). Each reads the tables it touches first
 * and writes only the difference, except where iptables can guess without a read: an ADD
 * of a container's new chain (render-ipt-fresh.ts) and a DEL of what ADD made
 * (render-ipt-optimistic.ts), each one restore that fails whole when the guess is wrong. Families are applied 4, 6, then nft; when a later one
 * fails, the ones already committed are taken back, so a failed transaction leaves
 * nothing behind.
 */
import type { NsRunner } from "@tscni/kernel/linux";
import { type Firewall, type FirewallBackend, FirewallError } from "../firewall.ts";
import { type Family, type FirewallTx, type IptTable, isIptablesOp, type NftFamily, type NftOp } from "../ops.ts";
import { execIn, findTool, spawnTool, type ToolExec } from "./exec.ts";
import { createIptBackend, type IptCommitted } from "./ipt-backend.ts";
import { iptablesChainCheckWorks } from "./ipt-support.ts";
import { createFirewallLock, type FirewallLock } from "./lock.ts";
import { createNftBackend, type NftBackend } from "./nft-backend.ts";
import { type FirewallTools, hasIptablesTools, supportsNftables } from "./support.ts";

/** Where the real firewall runs and which tools it uses. */
export interface LinuxFirewallOptions {
  /** A namespace path to work in (tests); the process's own namespace when unset. */
  netns?: string;
  /** The runner for `netns`; a setns runner is made on first use when unset. */
  runner?: NsRunner;
  /** A PATH-style list searched first for the tools (e.g. a directory of -legacy links). */
  path?: string;
  /** Wraps how tools run (tests use it to act between a read and a write). */
  wrapExec?: (exec: ToolExec) => ToolExec;
  /**
   * The cross-process lock held around each transaction's read -> write (lock.ts); a
   * lock on `TSCNI_FIREWALL_LOCK` or /run/tscni/firewall.lock when unset. `false` runs
   * without one: only the test that shows the lost updates a lock prevents uses it.
   */
  lock?: FirewallLock | false;
  /**
   * How nftables is read and written: `nfnetlink` (in process, nfnl/, the default when
   * its socket opens) or `nft` (the tool). Unset: `TSCNI_NFT_TRANSPORT`, else nfnetlink.
   */
  nftTransport?: "nfnetlink" | "nft";
  /** Called after each nfnetlink table read (tests use it to widen the read -> write window). */
  afterNftRead?: () => void;
}

/** Creates the real firewall; nothing runs until a method is called. */
export async function createLinuxFirewall(options: LinuxFirewallOptions = {}): Promise<Firewall> {
  let exec: ToolExec = spawnTool;
  if (options.netns !== undefined) {
    const runner = options.runner ?? (await (await import("@tscni/kernel/linux")).createSetnsRunner());
    exec = execIn(runner, options.netns);
  }
  if (options.wrapExec !== undefined) exec = options.wrapExec(exec);
  const p = options.path;
  const tools: FirewallTools = {
    iptables: findTool("iptables", p),
    iptablesSave: findTool("iptables-save", p),
    iptablesRestore: findTool("iptables-restore", p),
    ip6tablesSave: findTool("ip6tables-save", p),
    ip6tablesRestore: findTool("ip6tables-restore", p),
    nft: findTool("nft", p),
  };
  const ipt = createIptBackend(exec, tools);
  const cliNft = createNftBackend(exec, tools.nft);
  const transport = options.nftTransport ?? (process.env.TSCNI_NFT_TRANSPORT === "nft" ? "nft" : "nfnetlink");
  let nfnl: Promise<NftBackend> | undefined;
  /** The nftables transport; nfnetlink is loaded on first use, `nft` when its socket will not open. */
  function nftBackend(): Promise<NftBackend> {
    if (transport === "nft") return Promise.resolve(cliNft);
    nfnl ??= import("./nfnl/backend.ts")
      .then((m) => m.createNfnlBackend(options.netns, cliNft, options.afterNftRead))
      .catch(() => cliNft);
    return nfnl;
  }
  const works = new Map<FirewallBackend, boolean>();
  const lock = options.lock === false ? undefined : (options.lock ?? createFirewallLock());

  /** Whether one backend works, checked once per firewall. */
  async function supports(backend: FirewallBackend): Promise<boolean> {
    let ok = works.get(backend);
    if (ok === undefined) {
      if (backend === "nftables") {
        // Over nfnetlink the kernel is asked in process (nfnl/support.ts); `nft` only without it.
        const nft = await nftBackend();
        ok = nft.supports?.() ?? (await supportsNftables(tools, exec));
      } else {
        // SupportsIPTables: whether iptables can check that filter's INPUT exists, as
        // go-iptables' ChainExists asks it; in process for iptables-nft (ipt-support.ts).
        ok = hasIptablesTools(tools) && (await iptablesChainCheckWorks(tools.iptables as string, options.netns, exec));
      }
      works.set(backend, ok);
    }
    return ok;
  }

  /** IPv4, IPv6, then nft; committed families are undone when a later part fails. */
  async function applyAll(tx: FirewallTx, nft: NftBackend): Promise<void> {
    const iptOps = tx.filter(isIptablesOp);
    const nftOps = tx.filter((op): op is NftOp => !isIptablesOp(op));
    const done: IptCommitted[] = [];
    try {
      for (const family of [4, 6] as const) {
        const c = await ipt.applyFamily(iptOps, family);
        if (c !== undefined) done.push(c);
      }
      if (nftOps.length > 0) await nft.apply(nftOps);
    } catch (e) {
      await ipt.undo(done);
      throw e instanceof FirewallError ? e : new FirewallError(e instanceof Error ? e.message : String(e));
    }
  }

  return {
    async support() {
      return { iptables: await supports("iptables"), nftables: await supports("nftables") };
    },

    supports,

    async apply(tx: FirewallTx) {
      const nft = tx.some((op) => !isIptablesOp(op)) ? await nftBackend() : cliNft;
      await (lock === undefined ? applyAll(tx, nft) : lock.hold(() => applyAll(tx, nft)));
    },

    async iptables(family: Family, table: IptTable) {
      try {
        return await ipt.save(family, table);
      } catch {
        return undefined;
      }
    },

    async nftTable(family: NftFamily, table: string) {
      // Without nft no nftables table can be there to find (DEL tries both backends, H-3).
      if (transport === "nft" && tools.nft === undefined) return undefined;
      return (await nftBackend()).list(family, table);
    },
  };
}
