/**
 * The nftables backend over nfnetlink, in process (no `nft` run): reads a table with
 * three requests on one socket (reader.ts) and writes a transaction as one acked batch
 * (batch.ts) that the kernel applies all or nothing. It renders the same difference as
 * the `nft -f -` transport (renderNftScript over the same read) and sends that script's
 * messages. A rule it cannot compile or print goes to `fallback` (the `nft` transport)
 * for that transaction or table, so nothing nft accepts is refused here. As the nft
 * transport, a batch refused on a table that changed since the read (a concurrent DEL)
 * is rendered again from a new read, up to three times.
 */
import { FirewallError, type NftChainState } from "../../firewall.ts";
import type { NftFamily, NftOp } from "../../ops.ts";
import { renderNftScript } from "../../render-nft.ts";
import { readNftTables, type NftBackend } from "../nft-backend.ts";
import { scriptMessages } from "./batch.ts";
import { Unsupported } from "./compile.ts";
import { readTable } from "./reader.ts";
import { NfnlSocket } from "./socket.ts";
import { nfnlSupportsNftables } from "./support.ts";

/** Opens the socket (in `ns` when given) and returns the backend; `afterRead` is a test hook. */
export async function createNfnlBackend(
  ns: string | undefined,
  fallback: NftBackend,
  afterRead?: () => void,
): Promise<NftBackend> {
  const s = await NfnlSocket.open(ns);
  // nft's own words would be "Error: Could not process rule: <strerror>"; ours name the transport.
  const refused = (e: unknown): FirewallError =>
    new FirewallError(`nft transaction over nfnetlink: ${e instanceof Error ? e.message : String(e)}`);

  // The socket's requests are synchronous; only the `nft` fallback runs a child.
  async function list(family: NftFamily, table: string): Promise<NftChainState[] | undefined> {
    try {
      const read = readTable(s, family, table);
      afterRead?.();
      return read;
    } catch (e) {
      if (e instanceof Unsupported) return fallback.list(family, table);
      throw refused(e);
    }
  }

  async function apply(ops: readonly NftOp[]): Promise<void> {
    const readAll = () => readNftTables(ops, list);
    let reads = await readAll();
    for (let attempt = 1; ; attempt++) {
      const script = renderNftScript(ops, (f, t) => reads.get(`${f} ${t}`));
      if (script === undefined) return;
      let msgs: ReturnType<typeof scriptMessages>;
      try {
        msgs = scriptMessages(script);
      } catch (e) {
        if (e instanceof Unsupported) return fallback.apply(ops);
        throw e;
      }
      try {
        s.batch(msgs);
        return;
      } catch (e) {
        const now = await readAll();
        if (attempt >= 3 || Bun.deepEquals(now, reads)) throw e instanceof FirewallError ? e : refused(e);
        reads = now;
      }
    }
  }

  return { list, apply, supports: () => nfnlSupportsNftables(s) };
}
