import { describe, expect, test } from "bun:test";
import { KernelError } from "./kernel.ts";
import { renderOp } from "./lines.ts";
import { HOST, type KernelOp } from "./ops.ts";
import { renderBatch } from "./render.ts";

const C = "/var/run/netns/c1";
const line = (op: KernelOp): string => renderOp(op, "/proc/7/ns/net").line;

describe("renderOp", () => {
  test("veth.add names the peer's namespace only when it differs", () => {
    expect(
      line({
        op: "veth.add",
        ns: C,
        name: "eth0",
        mtu: 1400,
        peer: { name: "veth1", ns: HOST, mac: "02:00:00:00:00:01" },
      }),
    ).toBe("link add eth0 mtu 1400 type veth peer name veth1 address 02:00:00:00:00:01 netns /proc/7/ns/net");
    expect(line({ op: "veth.add", ns: C, name: "a", peer: { name: "b", ns: C } })).toBe(
      "link add a type veth peer name b",
    );
    expect(line({ op: "veth.add", ns: HOST, name: "a", peer: { name: "b", ns: C } })).toBe(
      `link add a type veth peer name b netns ${C}`,
    );
  });

  test("bridge.add carries mtu, vlan filtering and the default pvid", () => {
    expect(line({ op: "bridge.add", ns: HOST, name: "cni0" })).toBe("link add cni0 type bridge");
    expect(line({ op: "bridge.add", ns: HOST, name: "cni0", mtu: 9000, vlanFiltering: true, defaultPvid: 0 })).toBe(
      "link add cni0 mtu 9000 type bridge vlan_filtering 1 vlan_default_pvid 0",
    );
  });

  test("vlan.add makes a vlan link on its parent", () => {
    expect(line({ op: "vlan.add", ns: HOST, name: "cni0.10", parent: "cni0", id: 10 })).toBe(
      "link add cni0.10 link cni0 type vlan id 10",
    );
  });

  test("link.set changes only the fields given", () => {
    expect(line({ op: "link.set", ns: HOST, name: "v", up: true, master: "cni0" })).toBe(
      "link set dev v up master cni0",
    );
    expect(
      line({
        op: "link.set",
        ns: HOST,
        name: "v",
        up: false,
        mtu: 1300,
        mac: "02:00:00:00:00:02",
        master: null,
        promisc: true,
        newName: "w",
      }),
    ).toBe("link set dev v down mtu 1300 address 02:00:00:00:00:02 nomaster promisc on name w");
  });

  test("bridge-port.set sets hairpin and isolated as bridge_slave options", () => {
    expect(line({ op: "bridge-port.set", ns: HOST, name: "v", hairpin: true, isolated: false })).toBe(
      "link set dev v type bridge_slave hairpin on isolated off",
    );
  });

  test("bridge-vlan ops are bridge lines, not ip lines", () => {
    expect(renderOp({ op: "bridge-vlan.add", ns: HOST, dev: "v", vid: 10, pvid: true, untagged: true }, "x")).toEqual({
      tool: "bridge",
      line: "vlan add dev v vid 10 pvid untagged",
    });
    expect(line({ op: "bridge-vlan.del", ns: HOST, dev: "cni0", vid: 1, self: true })).toBe(
      "vlan del dev cni0 vid 1 self",
    );
  });

  test("link.move sends a link to another namespace, the host by its reference", () => {
    expect(line({ op: "link.move", ns: HOST, name: "eth9", to: C })).toBe(`link set dev eth9 netns ${C}`);
    expect(line({ op: "link.move", ns: C, name: "eth9", to: HOST })).toBe("link set dev eth9 netns /proc/7/ns/net");
    expect(() => line({ op: "link.move", ns: C, name: "eth9", to: C })).toThrow(KernelError);
  });

  test("link.del deletes by name", () => {
    expect(line({ op: "link.del", ns: C, name: "eth0" })).toBe("link del dev eth0");
  });

  test("addr ops keep host bits and add nodad and noprefixroute only on add", () => {
    expect(line({ op: "addr.add", ns: C, dev: "eth0", cidr: "198.18.0.5/24", nodad: true })).toBe(
      "addr add 198.18.0.5/24 dev eth0 nodad",
    );
    expect(line({ op: "addr.add", ns: C, dev: "eth0", cidr: "198.18.0.5/24", broadcast: "198.18.0.255" })).toBe(
      "addr add 198.18.0.5/24 dev eth0 broadcast 198.18.0.255",
    );
    expect(
      line({ op: "addr.add", ns: C, dev: "eth0", cidr: "2001:db8::5/64", scope: "global", noprefixroute: true }),
    ).toBe("addr add 2001:db8::5/64 dev eth0 scope global noprefixroute");
    expect(line({ op: "addr.del", ns: C, dev: "eth0", cidr: "198.18.0.5/24", nodad: true })).toBe(
      "addr del 198.18.0.5/24 dev eth0",
    );
  });

  test("route ops carry every attribute in iproute2's words", () => {
    expect(line({ op: "route.add", ns: C, dst: "0.0.0.0/0", gw: "198.18.0.1" })).toBe(
      "route add 0.0.0.0/0 via 198.18.0.1",
    );
    expect(
      line({
        op: "route.add",
        ns: C,
        dst: "198.19.0.0/16",
        gw: "198.18.0.1",
        dev: "eth0",
        src: "198.18.0.5",
        scope: "global",
        table: 100,
        metric: 10,
        mtu: 1400,
        advmss: 1360,
        onlink: true,
      }),
    ).toBe(
      "route add 198.19.0.0/16 via 198.18.0.1 dev eth0 src 198.18.0.5 scope global table 100 metric 10 mtu 1400 advmss 1360 onlink",
    );
    expect(line({ op: "route.del", ns: C, dst: "::/0", dev: "eth0" })).toBe("route del ::/0 dev eth0");
    // H-2: a second interface's routes are added as ECMP (prepend); a delete ignores `prepend`.
    expect(line({ op: "route.add", ns: C, dst: "::/0", gw: "2001:db8::1", dev: "eth1", prepend: true })).toBe(
      "route prepend ::/0 via 2001:db8::1 dev eth1",
    );
    expect(line({ op: "route.del", ns: C, dst: "::/0", dev: "eth1", prepend: true })).toBe("route del ::/0 dev eth1");
  });

  test("sysctl.set is a key=value assignment for the sysctl tool", () => {
    expect(renderOp({ op: "sysctl.set", ns: C, key: "net.ipv4.ip_forward", value: "1" }, "x")).toEqual({
      tool: "sysctl",
      line: "net.ipv4.ip_forward=1",
    });
    expect(() => line({ op: "sysctl.set", ns: C, key: "net/../../etc/x", value: "1" })).toThrow(KernelError);
  });

  test("a value that would change the batch line is refused as invalid", () => {
    for (const name of ["a b", "a\nlink del x", "#x", 'a"b', ""]) {
      expect(() => line({ op: "link.del", ns: C, name })).toThrow(KernelError);
    }
  });
});

describe("renderBatch", () => {
  test("an empty batch prints that there is nothing to do", () => {
    expect(renderBatch([])).toBe("# empty batch: nothing to do\n");
  });

  test("groups consecutive ops of one namespace and tool into one heredoc block", () => {
    const script = renderBatch([
      { op: "bridge.add", ns: HOST, name: "cni0" },
      { op: "link.set", ns: HOST, name: "cni0", up: true },
      { op: "addr.add", ns: C, dev: "lo", cidr: "198.18.0.1/32" },
      { op: "sysctl.set", ns: C, key: "net.ipv4.ip_forward", value: "1" },
      { op: "bridge-vlan.add", ns: HOST, dev: "cni0", vid: 5, self: true },
    ]);
    expect(script).toBe(
      [
        "#!/bin/sh",
        "# 5 operations in 4 steps",
        "set -e",
        "# host namespace: ops 0-1",
        "ip -batch - <<'EOF'",
        "link add cni0 type bridge",
        "link set dev cni0 up",
        "EOF",
        `# netns ${C}: op 2`,
        `nsenter --net=${C} ip -batch - <<'EOF'`,
        "addr add 198.18.0.1/32 dev lo",
        "EOF",
        `# netns ${C}: op 3`,
        `nsenter --net=${C} sysctl -w net.ipv4.ip_forward=1`,
        "# host namespace: op 4",
        "bridge -batch - <<'EOF'",
        "vlan add dev cni0 vid 5 self",
        "EOF",
        "",
      ].join("\n"),
    );
  });

  test("a block naming the host through $$ lets the shell expand it and escapes the rest", () => {
    const script = renderBatch([{ op: "veth.add", ns: C, name: "eth0", peer: { name: "v$x", ns: HOST } }]);
    expect(script).toContain(
      `nsenter --net=${C} ip -batch - <<EOF\nlink add eth0 type veth peer name v\\$x netns /proc/$$/ns/net\nEOF`,
    );
  });

  test("an unrenderable op reports its index in the batch", () => {
    const bad = () =>
      renderBatch([
        { op: "link.del", ns: C, name: "ok" },
        { op: "link.del", ns: C, name: "not ok" },
      ]);
    expect(bad).toThrow(KernelError);
    try {
      bad();
    } catch (e) {
      expect((e as KernelError).opIndex).toBe(1);
      expect((e as KernelError).kind).toBe("invalid");
    }
  });
});
