/**
 * The plans' rule text against the real kernel, in a throwaway namespace: what
 * `iptables-restore` and `nft -f` are fed from our plans, `iptables-save -t nat` and
 * `nft list` print back token for token, so CHECK and DEL find rules by their text.
 * Root only; CI runs it as root.
 */
import { describe, expect, test } from "bun:test";
import type { FirewallOp } from "@tscni/firewall";
import { canUseRealKernel, createThrowawayNetns, deleteThrowawayNetns } from "@tscni/kernel/testing";
import { EVERY_MAPPING } from "../testing/portmap-config.ts";
import type { PortmapConfig } from "./config.ts";
import { planIptablesAdd } from "./plan-iptables.ts";
import { planNftAdd } from "./plan-nft.ts";

const root = canUseRealKernel();
const run = root || process.env.CI === "true";
if (!run) console.warn("skipping portmap's real-kernel rule test: it needs root (CI runs it as root)");

const conf: PortmapConfig = EVERY_MAPPING;

/** A token as iptables-save quotes it. */
const quote = (t: string): string => (/[\s"]/.test(t) ? `"${t.replaceAll('"', '\\"')}"` : t);

function sh(ns: string, argv: string[], input = ""): string {
  const r = Bun.spawnSync(["ip", "netns", "exec", ns, ...argv], {
    stdin: new TextEncoder().encode(input),
    stderr: "pipe",
  });
  if (r.exitCode !== 0) throw new Error(`${argv.join(" ")}: ${r.stderr.toString()}`);
  return r.stdout.toString();
}

/** The restore script of a plan's chains and rules (the plan is for a fresh table). */
function restoreScript(ops: FirewallOp[]): { script: string; expected: string[] } {
  const chains: string[] = [];
  const rules: string[] = [];
  for (const o of ops) {
    if (o.op === "ipt.chain.ensure") chains.push(`:${o.chain} - [0:0]`);
    if (o.op === "ipt.rule.append" || o.op === "ipt.rule.insert")
      rules.push(`-A ${o.chain} ${o.rule.map(quote).join(" ")}`);
  }
  return { script: `*nat\n${chains.join("\n")}\n${rules.join("\n")}\nCOMMIT\n`, expected: rules };
}

describe.skipIf(!run)("portmap rules on the real kernel", () => {
  for (const family of [4, 6] as const) {
    test(`iptables-save prints the IPv${family} plan back as planned`, () => {
      const ns = createThrowawayNetns("pmrules");
      try {
        const net = family === 4 ? conf.containerV4! : conf.containerV6!;
        const { script, expected } = restoreScript(planIptablesAdd(conf, "cid", net));
        const tool = family === 4 ? "iptables" : "ip6tables";
        sh(ns.name, [`${tool}-restore`, "--noflush"], script);
        const saved = sh(ns.name, [`${tool}-save`, "-t", "nat"])
          .split("\n")
          .filter((l) => l.startsWith("-A "));
        expect(saved.toSorted()).toEqual(expected.toSorted());
      } finally {
        deleteThrowawayNetns(ns);
      }
    });

    test(`nft lists the IPv${family} plan's rules back as planned`, () => {
      const ns = createThrowawayNetns("pmrules");
      try {
        const net = family === 4 ? conf.containerV4! : conf.containerV6!;
        const ops = planNftAdd(
          {
            ...conf,
            backend: "nftables",
            conditionsV4: ["ip", "saddr", "!=", "198.18.3.0/24"],
            portMappings: conf.portMappings.map((m) => ({ ...m, protocol: m.protocol.toLowerCase() })),
          },
          "cid",
          net,
        );
        const lines: string[] = [];
        const expected: string[] = [];
        for (const o of ops) {
          if (o.op === "nft.table.ensure") lines.push(`add table ${o.family} ${o.table} { comment "${o.comment}" ; }`);
          if (o.op === "nft.chain.ensure")
            lines.push(
              `add chain ${o.family} ${o.table} ${o.chain}${o.base ? ` { type ${o.base.type} hook ${o.base.hook} priority ${o.base.priority} ; }` : ""}`,
            );
          if (o.op === "nft.rule.add") {
            const text = `${o.rule}${o.comment === undefined ? "" : ` comment "${o.comment}"`}`;
            lines.push(`add rule ${o.family} ${o.table} ${o.chain} ${text}`);
            expected.push(text);
          }
        }
        sh(ns.name, ["nft", "-f", "-"], `${lines.join("\n")}\n`);
        const listed = sh(ns.name, ["nft", "list", "table", family === 4 ? "ip" : "ip6", "cni_hostport"])
          .split("\n")
          .map((l) => l.trim())
          .filter((l) => l !== "" && !/^(table|chain|type|comment "CNI|})/.test(l));
        expect(listed.toSorted()).toEqual(expected.toSorted());
      } finally {
        deleteThrowawayNetns(ns);
      }
    });
  }
});
