import { describe, expect, test } from "bun:test";
import { backoffRetry } from "./backoff.ts";
import { FakeClock } from "./fake-clock.testing.ts";
import { type LeaseActions, type LeaseState, type LeaseTimes, leaseTimes, maintain } from "./lease.ts";
import { type DhcpMessage, MessageType, Opt } from "./packet.ts";

function ack(lease?: number, t1?: number, t2?: number): DhcpMessage {
  const u32 = (n: number): Uint8Array => {
    const b = new Uint8Array(4);
    new DataView(b.buffer).setUint32(0, n);
    return b;
  };
  const options = new Map<number, Uint8Array>([[Opt.MessageType, Uint8Array.of(MessageType.Ack)]]);
  if (lease !== undefined) options.set(Opt.LeaseTime, u32(lease));
  if (t1 !== undefined) options.set(Opt.RenewalTime, u32(t1));
  if (t2 !== undefined) options.set(Opt.RebindingTime, u32(t2));
  return {
    op: 2,
    xid: 1,
    secs: 0,
    flags: 0,
    ciaddr: "0.0.0.0",
    yiaddr: "198.18.5.10",
    siaddr: "0.0.0.0",
    giaddr: "0.0.0.0",
    chaddr: new Uint8Array(6),
    options,
  };
}

interface Harness {
  clock: FakeClock;
  events: string[];
  stop: AbortController;
  check: AbortController;
  done: Promise<LeaseState>;
  renewOk: boolean;
  rebindOk: boolean;
  link: boolean;
}

/** Runs `maintain` on a 100 s lease (T1 50 s, T2 85 s) with scripted outcomes; each failed exchange costs 10 s of fake time. */
function start(): Harness {
  const clock = new FakeClock();
  const h = {
    clock,
    events: [] as string[],
    stop: new AbortController(),
    check: new AbortController(),
    renewOk: true,
    rebindOk: true,
    link: true,
  } as Harness;
  const first = ack(100);
  const attempt = async (ok: boolean, what: string): Promise<DhcpMessage> => {
    h.events.push(`${what}@${(clock.now() - 1_000_000) / 1000}`);
    if (ok) return ack(100);
    await clock.sleep(10_000, new AbortController().signal);
    throw new Error(`${what} failed`);
  };
  const act: LeaseActions = {
    renew: () => attempt(h.renewOk, "renew"),
    rebind: () => attempt(h.rebindOk, "rebind"),
    release: () => void h.events.push("release"),
    linkExists: () => h.link,
    linkDown: () => void h.events.push("down"),
    committed: (_a: DhcpMessage, t: LeaseTimes) =>
      void h.events.push(`commit expires@${(t.expireAt - 1_000_000) / 1000}`),
    log: () => {},
  };
  h.done = maintain(
    { ack: first, times: leaseTimes(first, clock.now()) },
    act,
    clock,
    h.stop.signal,
    () => h.check.signal,
  );
  return h;
}

describe("the lease state machine (RFC 2131 section 4.4.5) under a fake clock", () => {
  test("leaseTimes takes T1 and T2 from options 58 and 59, else half and 85 % of the lease, else a 1 h lease", () => {
    expect(leaseTimes(ack(100, 10, 20), 0)).toEqual({ renewAt: 10_000, rebindAt: 20_000, expireAt: 100_000 });
    expect(leaseTimes(ack(100), 0)).toEqual({ renewAt: 50_000, rebindAt: 85_000, expireAt: 100_000 });
    expect(leaseTimes(ack(), 0)).toEqual({ renewAt: 1_800_000, rebindAt: 3_060_000, expireAt: 3_600_000 });
  });

  test("a bound lease is renewed at T1 and then again at the new T1", async () => {
    const h = start();
    await h.clock.advance(49_000);
    expect(h.events).toEqual([]);
    await h.clock.advance(1_000);
    expect(h.events).toEqual(["renew@50", "commit expires@150"]);
    await h.clock.advance(50_000);
    expect(h.events).toEqual(["renew@50", "commit expires@150", "renew@100", "commit expires@200"]);
    h.stop.abort();
    expect(await h.done).toBe("released");
    expect(h.events.at(-1)).toBe("release");
  });

  test("renewals that keep failing past T2 turn into rebinding, which succeeds", async () => {
    const h = start();
    h.renewOk = false;
    await h.clock.advance(90_000);
    h.rebindOk = true;
    await h.clock.advance(10_000);
    expect(h.events.filter((e) => e.startsWith("renew"))).toEqual(["renew@50", "renew@60", "renew@70", "renew@80"]);
    expect(h.events).toContain("rebind@90");
    expect(h.events).toContain("commit expires@190");
    h.stop.abort();
    await h.done;
  });

  test("when neither renewing nor rebinding works the lease expires and the interface goes down", async () => {
    const h = start();
    h.renewOk = false;
    h.rebindOk = false;
    await h.clock.advance(200_000);
    expect(await h.done).toBe("expired");
    expect(h.events.at(-1)).toBe("down");
    expect(h.events).not.toContain("release");
  });

  test("a lease whose interface is gone stops being maintained without a release", async () => {
    const h = start();
    h.link = false;
    h.check.abort(); // CHECK wakes the loop, which then sees the link gone
    expect(await h.done).toBe("gone");
    expect(h.events).toEqual([]);
  });

  test("stop releases the lease at once, even in the middle of a long sleep", async () => {
    const h = start();
    await h.clock.advance(10_000);
    h.stop.abort();
    expect(await h.done).toBe("released");
    expect(h.events).toEqual(["release"]);
  });
});

describe("backoffRetry (lease.go backoffRetry)", () => {
  test("retries 4 times 2 s apart, then 8 s doubling up to resendmax, and gives up with 'no more tries'", async () => {
    const clock = new FakeClock();
    const at: number[] = [];
    const run = backoffRetry(
      clock,
      { resendMaxMs: 16_000, resendTimeoutMs: 60_000, random: () => 0.5 },
      new AbortController().signal,
      async () => {
        at.push((clock.now() - 1_000_000) / 1000);
        throw new Error("no");
      },
      () => {},
    );
    const outcome = run.then(
      () => "ok",
      (e: Error) => e.message,
    );
    await clock.advance(120_000);
    // The pause doubles already after the 4th fast retry (lease.go adjusts baseDelay once fastRetryLimit hits 0).
    expect(at).toEqual([0, 2, 4, 6, 8, 16, 32, 48]);
    expect(await outcome).toBe("no more tries");
  });

  test("returns the first success", async () => {
    const clock = new FakeClock();
    let n = 0;
    const run = backoffRetry(
      clock,
      { resendMaxMs: 62_000, resendTimeoutMs: 208_000, random: () => 0.5 },
      new AbortController().signal,
      async () => {
        if (++n < 3) throw new Error("no");
        return n;
      },
      () => {},
    );
    await clock.advance(10_000);
    expect(await run).toBe(3);
  });
});
