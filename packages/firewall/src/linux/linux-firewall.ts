/**
 * The real {@link Firewall}: iptables through one `iptables-restore --noflush --wait` per
 * family touched (iptables-nft and iptables-legacy alike), nftables through one atomic
 * `nft -f -`. Each reads the tables it touches first and writes only the difference
 * (render-ipt.ts, render-nft.ts). Families are applied 4, 6, then nft; when a later one
 * fails, the ones already committed are taken back (undo-ipt.ts), so a failed transaction
 * leaves nothing behind.
 */
import type { NsRunner } from "@tscni/kernel/linux";
import { type Firewall, type FirewallBackend, FirewallError, type IptChainState, type NftChainState } from "../firewall.ts";
import { type Family, type FirewallTx, type IptablesOp, type IptTable, isIptablesOp, type NftFamily, type NftOp } from "../ops.ts";
import { iptTablesOf, renderIptRestore } from "../render-ipt.ts";
import { nftTablesOf, renderNftScript } from "../render-nft.ts";
import { renderIptUndo } from "../undo-ipt.ts";
import { execIn, findTool, spawnTool, type ToolExec } from "./exec.ts";
import { parseIptablesSave } from "./ipt-save.ts";
import { parseNftList } from "./nft-list.ts";
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
}

/** What one family's committed restore needs for an undo. */
interface Committed {
  family: Family;
  before: Map<IptTable, IptChainState[]>;
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
  const works = new Map<FirewallBackend, boolean>();
  // The IPv4 nat table as read by the iptables support check, kept for the next read only:
  // a plugin checks support right before its ADD, so the check doubles as that read.
  let primedNat: IptChainState[] | undefined;
  let primedAt = 0;
  // Long enough for a plugin's ADD to follow its check, short enough that a daemon never
  // diffs against an old read (a stale read could skip a rule someone deleted meanwhile).
  const PRIMED_MS = 500;

  function run(argv: readonly string[], stdin?: string): string {
    const r = exec(argv, stdin);
    if (r.exitCode !== 0) throw new FirewallError(`${argv.join(" ")}: ${(r.stderr || r.stdout).trim()}`);
    return r.stdout;
  }

  function saveTable(family: Family, table: IptTable): IptChainState[] {
    if (family === 4 && table === "nat" && primedNat !== undefined) {
      const read = primedNat;
      primedNat = undefined;
      if (performance.now() - primedAt < PRIMED_MS) return read;
    }
    const save = family === 4 ? tools.iptablesSave : tools.ip6tablesSave;
    if (save === undefined) throw new FirewallError(`ip${family === 4 ? "" : "6"}tables-save not found`);
    return parseIptablesSave(run([save, "-t", table]), table);
  }

  function listNft(family: NftFamily, table: string): NftChainState[] | undefined {
    if (tools.nft === undefined) throw new FirewallError("nft not found");
    const r = exec([tools.nft, "-a", "-s", "list", "table", family, table]);
    if (r.exitCode === 0) return parseNftList(r.stdout);
    if (/No such file or directory/.test(r.stderr)) return undefined;
    throw new FirewallError(`nft list table ${family} ${table}: ${r.stderr.trim()}`);
  }

  /**
   * Reads, renders and restores one family; returns what an undo needs, or undefined when
   * nothing changed. Another process may change a table between our read and our restore
   * (kubelet runs ADDs in parallel): the restore then fails whole, and when a new read
   * differs from the old one we render again, up to three times. A failure on an unchanged
   * table is final; tables of the family already committed are taken back.
   */
  function applyFamily(ops: readonly IptablesOp[], family: Family): Committed | undefined {
    const tables = iptTablesOf(ops, family);
    if (tables.length === 0) return undefined;
    const restore = family === 4 ? tools.iptablesRestore : tools.ip6tablesRestore;
    const readAll = (): Map<IptTable, IptChainState[]> => new Map(tables.map((t) => [t, saveTable(family, t)]));
    let before = readAll();
    for (let attempt = 1; ; attempt++) {
      const input = renderIptRestore(ops, family, (t) => before.get(t) ?? []);
      if (input === undefined) return undefined;
      if (restore === undefined) throw new FirewallError(`ip${family === 4 ? "" : "6"}tables-restore not found`);
      try {
        run([restore, "--noflush", "--wait"], input);
        return { family, before };
      } catch (e) {
        const now = readAll();
        if (attempt >= 3 || Bun.deepEquals(now, before)) {
          undo([{ family, before }]);
          throw e;
        }
        before = now;
      }
    }
  }

  /** Takes committed families back to what they were; best effort, errors are dropped. */
  function undo(done: readonly Committed[]): void {
    for (const { family, before } of [...done].reverse()) {
      try {
        const blocks = [...before].flatMap(([table, was]) => {
          const body = renderIptUndo(was, saveTable(family, table));
          return body.length === 0 ? [] : [`*${table}`, ...body, "COMMIT"];
        });
        const restore = family === 4 ? tools.iptablesRestore : tools.ip6tablesRestore;
        if (blocks.length > 0 && restore !== undefined) run([restore, "--noflush", "--wait"], `${blocks.join("\n")}\n`);
      } catch {
        // The original error is what the caller needs to see.
      }
    }
  }

  /** Applies a transaction: IPv4, IPv6, then nft; undoes committed families when a later part fails. */
  async function applyAll(tx: FirewallTx): Promise<void> {
    const ipt = tx.filter(isIptablesOp);
    const nft = tx.filter((op): op is NftOp => !isIptablesOp(op));
    const done: Committed[] = [];
    try {
      for (const family of [4, 6] as const) {
        const c = applyFamily(ipt, family);
        if (c !== undefined) done.push(c);
      }
      if (nft.length > 0) {
        const reads = new Map(nftTablesOf(nft).map(({ family, table }) => [`${family} ${table}`, listNft(family, table)]));
        const script = renderNftScript(nft, (f, t) => reads.get(`${f} ${t}`));
        if (script !== undefined) run([tools.nft as string, "-f", "-"], script);
      }
    } catch (e) {
      undo(done);
      throw e instanceof FirewallError ? e : new FirewallError(e instanceof Error ? e.message : String(e));
    }
  }

  /** Whether one backend works, checked once per firewall. */
  async function supports(backend: FirewallBackend): Promise<boolean> {
    let ok = works.get(backend);
    if (ok === undefined) {
      if (backend === "nftables") ok = supportsNftables(tools, exec);
      else {
        // SupportsIPTables asks iptables about a chain; `iptables-save -t nat` answers the
        // same question (the tool runs and may read netfilter) and is the read ADD needs next.
        const r = hasIptablesTools(tools) ? exec([tools.iptablesSave as string, "-t", "nat"]) : undefined;
        ok = r?.exitCode === 0;
        if (r !== undefined && ok) {
          primedNat = parseIptablesSave(r.stdout, "nat");
          primedAt = performance.now();
        }
      }
      works.set(backend, ok);
    }
    return ok;
  }

  return {
    async support() {
      return { iptables: await supports("iptables"), nftables: await supports("nftables") };
    },

    supports,

    async apply(tx: FirewallTx) {
      try {
        await applyAll(tx);
      } finally {
        // A read primed before this apply would be stale after it.
        primedNat = undefined;
      }
    },

    async iptables(family: Family, table: IptTable) {
      try {
        return saveTable(family, table);
      } catch {
        return undefined;
      }
    },

    async nftTable(family: NftFamily, table: string) {
      // Without nft no nftables table can be there to find (DEL tries both backends, H-3).
      return tools.nft === undefined ? undefined : listNft(family, table);
    },
  };
}
