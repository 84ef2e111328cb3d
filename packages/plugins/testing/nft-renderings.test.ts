/**
 * Our own plugins' nftables transactions never need `nft` (H-3, §8.5, §8.1 macspoofchk):
 * every script that portmap's nftables backend, ipMasq with `ipMasqBackend: nftables`
 * (bridge, ptp) and bridge's `macspoofchk` render, through a whole lifecycle, compiles to
 * nfnetlink, and every rule they write reads back through our printer. The bytes are nft
 * 1.0.6's own (fixtures/nft-renderings.*, captured by capture-nft-renderings.sh), and on
 * the real kernel the tables our batch makes are what `nft -a -s list` prints and our
 * reader reads. A user's `conditionsV4`/`V6` are not ours and may still go to `nft`.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parseNftList } from "@tscni/firewall/linux";
import {
  inNetns,
  nfnlApplyAndRead,
  nfnlBatchBytes,
  nfnlPrintBack,
  nfnlRefusal,
  normalizedBatch,
  stracedBytes,
} from "@tscni/firewall/testing";
import { canUseRealKernel, withThrowawayNetns } from "@tscni/kernel/testing";
import { distinctAddLines, renderScenarios, ruleLines } from "./nft-renderings.ts";

const root = canUseRealKernel();
if (!root && process.env.CI === "true") throw new Error("the nft renderings test must run under CI: run it as root");
if (!root) console.warn("skipping the nft renderings test on the kernel: it needs root (CI runs it as root)");

const dir = join(import.meta.dir, "fixtures");
const fixture = readFileSync(join(dir, "nft-renderings.nft"), "utf8");
const rendered = await renderScenarios();
const scripts = rendered.flatMap((t) => (t.script === undefined ? [] : [t.script]));

/** How `nft list` prints a rule we write: it drops a full-length prefix (`/32`, `/128`). */
const listedForm = (rule: string): string =>
  rule.replace(/(\d+\.\d+\.\d+\.\d+)\/32(?=\s|$)/g, "$1").replace(/([0-9a-f:]+:[0-9a-f:]*)\/128(?=\s|$)/g, "$1");

describe("our plugins' nftables renderings", () => {
  test("cover every statement, chain and deletion form the renderers write", () => {
    const all = scripts.join("\n");
    for (const form of [
      /^add table inet cni_plugins_masquerade \{ comment/m,
      /^add chain bridge nat PREROUTING \{ type filter hook prerouting priority -300 ; policy accept ; \}$/m,
      /ip6 daddr != 2001:db8:0:1:8000::\/65 masquerade/,
      /ip daddr != 198\.18\.0\.5\/32 masquerade/,
      /sctp dport 5000 dnat to 198\.18\.0\.5:5000/,
      /ip6 daddr 2001:db8::1 tcp dport 8443 dnat to \[2001:db8::5\]:443/,
      /ip6 saddr ::\/0 ip6 daddr 2001:db8::5 masquerade/,
      /ether saddr 0a:58:c6:12:00:05 return/,
      /^delete rule ip6 cni_hostport hostports handle \d+$/m,
      /^flush chain ip cni_hostport prerouting$/m,
      /^delete chain bridge nat cni-br-iface-c1-eth0-mac$/m,
    ])
      expect(all).toMatch(form);
    // A DEL repeated renders nothing at all (DEL-3).
    expect(rendered.filter((t) => t.script === undefined).length).toBeGreaterThanOrEqual(rendered.length / 6);
  });

  test("every script compiles to nfnetlink messages, so no transaction runs nft", () => {
    const refused = scripts.flatMap((s) => {
      const why = nfnlRefusal(s);
      return why === undefined ? [] : [`${why}\nin:\n${s}`];
    });
    expect(refused).toEqual([]);
  });

  test("every rule written reads back through our printer as nft lists it", () => {
    const rules = scripts.flatMap(ruleLines);
    expect(rules.length).toBeGreaterThan(100);
    for (const { family, rule } of rules) expect(nfnlPrintBack(family, rule)).toBe(listedForm(rule));
  });

  test("the golden fixture holds every line the renderers add today (recapture when this fails)", () => {
    expect(fixture.trimEnd().split("\n")).toEqual(distinctAddLines(rendered));
  });

  test("the fixture's batch is byte for byte the one nft 1.0.6 sends, message for message", () => {
    const theirs = normalizedBatch(stracedBytes(join(dir, "nft-renderings.batch.hex")));
    expect(theirs.length).toBe(fixture.trimEnd().split("\n").length + 2);
    expect(normalizedBatch(nfnlBatchBytes(fixture))).toEqual(theirs);
  });

  test.skipIf(!root)("on the kernel, the tables our batch makes are what nft lists and our reader reads", async () => {
    const tables = [
      { family: "ip", table: "cni_hostport" },
      { family: "ip6", table: "cni_hostport" },
      { family: "inet", table: "cni_plugins_masquerade" },
      { family: "bridge", table: "nat" },
    ];
    await withThrowawayNetns(
      1,
      async ([ns]) => {
        const ours = await nfnlApplyAndRead(ns?.path ?? "", fixture, tables);
        const written = ruleLines(fixture).map((r) => listedForm(r.rule));
        const listedRules: string[] = [];
        for (const [i, { family, table }] of tables.entries()) {
          const listed = parseNftList(inNetns(ns?.name ?? "", ["nft", "-a", "-s", "list", "table", family, table]));
          expect(ours[i]).toEqual(listed);
          listedRules.push(...listed.flatMap((c) => c.rules.map((r) => r.rule)));
        }
        expect(listedRules.toSorted()).toEqual(written.toSorted());
      },
      "nfrender",
    );
  });
});
