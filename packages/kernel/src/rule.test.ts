import { describe, expect, test } from "bun:test";
import { renderBatch } from "./render.ts";
import { renderOp } from "./lines.ts";
import { parseKernelBatch } from "./schema.ts";

describe("rule and vrf ops as iproute2 lines", () => {
  test("an IPv4 rule is an `ip rule` line with every selector given", () => {
    expect(
      renderOp(
        {
          op: "rule.add",
          ns: "host",
          priority: 10,
          from: "198.18.0.5/32",
          to: "198.18.1.0/24",
          iif: "eth0",
          oif: "eth1",
          table: 100,
        },
        "",
      ),
    ).toEqual({
      tool: "ip",
      line: "rule add priority 10 from 198.18.0.5/32 to 198.18.1.0/24 iif eth0 oif eth1 lookup 100",
    });
  });

  test("an IPv6 rule runs under `ip -6 -batch -`, since a batch line cannot carry -6", () => {
    expect(renderOp({ op: "rule.del", ns: "host", from: "2001:db8::5/128", table: 101 }, "").tool).toBe("ip6");
    expect(renderOp({ op: "rule.del", ns: "host", family: 6, priority: 7 }, "")).toEqual({
      tool: "ip6",
      line: "rule del priority 7",
    });
    const script = renderBatch([
      { op: "rule.add", ns: "/var/run/netns/c", from: "198.18.0.5/32", table: 100 },
      { op: "rule.add", ns: "/var/run/netns/c", from: "2001:db8::5/128", table: 101 },
    ]);
    expect(script).toContain(
      "nsenter --net=/var/run/netns/c ip -batch - <<'EOF'\nrule add from 198.18.0.5/32 lookup 100\nEOF",
    );
    expect(script).toContain(
      "nsenter --net=/var/run/netns/c ip -6 -batch - <<'EOF'\nrule add from 2001:db8::5/128 lookup 101\nEOF",
    );
  });

  test("a VRF is `link add NAME type vrf table N`, and a moved route says replace and proto", () => {
    expect(renderOp({ op: "vrf.add", ns: "host", name: "vrf0", table: 100 }, "").line).toBe(
      "link add vrf0 type vrf table 100",
    );
    expect(
      renderOp(
        {
          op: "route.add",
          ns: "host",
          dst: "198.18.0.0/24",
          dev: "eth0",
          src: "198.18.0.5",
          scope: "link",
          table: 100,
          protocol: "kernel",
          replace: true,
        },
        "",
      ).line,
    ).toBe("route replace 198.18.0.0/24 dev eth0 src 198.18.0.5 scope link table 100 proto kernel");
  });

  test("the batch schema takes rule and vrf ops and refuses mixed families, a table-less add and table 0", () => {
    expect(
      parseKernelBatch([
        { op: "rule.add", ns: "host", from: "198.18.0.5/32", table: 100 },
        { op: "vrf.add", ns: "host", name: "vrf0", table: 1 },
      ]).ok,
    ).toBe(true);
    expect(
      parseKernelBatch([{ op: "rule.add", ns: "host", from: "198.18.0.5/32", to: "2001:db8::/64", table: 100 }]).ok,
    ).toBe(false);
    expect(parseKernelBatch([{ op: "rule.add", ns: "host", family: 6, from: "198.18.0.5/32", table: 100 }]).ok).toBe(
      false,
    );
    expect(parseKernelBatch([{ op: "rule.add", ns: "host", from: "198.18.0.5/32" }]).ok).toBe(false);
    expect(parseKernelBatch([{ op: "vrf.add", ns: "host", name: "vrf0", table: 0 }]).ok).toBe(false);
  });
});
