/**
 * host-local's GC and STATUS (SPEC.md §1.5, §1.7, §8.3), both from spec 1.1.0: a plugin
 * whose VERSION reply lacks 1.1.0 (the reference stops at 1.0.0) skips them. GC is judged
 * through the data directory; STATUS code 50 on a full range is a tscni extension, since
 * the spec only reserves the code (ST-2) and a plugin without a handler says ready (ST-7).
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { check, expectError, expectResult, expectSilentSuccess, show } from "../judge.ts";
import { Skip } from "../types.ts";
import type { CaseContext, ConformanceCase, Outcome } from "../types.ts";
import { pickVersion } from "./versions.ts";

const NET = "tscni-conformance-hl-gc";
/** GC and STATUS carry no attachment parameters (GC-6, ST-5). */
const NO_ATTACHMENT = { CNI_CONTAINERID: "", CNI_NETNS: "", CNI_IFNAME: "" };

interface Attachment {
  containerID: string;
  ifname: string;
}

function config(ctx: CaseContext, subnet: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    cniVersion: "1.1.0",
    name: NET,
    type: "bridge",
    ipam: { type: "host-local", ranges: [[{ subnet }]], dataDir: ctx.tmp },
    ...extra,
  };
}

const store = (ctx: CaseContext, file: string) => join(ctx.tmp, NET, file);

/** ADDs (cid, eth0) at 1.1.0 and returns the reserved IP (no prefix). */
async function add(ctx: CaseContext, cid: string, subnet: string): Promise<string> {
  const r = expectResult(
    await ctx.call("ADD", { env: { CNI_CONTAINERID: cid, CNI_IFNAME: "eth0" }, stdin: config(ctx, subnet) }),
  );
  const address = (r.ips as { address?: string }[] | undefined)?.[0]?.address;
  check(typeof address === "string", `the result has no ips[0].address: ${JSON.stringify(r)}`);
  return address.split("/")[0] ?? "";
}

/** Skips unless the plugin speaks 1.1.0, where GC and STATUS exist (GC-10, ST-6). */
async function need110(ctx: CaseContext): Promise<void> {
  await pickVersion(ctx, ["1.1.0"]);
}

function gc(ctx: CaseContext, subnet: string, keys: Record<string, Attachment[]>): Promise<Outcome> {
  return ctx.call("GC", { env: NO_ATTACHMENT, stdin: config(ctx, subnet, keys) });
}

function status(ctx: CaseContext, subnet: string, dataDir = ctx.tmp): Promise<Outcome> {
  const conf = config(ctx, subnet);
  return ctx.call("STATUS", { env: NO_ATTACHMENT, stdin: { ...conf, ipam: { ...(conf.ipam as object), dataDir } } });
}

/** Code 50 for a plugin that checks readiness; a plugin that says ready (ST-7) skips the case. */
function expectNotReady(out: Outcome, what: string): void {
  if (out.exitCode === 0) {
    check(out.stdout.trim() === "", `a ready STATUS prints nothing, got ${show(out)}`);
    throw new Skip(
      `the plugin reports ready ${what}, as one without a STATUS check does (ST-7); code 50 there is a tscni extension`,
    );
  }
  expectError(out, 50);
}

/** The bookkeeping files GC must leave as they were (§8.3). */
function bookkeeping(ctx: CaseContext): string {
  const read = (f: string) =>
    existsSync(store(ctx, f)) ? JSON.stringify(readFileSync(store(ctx, f), "utf8")) : "missing";
  return `lock ${read("lock")}, last_reserved_ip.0 ${read("last_reserved_ip.0")}`;
}

/** Two attachments ADDed, GC sent with `keys` naming only the first: the second's IP goes. */
async function judgeGc(
  ctx: CaseContext,
  subnet: string,
  keysFor: (valid: Attachment[]) => Record<string, Attachment[]>,
): Promise<void> {
  await need110(ctx);
  const kept = await add(ctx, "ctr-valid", subnet);
  const stale = await add(ctx, "ctr-stale", subnet);
  const before = bookkeeping(ctx);
  check(!before.includes("missing"), `ADD left no lock or last_reserved_ip.0: ${before}`);
  expectSilentSuccess(await gc(ctx, subnet, keysFor([{ containerID: "ctr-valid", ifname: "eth0" }])));
  check(existsSync(store(ctx, kept)), `GC released ${kept}, held by the valid attachment ctr-valid/eth0`);
  check(!existsSync(store(ctx, stale)), `GC kept ${stale}, held by ctr-stale/eth0 outside the valid attachments`);
  check(
    bookkeeping(ctx) === before,
    `GC must not touch the lock or last_reserved_ip.0: before ${before}, after ${bookkeeping(ctx)}`,
  );
}

/** The host-local GC and STATUS cases. */
export const HOST_LOCAL_MAINTENANCE_CASES: readonly ConformanceCase[] = [
  {
    id: "hl.gc",
    rule: "GC-1 GC-2 GC-7 §8.3",
    plugin: "host-local",
    run: (ctx) => judgeGc(ctx, "198.18.42.0/24", (valid) => ({ "cni.dev/valid-attachments": valid })),
  },
  {
    // libcni sends the misnamed key too, with the same content; the spec key alone must
    // suffice (above), so a plugin need not understand `cni.dev/attachments` on its own.
    id: "hl.gc-libcni-keys",
    rule: "GC-9",
    plugin: "host-local",
    run: (ctx) =>
      judgeGc(ctx, "198.18.42.0/24", (valid) => ({ "cni.dev/valid-attachments": valid, "cni.dev/attachments": valid })),
  },
  {
    id: "hl.gc-legacy",
    rule: "GC-1 §8.3 legacy",
    plugin: "host-local",
    run: async (ctx) => {
      const subnet = "198.18.43.0/24";
      await need110(ctx);
      const current = await add(ctx, "ctr-current", subnet);
      // Reservations written by old host-local versions hold only the container ID.
      writeFileSync(store(ctx, "198.18.43.50"), "ctr-legacy", { mode: 0o600 });
      writeFileSync(store(ctx, "198.18.43.51"), "ctr-gone", { mode: 0o600 });
      const valid = [
        { containerID: "ctr-current", ifname: "eth0" },
        { containerID: "ctr-legacy", ifname: "net9" },
      ];
      expectSilentSuccess(await gc(ctx, subnet, { "cni.dev/valid-attachments": valid }));
      check(existsSync(store(ctx, current)), `GC released ${current}, held by the valid ctr-current/eth0`);
      check(
        existsSync(store(ctx, "198.18.43.50")),
        "GC released a legacy reservation of ctr-legacy, a valid container ID (with any ifname)",
      );
      check(
        !existsSync(store(ctx, "198.18.43.51")),
        "GC kept a legacy reservation of ctr-gone, which no valid attachment names",
      );
    },
  },
  {
    id: "hl.status",
    rule: "ST-1 ST-5",
    plugin: "host-local",
    run: async (ctx) => {
      await need110(ctx);
      expectSilentSuccess(await status(ctx, "198.18.44.0/24"));
      await add(ctx, "ctr-a", "198.18.44.0/24");
      expectSilentSuccess(await status(ctx, "198.18.44.0/24"));
    },
  },
  {
    // tscni extension: the spec reserves code 50 (ST-2) but does not require host-local to
    // report a full range; a plugin that says ready there (no handler, ST-7) is skipped.
    id: "hl.status-full",
    rule: "ST-2 (tscni extension)",
    plugin: "host-local",
    run: async (ctx) => {
      const subnet = "198.18.45.0/30"; // one address to hand out: .2 (.1 is the gateway, .3 the broadcast)
      await need110(ctx);
      expectSilentSuccess(await status(ctx, subnet));
      await add(ctx, "ctr-a", subnet);
      const next = await ctx.call("ADD", {
        env: { CNI_CONTAINERID: "ctr-b", CNI_IFNAME: "eth0" },
        stdin: config(ctx, subnet),
      });
      check(next.exitCode !== 0, `${subnet} should be full after one ADD, yet a second ADD got ${show(next)}`);
      expectNotReady(await status(ctx, subnet), "with its only range full");
      expectSilentSuccess(
        await ctx.call("DEL", { env: { CNI_CONTAINERID: "ctr-a", CNI_IFNAME: "eth0" }, stdin: config(ctx, subnet) }),
      );
      expectSilentSuccess(await status(ctx, subnet));
    },
  },
  {
    // tscni extension, as above: a data dir that cannot be created or written.
    id: "hl.status-data-dir",
    rule: "ST-2 (tscni extension)",
    plugin: "host-local",
    run: async (ctx) => {
      await need110(ctx);
      const notADir = join(ctx.tmp, "not-a-dir");
      writeFileSync(notADir, "");
      expectNotReady(
        await status(ctx, "198.18.46.0/24", notADir),
        `with its data dir under the regular file ${notADir}`,
      );
    },
  },
];
