/**
 * The real {@link Firewall}: iptables through one `iptables-restore --noflush --wait` per
 * family touched (iptables-nft and iptables-legacy alike), nftables through one atomic
 * `nft -f -`. Each reads the tables it touches first and writes only the difference
 * (render-ipt.ts, render-nft.ts). Families are applied 4, 6, then nft; when a later one
 * fails, the ones already committed are taken back (undo-ipt.ts), so a failed transaction
 * leaves nothing behind.
 */
import type { NsRunner } from "@tscni/kernel/linux";
import { type Firewall, FirewallError, type FirewallSupport, type IptChainState, type NftChainState } from "../firewall.ts";
import { type Family, type FirewallTx, type IptablesOp, type IptTable, isIptablesOp, type NftFamily, type NftOp } from "../ops.ts";
import { iptTablesOf, renderIptRestore } from "../render-ipt.ts";
import { nftTablesOf, renderNftScript } from "../render-nft.ts";
import { renderIptUndo } from "../undo-ipt.ts";
import { execIn, findTool, spawnTool, type ToolExec } from "./exec.ts";
import { parseIptablesSave } from "./ipt-save.ts";
import { parseNftList } from "./nft-list.ts";
import { detectSupport, type FirewallTools } from "./support.ts";

/** Where the real firewall runs and which tools it uses. */
export interface LinuxFirewallOptions {
  /** A namespace path to work in (tests); the process's own namespace when unset. */
  netns?: string;
  /** The runner for `netns`; a setns runner is made on first use when unset. */
  runner?: NsRunner;
  /** A PATH-style list searched first for the tools (e.g. a directory of -legacy links). */
  path?: string;
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
  const p = options.path;
  const tools: FirewallTools = {
    iptables: findTool("iptables", p),
    iptablesSave: findTool("iptables-save", p),
    iptablesRestore: findTool("iptables-restore", p),
    ip6tablesSave: findTool("ip6tables-save", p),
    ip6tablesRestore: findTool("ip6tables-restore", p),
    nft: findTool("nft", p),
  };
  let support: FirewallSupport | undefined;

  function run(argv: readonly string[], stdin?: string): string {
    const r = exec(argv, stdin);
    if (r.exitCode !== 0) throw new FirewallError(`${argv.join(" ")}: ${(r.stderr || r.stdout).trim()}`);
    return r.stdout;
  }

  function saveTable(family: Family, table: IptTable): IptChainState[] {
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

  /** Reads, renders and restores one family; returns what an undo needs, or undefined when nothing changed. */
  function applyFamily(ops: readonly IptablesOp[], family: Family): Committed | undefined {
    const tables = iptTablesOf(ops, family);
    if (tables.length === 0) return undefined;
    const before = new Map(tables.map((t) => [t, saveTable(family, t)]));
    const input = renderIptRestore(ops, family, (t) => before.get(t) ?? []);
    if (input === undefined) return undefined;
    const restore = family === 4 ? tools.iptablesRestore : tools.ip6tablesRestore;
    if (restore === undefined) throw new FirewallError(`ip${family === 4 ? "" : "6"}tables-restore not found`);
    run([restore, "--noflush", "--wait"], input);
    return { family, before };
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

  return {
    async support() {
      support ??= detectSupport(tools, exec);
      return { ...support };
    },

    async apply(tx: FirewallTx) {
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
