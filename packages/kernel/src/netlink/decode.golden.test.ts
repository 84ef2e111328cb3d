/**
 * The decoders on replies the kernel really sent: fixtures/iproute2-dumps.json holds every
 * message of the dumps behind `ip -d -j link show`, `ip -j addr show` and
 * `ip -j -4/-6 route show table main` in one namespace (built with `ip` alone by
 * fixtures/capture.ts), beside the JSON iproute2 printed from those same messages. Pure:
 * the netlink decoders must read what iproute2 read (as linux/parse.ts turns it into the
 * port's types), and the state the capture built must show (a promiscuous hairpin port
 * enslaved to br0, ECMP next hops, scopes).
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { parseAddrs, parseLinks, parseRoutes } from "../linux/parse.ts";
import { decodeAddrs, decodeLinks, decodeRoutes, rawLink } from "./decode.ts";

type Dump = { command: string; messages: string[]; json: string };
const golden = JSON.parse(readFileSync(new URL("./fixtures/iproute2-dumps.json", import.meta.url), "utf8")) as {
  iproute2: string;
  dumps: Dump[];
};

/** The payloads (after the nlmsghdr) of one dump's messages of `type`. */
function payloads(command: string, type: number): DataView[] {
  const dump = golden.dumps.find((d) => d.command === command);
  if (dump === undefined) throw new Error(`no dump of ${command} in the fixture`);
  return dump.messages
    .map((h) => new Uint8Array(Buffer.from(h, "hex")))
    .filter((b) => new DataView(b.buffer).getUint16(4, true) === type)
    .map((b) => new DataView(b.buffer, 16));
}
const json = (command: string): string => golden.dumps.find((d) => d.command === command)?.json ?? "";

const LINKS = "ip -d -j link show";
const ADDRS = "ip -j addr show";
const rawLinks = payloads(LINKS, 16).map(rawLink);
const links = decodeLinks(rawLinks);
const nameOf = (i: number): string => links.find((l) => l.index === i)?.name ?? `if${i}`;

describe(`the netlink decoders read what ${golden.iproute2.split(",")[1]?.trim() ?? "iproute2"} read`, () => {
  test("decodeLinks reads the link dump as iproute2 printed it", () => {
    expect(links).toEqual(parseLinks(json(LINKS)));
  });

  test("decodeLinks sees the promiscuous hairpin port veth0 enslaved to br0", () => {
    expect(links.find((l) => l.name === "veth0")).toMatchObject({
      kind: "veth",
      mtu: 1400,
      up: true,
      promisc: true,
      master: "br0",
      hairpin: true,
      isolated: false,
    });
    expect(links.find((l) => l.name === "veth1")).toMatchObject({ kind: "veth", promisc: false });
    expect(links.find((l) => l.name === "veth1")?.master).toBeUndefined();
    expect(links.find((l) => l.name === "br0")).toMatchObject({ kind: "bridge", up: true, vlanFiltering: false });
    expect(links.find((l) => l.name === "lo")).toMatchObject({ kind: "loopback", up: true });
  });

  test("decodeAddrs reads the address dump as iproute2 printed it", () => {
    const addrs = decodeAddrs(payloads(ADDRS, 20), payloads(ADDRS, 16).map(rawLink));
    expect(addrs).toEqual(parseAddrs(json(ADDRS)));
    expect(
      addrs
        .filter((a) => a.dev === "br0" && a.family === 4)
        .map((a) => [a.cidr, a.scope])
        .sort(),
    ).toEqual([
      ["198.18.0.1/24", "global"],
      ["198.18.1.1/24", "link"],
    ]);
  });

  for (const family of [4, 6] as const) {
    const command = `ip -j -${family} route show table main`;
    test(`decodeRoutes reads the IPv${family} main table as iproute2 printed it`, () => {
      expect(decodeRoutes(payloads(command, 24), family, nameOf)).toEqual(parseRoutes(json(command), family));
    });
  }

  test("decodeRoutes keeps both next hops of an ECMP route and a route's metric and gateway", () => {
    const routes = decodeRoutes(payloads("ip -j -4 route show table main", 24), 4, nameOf);
    // One route per next hop, as the iproute2 driver reads `nexthops`.
    expect(routes.filter((r) => r.dst === "198.18.7.0/24").map((r) => [r.gw, r.dev])).toEqual([
      ["198.18.0.3", "br0"],
      ["198.18.2.3", "veth1"],
    ]);
    expect(routes.find((r) => r.dst === "198.18.5.0/24")).toMatchObject({ gw: "198.18.0.2", dev: "br0", metric: 20 });
  });
});
