/**
 * decodeRules on replies the kernel really sent: fixtures/rule-requests.json holds the
 * RTM_GETRULE dump messages behind `ip -j -4|-6 rule show` beside the JSON iproute2
 * printed from them (fixtures/capture-rules.ts). The netlink decoder must read what the
 * iproute2 driver's parser reads from that JSON. Pure.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { parseRules } from "../linux/parse-rule.ts";
import { decodeRules } from "./decode-rule.ts";

type Dump = { command: string; messages: string[]; json: string };
const golden = JSON.parse(readFileSync(new URL("./fixtures/rule-requests.json", import.meta.url), "utf8")) as {
  dumps: Dump[];
};

function dump(command: string): { payloads: DataView[]; json: string } {
  const d = golden.dumps.find((x) => x.command === command);
  if (d === undefined) throw new Error(`no dump of ${command} in the fixture`);
  return {
    payloads: d.messages.map((h) => new DataView(new Uint8Array(Buffer.from(h, "hex")).buffer, 16)),
    json: d.json,
  };
}

describe("decodeRules reads the rule dump as iproute2 printed it", () => {
  test("IPv4: defaults, selectors, interfaces and a table above 255 read alike both ways", () => {
    const { payloads, json } = dump("ip -j -4 rule show");
    const rules = decodeRules(payloads, 4);
    expect(rules).toEqual(parseRules(json, 4));
    expect(rules).toContainEqual({
      family: 4,
      priority: 999,
      from: "198.18.0.7/32",
      to: "198.18.2.0/24",
      iif: "veth0",
      table: 100,
    });
    expect(rules).toContainEqual({ family: 4, priority: 500, oif: "veth1", table: 400 });
    expect(rules.map((r) => r.priority)).toEqual([0, 500, 999, 1000, 32766, 32767]);
  });

  test("IPv6: a destination rule to table 4000 between the defaults", () => {
    const { payloads, json } = dump("ip -j -6 rule show");
    const rules = decodeRules(payloads, 6);
    expect(rules).toEqual(parseRules(json, 6));
    expect(rules).toEqual([
      { family: 6, priority: 0, table: 255 },
      { family: 6, priority: 32764, to: "2001:db8:1::/64", table: 4000 },
      { family: 6, priority: 32766, table: 254 },
    ]);
  });

  test("a dump of the other family yields nothing", () => {
    expect(decodeRules(dump("ip -j -6 rule show").payloads, 4)).toEqual([]);
  });
});
