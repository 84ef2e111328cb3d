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
import { renderIptFresh } from "../render-ipt-fresh.ts";
import { renderIptOptimistic } from "../render-ipt-optimistic.ts";
import { renderIptUndo } from "../undo-ipt.ts";
import type { ToolExec } from "./exec.ts";
import { parseIptablesSave } from "./ipt-save.ts";
import { runOrThrow } from "./run.ts";
import type { FirewallTools } from "./support.ts";

/**
 * What one family's committed restore needs for an undo: the tables as they were, or for
 * a read-free write (render-ipt-fresh.ts) the restore input that takes it back. A
 * read-free DEL (render-ipt-optimistic.ts) has `""`: what it flushed was never read, and
 * a DEL is best-effort (DEL-3), so a later family's failure does not bring it back.
 */
export type IptCommitted =
  | { family: Family; before: Map<IptTable, IptChainState[]> }
  | { family: Family; undoInput: string };

/** Reads and writes iptables through the save/restore tools. */
export interface IptBackend {
  /** The table's chains; rejects with FirewallError when the tool fails. */
  save(family: Family, table: IptTable): Promise<IptChainState[]>;
  /** Applies one family's operations; what an undo needs, or undefined when nothing changed. */
  applyFamily(ops: readonly IptablesOp[], family: Family): Promise<IptCommitted | undefined>;
  /** Takes committed families back; best effort, errors are dropped (the caller's error matters). */
  undo(done: readonly IptCommitted[]): Promise<void>;
}

/** The iptables backend over `exec` with the tools found. */
export function createIptBackend(exec: ToolExec, tools: FirewallTools): IptBackend {
  const restoreTool = (family: Family): string | undefined =>
    family === 4 ? tools.iptablesRestore : tools.ip6tablesRestore;

  async function save(family: Family, table: IptTable): Promise<IptChainState[]> {
    const tool = family === 4 ? tools.iptablesSave : tools.ip6tablesSave;
    if (tool === undefined) throw new FirewallError(`ip${family === 4 ? "" : "6"}tables-save not found`);
    return parseIptablesSave(await runOrThrow(exec, [tool, "-t", table]), table);
  }

  async function undo(done: readonly IptCommitted[]): Promise<void> {
    for (const c of [...done].reverse()) {
      const { family } = c;
      try {
        const tool = restoreTool(family);
        if ("undoInput" in c) {
          if (tool !== undefined && c.undoInput !== "")
            await runOrThrow(exec, [tool, "--noflush", "--wait"], c.undoInput);
          continue;
        }
        const { before } = c;
        const blocks: string[] = [];
        for (const [table, was] of before) {
          const body = renderIptUndo(was, await save(family, table));
          if (body.length > 0) blocks.push(`*${table}`, ...body, "COMMIT");
        }
        if (blocks.length > 0 && tool !== undefined)
          await runOrThrow(exec, [tool, "--noflush", "--wait"], `${blocks.join("\n")}\n`);
      } catch {
        // The original error is what the caller needs to see.
      }
    }
  }

  async function applyFamily(ops: readonly IptablesOp[], family: Family): Promise<IptCommitted | undefined> {
    const tables = iptTablesOf(ops, family);
    if (tables.length === 0) return undefined;
    const freshTool = restoreTool(family);
    // A DEL of what the attachment's ADD made needs no read either: one restore of the
    // guessed deletions; any wrong guess fails it whole, and we read as below.
    const guess = renderIptOptimistic(ops, family);
    if (
      guess !== undefined &&
      freshTool !== undefined &&
      (await exec([freshTool, "--noflush", "--wait"], guess)).exitCode === 0
    ) {
      return { family, undoInput: "" };
    }
    // An ADD whose own chains are new needs no read: one restore, whatever the table holds.
    const fresh = renderIptFresh(ops, family);
    if (
      fresh !== undefined &&
      freshTool !== undefined &&
      (await exec([freshTool, "--noflush", "--wait"], fresh.input)).exitCode === 0
    ) {
      return { family, undoInput: fresh.undo };
    }
    const readAll = async (): Promise<Map<IptTable, IptChainState[]>> => {
      const read = new Map<IptTable, IptChainState[]>();
      for (const t of tables) read.set(t, await save(family, t));
      return read;
    };
    let before = await readAll();
    for (let attempt = 1; ; attempt++) {
      const input = renderIptRestore(ops, family, (t) => before.get(t) ?? []);
      if (input === undefined) return undefined;
      const tool = restoreTool(family);
      if (tool === undefined) throw new FirewallError(`ip${family === 4 ? "" : "6"}tables-restore not found`);
      try {
        await runOrThrow(exec, [tool, "--noflush", "--wait"], input);
        return { family, before };
      } catch (e) {
        const now = await readAll();
        // Failing on an unchanged table is final; blocks of the family already committed go back.
        if (attempt >= 3 || Bun.deepEquals(now, before)) {
          await undo([{ family, before }]);
          throw e;
        }
        before = now;
      }
    }
  }

  return { save, applyFamily, undo };
}
