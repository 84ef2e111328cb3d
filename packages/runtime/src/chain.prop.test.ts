import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import fc from "fast-check";
import type { Result } from "@tscni/spec";
import { CniRuntime } from "./cni-runtime.ts";
import { makeSandbox } from "./testing/sandbox.ts";
import type { Sandbox } from "./testing/sandbox.ts";

let sb: Sandbox;
const TYPES = ["p0", "p1", "p2", "p3"];

beforeAll(() => {
  sb = makeSandbox();
  sb.install(...TYPES);
});
afterAll(() => sb.cleanup());

const names = (r: unknown): string[] =>
  (((r as { interfaces?: { name: string }[] } | undefined)?.interfaces ?? []) as { name: string }[]).map((i) => i.name);

/** A chain: plugin types (repeats allowed) with distinct tags, a version, and maybe an ADD that fails. */
const chainArb = fc.record({
  types: fc.array(fc.constantFrom(...TYPES), { minLength: 1, maxLength: 4 }),
  version: fc.constantFrom("0.3.1", "0.4.0", "1.0.0", "1.1.0"),
  failAt: fc.option(fc.nat({ max: 3 }), { nil: undefined }),
});

describe("chains of fake plugins", () => {
  test("ADD threads each result forward, DEL runs in reverse with the final result (ADD-7, DEL-5, DEL-8)", async () => {
    await fc.assert(
      fc.asyncProperty(chainArb, async ({ types, version, failAt }) => {
        sb.reset();
        rmSync(sb.cacheDir, { recursive: true, force: true });
        const fails = failAt !== undefined && failAt < types.length ? failAt : undefined;
        const tags = types.map((t, i) => `${t}-${i}`);
        const plugins = types.map((type, i) => ({
          type,
          tag: tags[i],
          ...(i === fails ? { answer: { ADD: { stdout: '{"code":7,"msg":"no"}', exit: 1 } } } : {}),
        }));
        const list = sb.list("chain", version, plugins);
        const cni = new CniRuntime({ paths: [sb.binDir], cacheDir: sb.cacheDir });
        const rt = { containerID: "c1", netns: "/run/netns/c1", ifName: "eth0" };

        let final: Result | undefined;
        try {
          final = await cni.addNetworkList(list, rt);
        } catch {
          expect(fails).toBeDefined();
        }
        const adds = sb.calls();
        const reached = fails === undefined ? tags.length : fails + 1;
        expect(adds.map((c) => c.tag)).toEqual(tags.slice(0, reached));
        adds.forEach((call, i) => {
          const prev = (call.stdin as Record<string, unknown>).prevResult;
          if (i === 0) expect(prev).toBeUndefined();
          else expect(names(prev)).toEqual(tags.slice(0, i));
          expect((call.stdin as Record<string, unknown>).cniVersion).toBe(version);
        });
        if (fails === undefined) expect(names(final)).toEqual(tags);

        sb.reset();
        await cni.delNetworkList(list, rt);
        const dels = sb.calls();
        expect(dels.map((c) => c.tag)).toEqual([...tags].reverse());
        // The final ADD result goes to every DEL at 0.4.0+, and only when one was cached.
        const expected = version === "0.3.1" || fails !== undefined ? undefined : final;
        for (const call of dels) expect((call.stdin as Record<string, unknown>).prevResult).toEqual(expected);
        expect(await cni.getCachedAttachments()).toEqual([]);
      }),
      { numRuns: 30 },
    );
  }, 120_000);
});
