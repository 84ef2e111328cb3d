/**
 * Model-based tests: random ADD/DEL/CHECK/GC sequences across containers and interface
 * names, on the memory store and on the disk store, against a model that predicts each
 * allocation (round-robin after last_reserved_ip, gateways skipped).
 */
import { describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { allocate, release } from "./allocate.ts";
import { allocationAddress } from "./allocator.ts";
import { type IPAMConfig, loadIPAMConfig } from "./config.ts";
import { type IP, formatIP, ipEqual, nextIP } from "@tscni/spec/ipnet";
import { collectGarbage } from "./maintenance.ts";
import { type RangeSet, rangeSetString } from "./range-set.ts";
import { MemoryStore } from "./store-memory.ts";
import { formatHolder, parseHolder, type Store } from "./store.ts";
import { openDiskStore } from "./store-disk.ts";
import { AttachmentIndex, indexDirOf } from "./store-disk-index.ts";

const loaded = loadIPAMConfig({
  name: "net1",
  cniVersion: "1.1.0",
  ipam: {
    ranges: [
      [{ subnet: "198.18.0.0/29", gateway: "198.18.0.3" }, { subnet: "198.18.1.0/30" }],
      [{ subnet: "2001:db8::/120", rangeStart: "2001:db8::10", rangeEnd: "2001:db8::15", gateway: "2001:db8::12" }],
    ],
  },
});
if (!loaded.ok) throw new Error(loaded.error);
const CONF: IPAMConfig = loaded.value;

/** Every candidate of a set in walk order, gateways left out. */
function candidates(set: RangeSet): IP[] {
  const out: IP[] = [];
  for (const r of set) {
    for (let ip: IP | undefined = r.rangeStart; ip !== undefined && ip.value <= r.rangeEnd.value; ip = nextIP(ip)) {
      if (!ipEqual(ip, r.gateway)) out.push(ip);
    }
  }
  return out;
}
const WALKS = CONF.ranges.map(candidates);

interface Model {
  /** holder -> formatted addresses, one per range set */
  held: Map<string, string[]>;
  last: (string | undefined)[];
}

interface Real {
  store: Store;
  /** The reservations on the store's medium: address -> holder text. */
  reservations(): Map<string, string>;
}

/** How often a later set ran out after an earlier one reserved: the rollback path. */
let exhaustedAfterPartial = 0;

const CIDS = ["c1", "c2", "c3", "c4", "c5", "c6", "c7"];
const IFS = ["eth0", "net1"];
const attachment = fc.record({ id: fc.constantFrom(...CIDS), ifname: fc.constantFrom(...IFS) });

/** The address each set hands out next; stops at the first exhausted set. */
function predict(m: Model): { picks: string[]; complete: boolean } {
  const taken = new Set([...m.held.values()].flat());
  const picks: string[] = [];
  for (const [i, walk] of WALKS.entries()) {
    const names = walk.map(formatIP);
    const at = m.last[i] === undefined ? -1 : names.indexOf(m.last[i] as string);
    const rotated = [...names.slice(at + 1), ...names.slice(0, at + 1)];
    const pick = rotated.find((n) => !taken.has(n));
    if (pick === undefined) return { picks, complete: false };
    picks.push(pick);
  }
  return { picks, complete: true };
}

function checkInvariants(m: Model, r: Real): void {
  const expected = new Map<string, string>();
  for (const [holder, ips] of m.held) for (const ip of ips) expected.set(ip, holder);
  expect(r.reservations()).toEqual(expected);
}

class Add implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly id: string,
    readonly ifname: string,
  ) {}
  check = () => true;
  async run(m: Model, r: Real): Promise<void> {
    const key = formatHolder(this.id, this.ifname);
    const out = await allocate(CONF, r.store, this.id, this.ifname);
    if (m.held.has(key)) {
      // A second ADD without DEL never takes a second address (duplicate allocation).
      expect(out.ok ? "" : out.error).toContain("duplicate allocation is not allowed");
    } else {
      const { picks, complete } = predict(m);
      // Sets before the exhausted one did reserve (and record last_reserved_ip) before the undo.
      m.last = [...picks, ...m.last.slice(picks.length)];
      if (!complete) {
        expect(out.ok ? "" : out.error).toBe(
          `failed to allocate for range ${picks.length}: no IP addresses available in range set: ${rangeSetString(CONF.ranges[picks.length]!)}`,
        );
        if (picks.length > 0) exhaustedAfterPartial++;
      } else {
        expect(out.ok && out.value.map((a) => formatIP(a.ip))).toEqual(picks);
        expect(out.ok && out.value.map(allocationAddress)[0]).toMatch(/\/(29|30)$/);
        m.held.set(key, picks);
      }
    }
    checkInvariants(m, r);
  }
  toString = () => `add(${this.id},${this.ifname})`;
}

class Del implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly id: string,
    readonly ifname: string,
  ) {}
  check = () => true;
  async run(m: Model, r: Real): Promise<void> {
    await release(r.store, this.id, this.ifname);
    m.held.delete(formatHolder(this.id, this.ifname));
    checkInvariants(m, r);
  }
  toString = () => `del(${this.id},${this.ifname})`;
}

class Check implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly id: string,
    readonly ifname: string,
  ) {}
  check = () => true;
  async run(m: Model, r: Real): Promise<void> {
    expect(await r.store.findByID(this.id, this.ifname)).toBe(m.held.has(formatHolder(this.id, this.ifname)));
  }
  toString = () => `check(${this.id},${this.ifname})`;
}

class Gc implements fc.AsyncCommand<Model, Real> {
  constructor(readonly valid: { id: string; ifname: string }[]) {}
  check = () => true;
  async run(m: Model, r: Real): Promise<void> {
    const report = await collectGarbage(
      r.store,
      this.valid.map((a) => ({ containerID: a.id, ifname: a.ifname })),
    );
    expect(report.errors).toEqual([]);
    const keep = new Set(this.valid.map((a) => formatHolder(a.id, a.ifname)));
    for (const key of [...m.held.keys()]) if (!keep.has(key)) m.held.delete(key);
    checkInvariants(m, r);
  }
  toString = () => `gc(${this.valid.map((a) => `${a.id}/${a.ifname}`).join(" ")})`;
}

const commands = fc.commands(
  [
    attachment.map((a) => new Add(a.id, a.ifname)),
    attachment.map((a) => new Add(a.id, a.ifname)),
    attachment.map((a) => new Del(a.id, a.ifname)),
    attachment.map((a) => new Check(a.id, a.ifname)),
    fc.array(attachment, { maxLength: 6 }).map((v) => new Gc(v)),
  ],
  { maxCommands: 40 },
);

async function releaseAll(m: Model, r: Real): Promise<void> {
  for (const key of m.held.keys()) {
    const h = parseHolder(key);
    await release(r.store, h.id, h.ifname ?? "");
  }
  expect(r.reservations().size).toBe(0);
}

describe("allocation never duplicates, never leaks and follows the round-robin order", () => {
  test("on the memory store", async () => {
    await fc.assert(
      fc.asyncProperty(commands, async (cmds) => {
        const store = new MemoryStore();
        const real: Real = {
          store,
          reservations: () =>
            new Map(
              [...store.reservations.values()].map((r) => [
                formatIP(r.ip),
                formatHolder(r.holder.id, r.holder.ifname ?? ""),
              ]),
            ),
        };
        const model: Model = { held: new Map(), last: [] };
        await fc.asyncModelRun(() => ({ model, real }), cmds);
        await releaseAll(model, real);
      }),
      { numRuns: 150 },
    );
    // Random runs reach the rollback path most of the time, not always: one fixed run
    // through the same model makes sure it is exercised (the IPv6 set runs out first).
    const store = new MemoryStore();
    const real: Real = {
      store,
      reservations: () =>
        new Map(
          [...store.reservations.values()].map((r) => [
            formatIP(r.ip),
            formatHolder(r.holder.id, r.holder.ifname ?? ""),
          ]),
        ),
    };
    const model: Model = { held: new Map(), last: [] };
    await fc.asyncModelRun(
      () => ({ model, real }),
      CIDS.map((id) => new Add(id, "eth0")),
    );
    expect(exhaustedAfterPartial).toBeGreaterThan(0);
    await releaseAll(model, real);
  });

  test("on the disk store, leaving only lock and last_reserved_ip.* behind", async () => {
    await fc.assert(
      fc.asyncProperty(commands, async (cmds) => {
        const root = mkdtempSync(join(tmpdir(), "tscni-ipam-model-"));
        const store = openDiskStore(root, "net1");
        const dir = join(root, "net1");
        const real: Real = {
          store,
          reservations: () =>
            new Map(
              readdirSync(dir)
                .filter((n) => n !== "lock" && !n.startsWith("last_reserved_ip."))
                .map((n) => [n, readFileSync(join(dir, n), "utf8")]),
            ),
        };
        try {
          const model: Model = { held: new Map(), last: [] };
          await fc.asyncModelRun(() => ({ model, real }), cmds);
          await releaseAll(model, real);
          const left = readdirSync(dir);
          expect(left.every((n) => n === "lock" || /^last_reserved_ip\.[01]$/.test(n))).toBe(true);
          expect(existsSync(indexDirOf(dir))).toBe(false); // nothing of ours is left (issue 14)
        } finally {
          await store.close();
          rmSync(root, { recursive: true, force: true });
        }
      }),
      { numRuns: 25 },
    );
  });
});
