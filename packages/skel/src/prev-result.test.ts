import { describe, expect, test } from "bun:test";
import { CniError } from "@tscni/spec";
import { parsePrevResult } from "./prev-result.ts";

describe("parsePrevResult (§3.8)", () => {
  test("no prevResult means nothing to parse (PR-1)", () => {
    expect(parsePrevResult({ cniVersion: "1.0.0" })).toBeUndefined();
    expect(parsePrevResult({ cniVersion: "1.0.0", prevResult: null })).toBeUndefined();
  });

  test("a prevResult of the config's family is returned at 1.1.0 (PR-3)", () => {
    const prevResult = {
      cniVersion: "0.4.0",
      ips: [{ version: "4", address: "198.18.0.2/24", interface: 0 }],
      interfaces: [{ name: "eth0" }],
    };
    const r = parsePrevResult({ cniVersion: "0.3.1", prevResult });
    expect(r).toMatchObject({
      cniVersion: "1.1.0",
      interfaces: [{ name: "eth0" }],
      ips: [{ address: "198.18.0.2/24", interface: 0 }],
    });
  });

  test("a prevResult without cniVersion is read at the config version (PR-2)", () => {
    const r = parsePrevResult({ cniVersion: "0.2.0", prevResult: { ip4: { ip: "198.18.0.2/24" } } });
    expect(r?.ips?.[0]?.address).toBe("198.18.0.2/24");
  });

  test("a prevResult of another family fails to parse (PR-2)", () => {
    let err: unknown;
    try {
      parsePrevResult({ cniVersion: "1.0.0", prevResult: { cniVersion: "0.4.0" } });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(CniError);
    // v1.1.1 (Debian) differs: code 999; SPEC §4.2 gives a version clash code 1
    expect((err as CniError).code).toBe(1);
    expect((err as CniError).msg).toBe(
      'could not parse prevResult: result type supports [1.0.0 1.1.0] but unmarshalled CNIVersion is "0.4.0"',
    );
  });

  test("a prevResult that does not decode is code 6 (§4.2 decoding failure)", () => {
    let err: unknown;
    try {
      parsePrevResult({ cniVersion: "1.0.0", prevResult: { cniVersion: "1.0.0", ips: 5 } });
    } catch (e) {
      err = e;
    }
    // v1.1.1 (Debian) differs: code 999; SPEC §4.2 gives code 6
    expect((err as CniError).code).toBe(6);
    expect((err as CniError).msg).toStartWith("could not parse prevResult: ");
  });
});
