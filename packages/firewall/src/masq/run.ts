/**
 * ipMasq on the Firewall port (SPEC H-3): choose the backend, apply the setup as one
 * transaction, and tear down on both backends, failing only for a backend that works
 * here (TeardownIPMasqForNetworks), so a DEL on a node without nft succeeds.
 */
import type { IPNet } from "@tscni/spec/ipnet";
import type { Firewall } from "../firewall.ts";
import { backendWorks, defaultBackend } from "../backend.ts";
import { MASQ_BACKENDS, planMasqSetup, planMasqTeardown, type MasqBackend } from "./plan.ts";

/** One attachment's identity in masquerade rules. */
export interface MasqAttachment {
  /** The network name (`name` of the config). */
  net: string;
  ifName: string;
  cid: string;
}

/**
 * Masquerades traffic from `ips`; returns the backend used, which a later rollback
 * passes to {@link undoMasq}. When the setup fails (one family's rules may have gone in
 * before another family failed), what it made is removed before the error is rethrown;
 * a failure of that cleanup goes to `warn`, never masking the original error.
 *
 * Unset, the backend is iptables unless only nftables works (H-3). We try iptables first
 * and ask what works only when that fails: the same choice, without the three probe
 * processes on every ADD of a node where iptables works.
 */
export async function setupMasq(
  fw: Firewall,
  configured: MasqBackend | undefined,
  ips: readonly IPNet[],
  a: MasqAttachment,
  warn: (msg: string) => void = () => {},
): Promise<MasqBackend> {
  const attempt = async (backend: MasqBackend): Promise<MasqBackend> => {
    try {
      await fw.apply(planMasqSetup(backend, ips, a.net, a.ifName, a.cid));
    } catch (err) {
      await undoMasq(fw, backend, ips, a).catch((e: unknown) =>
        warn(`rollback: ${e instanceof Error ? e.message : String(e)}`),
      );
      throw err;
    }
    return backend;
  };
  if (configured !== undefined) return attempt(configured);
  try {
    return await attempt("iptables");
  } catch (err) {
    if ((await defaultBackend(fw)) === "iptables") throw err;
    return attempt("nftables");
  }
}

/** Removes what {@link setupMasq} made on `backend` (rollback of a failed ADD). */
export async function undoMasq(
  fw: Firewall,
  backend: MasqBackend,
  ips: readonly IPNet[],
  a: MasqAttachment,
): Promise<void> {
  await fw.apply(planMasqTeardown(backend, ips, a.net, a.ifName, a.cid));
}

/**
 * Tears down on both backends: the attachment may have been made by another release or
 * with another `ipMasqBackend`. Both are started together (different tools, different
 * tables), so they overlap where the backend runs its tools asynchronously. A backend's failure counts only when that backend works here; the failures
 * are joined by newlines, iptables first, as the reference joins them.
 */
export async function teardownMasq(fw: Firewall, ips: readonly IPNet[], a: MasqAttachment): Promise<void> {
  const errors = await Promise.all(
    MASQ_BACKENDS.map(async (backend): Promise<string | undefined> => {
      try {
        await fw.apply(planMasqTeardown(backend, ips, a.net, a.ifName, a.cid));
        return undefined;
      } catch (err) {
        // Asked only after a failure: DEL's usual path pays for no probe.
        return (await backendWorks(fw, backend)) ? (err instanceof Error ? err.message : String(err)) : undefined;
      }
    }),
  );
  const failed = errors.filter((e): e is string => e !== undefined);
  if (failed.length > 0) throw new Error(failed.join("\n"));
}
