/**
 * The iptables half of the Linux firewall: per family, read the tables touched with
 * `iptables-save -t <table>`, write the difference with one `iptables-restore --noflush
 * --wait`, and take a committed family back when a later part of the transaction fails.
 * Another process may change a table between our read and our restore (kubelet runs ADDs
 * in parallel): the restore then fails whole (chains are made with `-N`, render-ipt.ts),
 * and when a new read differs from the old one we render again, up to three times.
 */
import { FirewallError, type IptChainState } from "../firewall.ts";
import type { Family, IptablesOp, IptTable } from "../ops.ts";
import { iptTablesOf, renderIptRestore } from "../render-ipt.ts";
import { renderIptUndo } from "../undo-ipt.ts";
import type { ToolExec } from "./exec.ts";
import { parseIptablesSave } from "./ipt-save.ts";
import { runOrThrow } from "./run.ts";
import type { FirewallTools } from "./support.ts";

/** What one family's committed restore needs for an undo: the tables as they were. */
export interface IptCommitted {
  family: Family;
  before: Map<IptTable, IptChainState[]>;
}

/** Reads and writes iptables through the save/restore tools. */
export interface IptBackend {
  /** The table's chains; throws FirewallError when the tool fails. */
  save(family: Family, table: IptTable): IptChainState[];
  /** Applies one family's operations; what an undo needs, or undefined when nothing changed. */
  applyFamily(ops: readonly IptablesOp[], family: Family): IptCommitted | undefined;
  /** Takes committed families back; best effort, errors are dropped (the caller's error matters). */
  undo(done: readonly IptCommitted[]): void;
  /** Offers a fresh read of the IPv4 nat table for the next `save` of it (see linux-firewall.ts). */
  prime(read: IptChainState[] | undefined): void;
}

// Long enough for a plugin's ADD to follow its support check, short enough that a daemon
// never diffs against an old read (a stale read could skip a rule someone deleted meanwhile).
const PRIMED_MS = 500;

/** The iptables backend over `exec` with the tools found. */
export function createIptBackend(exec: ToolExec, tools: FirewallTools): IptBackend {
  let primed: IptChainState[] | undefined;
  let primedAt = 0;
  const restoreTool = (family: Family): string | undefined => (family === 4 ? tools.iptablesRestore : tools.ip6tablesRestore);

  function save(family: Family, table: IptTable): IptChainState[] {
    if (family === 4 && table === "nat" && primed !== undefined) {
      const read = primed;
      primed = undefined;
      if (performance.now() - primedAt < PRIMED_MS) return read;
    }
    const tool = family === 4 ? tools.iptablesSave : tools.ip6tablesSave;
    if (tool === undefined) throw new FirewallError(`ip${family === 4 ? "" : "6"}tables-save not found`);
    return parseIptablesSave(runOrThrow(exec, [tool, "-t", table]), table);
  }

  function undo(done: readonly IptCommitted[]): void {
    for (const { family, before } of [...done].reverse()) {
      try {
        const blocks = [...before].flatMap(([table, was]) => {
          const body = renderIptUndo(was, save(family, table));
          return body.length === 0 ? [] : [`*${table}`, ...body, "COMMIT"];
        });
        const tool = restoreTool(family);
        if (blocks.length > 0 && tool !== undefined) runOrThrow(exec, [tool, "--noflush", "--wait"], `${blocks.join("\n")}\n`);
      } catch {
        // The original error is what the caller needs to see.
      }
    }
  }

  function applyFamily(ops: readonly IptablesOp[], family: Family): IptCommitted | undefined {
    const tables = iptTablesOf(ops, family);
    if (tables.length === 0) return undefined;
    const readAll = (): Map<IptTable, IptChainState[]> => new Map(tables.map((t) => [t, save(family, t)]));
    let before = readAll();
    for (let attempt = 1; ; attempt++) {
      const input = renderIptRestore(ops, family, (t) => before.get(t) ?? []);
      if (input === undefined) return undefined;
      const tool = restoreTool(family);
      if (tool === undefined) throw new FirewallError(`ip${family === 4 ? "" : "6"}tables-restore not found`);
      try {
        runOrThrow(exec, [tool, "--noflush", "--wait"], input);
        return { family, before };
      } catch (e) {
        const now = readAll();
        // Failing on an unchanged table is final; blocks of the family already committed go back.
        if (attempt >= 3 || Bun.deepEquals(now, before)) {
          undo([{ family, before }]);
          throw e;
        }
        before = now;
      }
    }
  }

  function prime(read: IptChainState[] | undefined): void {
    primed = read;
    primedAt = performance.now();
  }

  return { save, applyFamily, undo, prime };
}
