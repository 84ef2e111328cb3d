import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { KernelError } from "@tscni/kernel";
import { FakeKernel } from "@tscni/kernel/fake";
import { NS, PREV, dataDir, runTuning, withEth0 } from "./_fake.ts";
import { linkError } from "./index.ts";

const fakeWithEth0 = (): FakeKernel => withEth0(new FakeKernel());

const conf = (dir: string, extra: Record<string, unknown> = {}) => ({
  cniVersion: "1.0.0",
  name: "t",
  type: "tuning",
  dataDir: dir,
  prevResult: PREV,
  ...extra,
});
const eth0 = async (k: ReturnType<typeof fakeWithEth0>) => (await k.link(NS, "eth0"))!;

describe("tuning on the fake kernel", () => {
  test("ADD changes the link, writes the reference's backup, and reports the configured MAC", async () => {
    const k = fakeWithEth0();
    const dir = dataDir();
    const r = await runTuning(
      k,
      "ADD",
      conf(dir, {
        mac: "02:00:00:00:00:AB",
        mtu: 1400,
        promisc: true,
        allmulti: true,
        txQLen: 500,
        sysctl: { "net.ipv4.conf.IFNAME.arp_notify": "1" },
      }),
    );
    expect(r.code).toBe(0);
    expect(r.json().interfaces).toEqual([{ name: "veth1" }, { name: "eth0", sandbox: NS, mac: "02:00:00:00:00:AB" }]);
    expect(await eth0(k)).toMatchObject({
      mac: "02:00:00:00:00:ab",
      mtu: 1400,
      promisc: true,
      allmulti: true,
      txQLen: 500,
    });
    expect(await k.sysctl(NS, "net.ipv4.conf.eth0.arp_notify")).toBe("1");
    expect(readFileSync(join(dir, "ctr1_eth0.json"), "utf8")).toBe(
      '{\n "mac": "02:00:00:00:10:01",\n "promisc": false,\n "mtu": 1500,\n "allmulti": false,\n "txQLen": 1000\n}',
    );
  });

  test("DEL restores the backed-up attributes and removes the file; a second DEL is a no-op (DEL-3)", async () => {
    const k = fakeWithEth0();
    const dir = dataDir();
    const before = await eth0(k);
    expect(
      (
        await runTuning(
          k,
          "ADD",
          conf(dir, { mac: "02:00:00:00:00:ab", mtu: 1400, promisc: true, allmulti: true, txQLen: 5 }),
        )
      ).code,
    ).toBe(0);
    expect((await runTuning(k, "DEL", conf(dir))).code).toBe(0);
    expect(await eth0(k)).toEqual(before);
    expect(existsSync(join(dir, "ctr1_eth0.json"))).toBe(false);
    expect((await runTuning(k, "DEL", conf(dir))).code).toBe(0);
  });

  test("a config that changes only sysctls keeps no backup and needs no link", async () => {
    const k = fakeWithEth0();
    const dir = dataDir();
    expect((await runTuning(k, "ADD", conf(dir, { sysctl: { "net.ipv4.conf.all.forwarding": "1" } }))).code).toBe(0);
    expect(existsSync(dir)).toBe(false);
  });

  test("ADD without prevResult is refused: tuning is chained only", async () => {
    const r = await runTuning(fakeWithEth0(), "ADD", { cniVersion: "1.0.0", name: "t", type: "tuning", mtu: 1400 });
    expect(r.json()).toMatchObject({ code: 7, msg: "Required prevResult missing" });
  });

  test("a bad key or MAC is refused before anything changes (no half-applied ADD)", async () => {
    const k = fakeWithEth0();
    const dir = dataDir();
    const snap = k.snapshot(NS);
    const bad = await runTuning(
      k,
      "ADD",
      conf(dir, { mtu: 1400, sysctl: { "net.ipv4.conf.IFNAME.arp_notify": "1", "kernel.hostname": "x" } }),
    );
    expect(bad.json()).toMatchObject({ code: 7, msg: 'invalid net sysctl key: "kernel/hostname"' });
    const mac = await runTuning(
      k,
      "ADD",
      conf(dir, { mtu: 1400, sysctl: { "net.ipv4.conf.IFNAME.arp_notify": "1" }, mac: "zz" }),
    );
    expect(mac.json()).toMatchObject({
      code: 999,
      msg: "invalid args zz for MAC addr: address zz: invalid MAC address",
    });
    expect(k.snapshot(NS)).toEqual(snap);
  });

  test("a missing link fails as the reference's, with nothing written", async () => {
    const k = fakeWithEth0();
    k.applySync([{ op: "link.del", ns: NS, name: "eth0" }]);
    const dir = dataDir();
    const r = await runTuning(k, "ADD", conf(dir, { mtu: 1400 }));
    expect(r.json()).toMatchObject({ code: 999, msg: 'failed to get "eth0": Link not found' });
    expect(existsSync(dir)).toBe(false);
  });

  test("a kernel failure halfway through ADD rolls back the sysctls and the link, and drops the backup (ADD-6)", async () => {
    const k = fakeWithEth0();
    const dir = dataDir();
    const snap = k.snapshot(NS);
    k.failAt((op) => op.op === "link.set" && op.txQLen !== undefined, new KernelError("invalid", "invalid argument"));
    const r = await runTuning(
      k,
      "ADD",
      conf(dir, {
        mac: "02:00:00:00:00:ab",
        mtu: 1400,
        promisc: true,
        txQLen: 1,
        sysctl: { "net.ipv4.conf.IFNAME.proxy_arp": "1" },
      }),
    );
    expect(r.json()).toMatchObject({ code: 999, msg: "invalid argument" });
    expect(k.snapshot(NS)).toEqual(snap);
    expect(existsSync(join(dir, "ctr1_eth0.json"))).toBe(false);
  });

  test("the allowlist refuses a key it does not match", async () => {
    const r = await runTuning(
      fakeWithEth0(),
      "ADD",
      conf(dataDir(), { sysctl: { "net.ipv4.conf.IFNAME.proxy_arp": "1" } }),
      { allowlist: "^net\\.ipv4\\.conf\\.IFNAME\\.arp_notify$\n" },
    );
    expect(r.json()).toMatchObject({
      code: 7,
      msg: "Sysctl net.ipv4.conf.IFNAME.proxy_arp is not allowed. Only the following sysctls are allowed: [^net\\.ipv4\\.conf\\.IFNAME\\.arp_notify$]",
    });
  });

  test("CHECK reports each differing value in the reference's words", async () => {
    const k = fakeWithEth0();
    const dir = dataDir();
    const c = conf(dir, { mtu: 1400, promisc: true, sysctl: { "net.ipv4.conf.IFNAME.arp_notify": "1" } });
    expect((await runTuning(k, "ADD", c)).code).toBe(0);
    expect((await runTuning(k, "CHECK", c)).code).toBe(0);
    const msg = async (extra: Record<string, unknown>) => (await runTuning(k, "CHECK", { ...c, ...extra })).json().msg;
    expect(await msg({ mtu: 1300 })).toBe("Error: Tuning configured MTU of eth0 is 1300, current value is 1400");
    expect(await msg({ promisc: false })).toBe(
      "Error: Tuning link eth0 configured promisc is false, current value is 1",
    );
    expect(await msg({ sysctl: { "net.ipv4.conf.IFNAME.arp_notify": "0" } })).toBe(
      "Error: Tuning configured value of /proc/sys/net/ipv4/conf/eth0/arp_notify is 0, current value is 1",
    );
    expect(await msg({ mac: "02:00:00:00:00:AB" })).toBe(
      "Error: Tuning configured Ethernet of eth0 is 02:00:00:00:00:AB, current value is 02:00:00:00:10:01",
    );
    expect(await msg({ allmulti: true })).toBe(
      "Error: Tuning configured all-multicast mode of eth0 is true, current value is false",
    );
    expect(await msg({ txQLen: 7 })).toBe(
      "Error: Tuning configured Transmit Queue Length of eth0 is 7, current value is 1000",
    );
  });
});

describe("tuning's kernel errors", () => {
  test("a refused link change reads as netlink's errno text, as the reference's", async () => {
    expect(
      linkError(
        new KernelError(
          "other",
          "ip link set dev eth0 address 01:00:00:00:00:01: RTNETLINK answers: Cannot assign requested address",
        ),
      ).message,
    ).toBe("cannot assign requested address");
    expect(
      linkError(new KernelError("invalid", "ip link set dev eth0 mtu 10: mtu less than device minimum")).message,
    ).toBe("invalid argument");
    expect(linkError(new KernelError("not-found", "gone")).message).toBe("gone");
  });
});
