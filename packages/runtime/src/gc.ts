/**
 * GC over a list (§7.7, GC-6, GC-9): DEL every cached attachment of the network that is not
 * in the valid set, then, at 1.1.0 and later, GC on every plugin in order; errors are
 * collected and returned together.
 */
import { execPluginWithoutResult } from "@tscni/invoke";
import { CniError, versionAtLeast } from "@tscni/spec";
import type { NetworkConfigList } from "@tscni/config";
import { cachedAttachments } from "./attachments.ts";
import { cniArgs, invokeOptions } from "./context.ts";
import type { RuntimeContext } from "./context.ts";
import { delNetworkList } from "./del.ts";
import { buildGCRequest } from "./request.ts";
import { serialised } from "./serialise.ts";
import type { GCArgs, NetworkAttachment } from "./runtime-conf.ts";

const key = (containerID: string, ifName: string): string => JSON.stringify([containerID, ifName]);

async function listOrNothing(ctx: RuntimeContext): Promise<NetworkAttachment[] | undefined> {
  try {
    return await cachedAttachments(ctx.cache);
  } catch {
    return undefined;
  }
}

/** Collects stale attachments and plugin resources of `list`; `args` undefined means nothing is valid. */
export async function gcNetworkList(
  ctx: RuntimeContext,
  list: NetworkConfigList,
  args: GCArgs | undefined,
): Promise<void> {
  if (list.disableGC) return;
  // A cache that cannot be listed makes GC a silent no-op, as in libcni (§7.7 step 2).
  const attachments = await listOrNothing(ctx);
  if (attachments === undefined) return;
  const valid = new Set((args?.validAttachments ?? []).map((a) => key(a.containerID, a.ifname)));
  const errors: CniError[] = [];
  const collect = (prefix: string, err: unknown): void => {
    const inner = CniError.from(err);
    errors.push(new CniError(inner.code, `${prefix}: ${inner.toString()}`));
  };

  for (const a of attachments) {
    if (a.network !== list.name || valid.has(key(a.containerID, a.ifName))) continue;
    // The current list, with the cached netns, CNI args and capability args (§7.7 step 3).
    const rt = {
      containerID: a.containerID,
      netns: a.netns,
      ifName: a.ifName,
      ...(a.cniArgs !== undefined ? { args: a.cniArgs } : {}),
      ...(a.capabilityArgs !== undefined ? { capabilityArgs: a.capabilityArgs } : {}),
    };
    try {
      await serialised(ctx, list.name, rt, () => delNetworkList(ctx, list, rt));
    } catch (err) {
      collect(`failed to delete stale attachment ${a.containerID} ${a.ifName}`, err);
    }
  }

  if (versionAtLeast(list.cniVersion, "1.1.0")) {
    for (const plugin of list.plugins) {
      try {
        const request = buildGCRequest(list.name, list.cniVersion, plugin, args);
        const path = await ctx.exec.findInPath(plugin.network.type, ctx.paths);
        await execPluginWithoutResult(path, request.bytes, cniArgs(ctx, "GC", undefined), invokeOptions(ctx));
      } catch (err) {
        // Keep going after a plugin error (GC-3, GC-6).
        collect(`failed to GC plugin ${plugin.network.type}`, err);
      }
    }
  }

  const first = errors[0];
  if (first === undefined) return;
  // Go's errors.Join: one message per line; the first error's code stands for all.
  throw new CniError(first.code, errors.map((e) => e.msg).join("\n"));
}
