import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { GobDecoder, GobEncoder, T } from "./gob.ts";
import { fromGoResult, toGoResult } from "./rpc-result.ts";
import { CmdArgs, Empty, Request, Response, Result } from "./rpc-types.ts";

const fixture = (name: string): Uint8Array =>
  new Uint8Array(Buffer.from(readFileSync(join(import.meta.dir, "fixtures", `${name}.hex`), "utf8").trim(), "hex"));

function all(b: Uint8Array): unknown[] {
  const d = new GobDecoder();
  d.push(b);
  const out: unknown[] = [];
  for (let v = d.next(); v !== undefined; v = d.next()) out.push(v);
  return out;
}

const STDIN_PREFIX = '{"cniVersion":"1.0.0","name":"dnet"';

describe("gob as the reference v1.1.1 speaks it (fixtures/capture-rpc.ts)", () => {
  test("the reference plugin's call decodes to rpc.Request and skel.CmdArgs", () => {
    const [req, args] = all(fixture("go-rpc-request")) as Record<string, unknown>[];
    expect(req).toEqual({ ServiceMethod: "DHCP.Allocate" }); // Seq 0 is left out as a zero value
    expect(args?.ContainerID).toBe("ctr1");
    expect(args?.Netns).toBe("/var/run/netns/fixture");
    expect(args?.IfName).toBe("eth0");
    expect(args?.Args).toBe("K8S_POD_NAME=web");
    expect(args?.Path).toBe("/usr/lib/cni");
    expect(new TextDecoder().decode(args?.StdinData as Uint8Array).startsWith(STDIN_PREFIX)).toBe(true);
  });

  test("our encoder writes the reference plugin's call byte for byte (type definitions included)", () => {
    const [, args] = all(fixture("go-rpc-request")) as Record<string, unknown>[];
    const enc = new GobEncoder();
    const ours = Uint8Array.from([
      ...enc.encode(Request, { ServiceMethod: "DHCP.Allocate", Seq: 0 }),
      ...enc.encode(CmdArgs, args),
    ]);
    expect(Buffer.from(ours).toString("hex")).toBe(Buffer.from(fixture("go-rpc-request")).toString("hex"));
  });

  test("the reference daemon's Allocate reply decodes to our result (net.IP as bytes, masks as prefixes)", () => {
    const [resp, result] = all(fixture("go-rpc-allocate-reply")) as Record<string, unknown>[];
    expect(resp).toEqual({ ServiceMethod: "DHCP.Allocate" });
    const r = fromGoResult(result as Record<string, unknown>);
    expect(r.ips?.[0]?.address).toMatch(/^198\.18\.69\.\d+\/24$/);
    expect(r.ips?.[0]?.gateway).toBe("198.18.69.1");
    expect(r.routes).toEqual([{ dst: "0.0.0.0/0", gw: "198.18.69.1" }]);
  });

  test("an error reply carries Response.Error and an empty struct body", () => {
    const [resp, body] = all(fixture("go-rpc-unknown-reply")) as Record<string, unknown>[];
    expect(resp).toEqual({ ServiceMethod: "DHCP.Nope", Error: "rpc: can't find method DHCP.Nope" });
    expect(body).toEqual({});
  });

  test("our Response and Result decode back to what was sent, routes' 1.1.0 fields and IPv6 included", () => {
    const sent = {
      cniVersion: "1.1.0",
      ips: [{ address: "198.18.3.7/24", gateway: "198.18.3.1" }, { address: "2001:db8::7/64" }],
      routes: [
        { dst: "198.18.9.0/24", gw: "0.0.0.0", scope: 253, priority: 5 },
        { dst: "0.0.0.0/0", gw: "198.18.3.1" },
      ],
      dns: { nameservers: ["198.18.3.1"], search: ["example"] },
    };
    const enc = new GobEncoder();
    const bytes = Uint8Array.from([
      ...enc.encode(Response, { ServiceMethod: "DHCP.Allocate", Seq: 3 }),
      ...enc.encode(Result, toGoResult(sent)),
      ...enc.encode(Response, { ServiceMethod: "DHCP.Release", Seq: 4 }),
      ...enc.encode(Empty, {}),
    ]);
    const [resp, result, resp2, empty] = all(bytes) as Record<string, unknown>[];
    expect(resp).toEqual({ ServiceMethod: "DHCP.Allocate", Seq: 3 });
    expect(fromGoResult(result as Record<string, unknown>)).toEqual(sent);
    expect(resp2).toEqual({ ServiceMethod: "DHCP.Release", Seq: 4 });
    expect(empty).toEqual({});
  });

  test("the decoder waits for a whole message and reads large uints and negative ints", () => {
    const enc = new GobEncoder();
    const t = {
      kind: "struct",
      name: "N",
      fields: [
        ["U", T.uint],
        ["I", T.int],
      ],
    } as const;
    const bytes = enc.encode(t, { U: 300000, I: -129 });
    const d = new GobDecoder();
    d.push(bytes.subarray(0, 5));
    expect(d.next()).toBeUndefined();
    d.push(bytes.subarray(5));
    expect(d.next()).toEqual({ U: 300000, I: -129 });
  });
});
