/**
 * host-local IPAM (SPEC.md §8.3) judged through the protocol and its data directory:
 * allocation order, the on-disk layout, CHECK, and DEL idempotency. It changes no
 * kernel state, so it needs no root; the data dir is the case's scratch directory.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { check, expectError, expectResult, expectSilentSuccess } from "../judge.ts";
import type { CaseContext, ConformanceCase, Outcome } from "../types.ts";
import { pickVersion, versionOf } from "./versions.ts";

const NET = "tscni-conformance-hl";
const SUBNET = "198.18.40.0/24";

function config(ctx: CaseContext, cniVersion: string): Record<string, unknown> {
  return {
    cniVersion,
    name: NET,
    type: "bridge",
    ipam: { type: "host-local", ranges: [[{ subnet: SUBNET }]], dataDir: ctx.tmp },
  };
}

/** Calls host-local for container `cid` on eth0. */
function call(ctx: CaseContext, command: string, cid: string, cniVersion: string): Promise<Outcome> {
  return ctx.call(command, { env: { CNI_CONTAINERID: cid, CNI_IFNAME: "eth0" }, stdin: config(ctx, cniVersion) });
}

/** The first IPv4 address (no prefix) of a 0.3.0+ result. */
function firstIp(r: Record<string, unknown>): string {
  const ips = r.ips as { address?: string; gateway?: string }[] | undefined;
  const address = ips?.[0]?.address;
  check(typeof address === "string", `the result has no ips[0].address: ${JSON.stringify(r)}`);
  return address.split("/")[0] ?? "";
}

const store = (ctx: CaseContext, file: string) => join(ctx.tmp, NET, file);

/** The host-local cases. */
export const HOST_LOCAL_CASES: readonly ConformanceCase[] = [
  {
    id: "hl.allocate",
    rule: "§8.3 ADD",
    plugin: "host-local",
    run: async (ctx) => {
      const v = await pickVersion(ctx, ["0.3.1", "0.4.0", "1.0.0", "1.1.0"]);
      const r = expectResult(await call(ctx, "ADD", "ctr-a", v));
      const ips = r.ips as { address?: string; gateway?: string; interface?: number }[];
      check(
        ips[0]?.address === "198.18.40.2/24",
        `the first allocation of ${SUBNET} is 198.18.40.2/24, got ${JSON.stringify(ips)}`,
      );
      check(
        ips[0]?.gateway === "198.18.40.1",
        `the gateway defaults to 198.18.40.1, got ${JSON.stringify(ips[0]?.gateway)}`,
      );
      check(ips[0]?.interface === undefined && r.interfaces === undefined, "an IPAM result has no interfaces (DLG-2)");
      const second = expectResult(await call(ctx, "ADD", "ctr-b", v));
      check(
        firstIp(second) === "198.18.40.3",
        `the next allocation follows the last reserved IP, got ${firstIp(second)}`,
      );
    },
  },
  {
    id: "hl.data-dir",
    rule: "§8.3 layout",
    plugin: "host-local",
    run: async (ctx) => {
      const v = await pickVersion(ctx, ["0.3.1", "0.4.0", "1.0.0", "1.1.0"]);
      const ipAddr = firstIp(expectResult(await call(ctx, "ADD", "ctr-a", v)));
      const file = store(ctx, ipAddr);
      check(existsSync(file), `no reservation file ${file}`);
      const content = readFileSync(file, "utf8");
      check(content === "ctr-a\r\neth0", `the reservation holds "<cid>\\r\\n<ifname>", got ${JSON.stringify(content)}`);
      const last = store(ctx, "last_reserved_ip.0");
      check(existsSync(last) && readFileSync(last, "utf8").trim() === ipAddr, `last_reserved_ip.0 must hold ${ipAddr}`);
      check(existsSync(store(ctx, "lock")), "the store has a lock file");
    },
  },
  {
    id: "hl.del",
    rule: "§8.3 DEL DEL-3",
    plugin: "host-local",
    run: async (ctx) => {
      const v = await pickVersion(ctx, ["0.3.1", "0.4.0", "1.0.0", "1.1.0"]);
      const ipAddr = firstIp(expectResult(await call(ctx, "ADD", "ctr-a", v)));
      expectSilentSuccess(await call(ctx, "DEL", "ctr-a", v));
      check(!existsSync(store(ctx, ipAddr)), `DEL must remove the reservation of ${ipAddr}`);
      check(existsSync(store(ctx, "last_reserved_ip.0")), "DEL keeps last_reserved_ip.0");
      expectSilentSuccess(await call(ctx, "DEL", "ctr-a", v));
      expectSilentSuccess(await call(ctx, "DEL", "never-added", v));
      const next = firstIp(expectResult(await call(ctx, "ADD", "ctr-b", v)));
      check(next !== ipAddr, `a freed IP is not reused before the range wraps, got ${next} again`);
    },
  },
  {
    id: "hl.check",
    rule: "§8.3 CHECK CHK-8",
    plugin: "host-local",
    run: async (ctx) => {
      const v = await pickVersion(ctx, ["0.4.0", "1.0.0", "1.1.0"]);
      expectResult(await call(ctx, "ADD", "ctr-a", v));
      expectSilentSuccess(await call(ctx, "CHECK", "ctr-a", v));
      expectError(await call(ctx, "CHECK", "ctr-other", v));
    },
  },
  {
    id: "hl.versions",
    rule: "ADD-2 §3",
    plugin: "host-local",
    run: async (ctx) => {
      const { supportedVersions } = await versionOf(ctx);
      let n = 0;
      for (const v of supportedVersions) {
        const r = expectResult(await call(ctx, "ADD", `ctr-v${n++}`, v));
        check(r.cniVersion === v, `config ${v} gave a result in ${JSON.stringify(r.cniVersion)}`);
        if (v === "0.1.0" || v === "0.2.0") {
          const ip4 = r.ip4 as { ip?: string } | undefined;
          check(typeof ip4?.ip === "string", `a ${v} result carries ip4.ip: ${JSON.stringify(r)}`);
        } else {
          const ips = r.ips as { version?: string }[] | undefined;
          const wantsVersion = v.startsWith("0.");
          check(
            (ips?.[0]?.version === "4") === wantsVersion,
            `ips[].version is written before 1.0.0 only (config ${v}): ${JSON.stringify(ips)}`,
          );
        }
      }
    },
  },
];
