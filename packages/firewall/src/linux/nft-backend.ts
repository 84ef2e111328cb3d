/**
 * The nftables half of the Linux firewall: read a table with `nft -a -s list table` and
 * write a transaction's nft operations as one atomic `nft -f -`. A script that fails on
 * tables changed since the read (a rule deleted by handle is gone: a concurrent DEL) is
 * rendered again from a new read, up to three times; a failure on unchanged tables is final.
 */
import { FirewallError, type NftChainState } from "../firewall.ts";
import type { NftFamily, NftOp } from "../ops.ts";
import { nftTablesOf, renderNftScript } from "../render-nft.ts";
import type { ToolExec } from "./exec.ts";
import { parseNftList } from "./nft-list.ts";
import { runOrThrow } from "./run.ts";

/** Reads and writes nftables through the `nft` tool at `nft`. */
export interface NftBackend {
  /** The table's chains, or undefined when it does not exist. */
  list(family: NftFamily, table: string): Promise<NftChainState[] | undefined>;
  /** Applies the operations as one `nft -f -` (nothing when nothing changes). */
  apply(ops: readonly NftOp[]): Promise<void>;
  /** SupportsNFTables answered by this transport itself (nfnetlink); unset: run `nft --check`. */
  supports?(): boolean;
}

/** Every table `ops` touch, read one after another through `list`, keyed `"<family> <table>"`. */
export async function readNftTables(
  ops: readonly NftOp[],
  list: NftBackend["list"],
): Promise<Map<string, NftChainState[] | undefined>> {
  const read = new Map<string, NftChainState[] | undefined>();
  for (const { family, table } of nftTablesOf(ops)) read.set(`${family} ${table}`, await list(family, table));
  return read;
}

/** The nftables backend over `exec`; `nft` undefined means the tool is missing. */
export function createNftBackend(exec: ToolExec, nft: string | undefined): NftBackend {
  async function list(family: NftFamily, table: string): Promise<NftChainState[] | undefined> {
    if (nft === undefined) throw new FirewallError("nft not found");
    const r = await exec([nft, "-a", "-s", "list", "table", family, table]);
    if (r.exitCode === 0) return parseNftList(r.stdout);
    if (/No such file or directory/.test(r.stderr)) return undefined;
    throw new FirewallError(`nft list table ${family} ${table}: ${r.stderr.trim()}`);
  }

  async function apply(ops: readonly NftOp[]): Promise<void> {
    const readAll = () => readNftTables(ops, list);
    let reads = await readAll();
    for (let attempt = 1; ; attempt++) {
      const script = renderNftScript(ops, (f, t) => reads.get(`${f} ${t}`));
      if (script === undefined) return;
      try {
        await runOrThrow(exec, [nft as string, "-f", "-"], script);
        return;
      } catch (e) {
        const now = await readAll();
        if (attempt >= 3 || Bun.deepEquals(now, reads)) throw e;
        reads = now;
      }
    }
  }

  return { list, apply };
}
