import { describe, expect, test } from "bun:test";
import { CniError, ErrorCode } from "./error.ts";
import { createResult, parseResult } from "./parse.ts";

function errorOf(fn: () => unknown): CniError {
  try {
    fn();
  } catch (err) {
    if (err instanceof CniError) return err;
    throw err;
  }
  throw new Error("expected a CniError");
}

describe("parseResult picks the parser from cniVersion (RP-1)", () => {
  test("a 1.x result parses with the 1.x type", () => {
    expect(parseResult('{"cniVersion":"1.1.0","ips":[{"address":"10.1.0.5/16","interface":0}]}')).toEqual({
      cniVersion: "1.1.0",
      ips: [{ address: "10.1.0.5/16", interface: 0 }],
    });
  });

  test("a 0.3.1 result parses with the 0.4.0 type and keeps its label", () => {
    expect(parseResult('{"cniVersion":"0.3.1","ips":[{"version":"4","address":"10.1.0.5/16"}]}').cniVersion).toBe(
      "0.3.1",
    );
  });

  test("a result without cniVersion is read as 0.1.0", () => {
    expect(parseResult('{"ip4":{"ip":"10.0.0.2/8"}}')).toEqual({
      cniVersion: "0.1.0",
      ip4: { ip: "10.0.0.2/8" },
      dns: {},
    });
    expect(parseResult('{"cniVersion":"","ip4":{"ip":"10.0.0.2/8"}}').cniVersion).toBe("0.1.0");
  });

  test("an unknown version fails with code 1 and upstream's message", () => {
    const err = errorOf(() => parseResult('{"cniVersion":"1.2.0"}'));
    expect(err.code).toBe(ErrorCode.IncompatibleCNIVersion);
    expect(err.msg).toBe('unsupported CNI result version "1.2.0"');
  });

  test("bytes, text and decoded objects give the same result", () => {
    const text = '{"cniVersion":"0.4.0","ips":[{"version":"6","address":"2001:DB8::2/64"}]}';
    const expected = parseResult(text);
    expect(parseResult(new TextEncoder().encode(text))).toEqual(expected);
    expect(parseResult(JSON.parse(text))).toEqual(expected);
    expect(expected.cniVersion).toBe("0.4.0");
  });

  test("addresses come out in Go's canonical text", () => {
    const r = parseResult(
      '{"cniVersion":"1.0.0","ips":[{"address":"::FFFF:10.0.0.2/120","gateway":"2001:0DB8:0:0:0:0:0:1"}]}',
    );
    expect(r).toEqual({ cniVersion: "1.0.0", ips: [{ address: "10.0.0.2/24", gateway: "2001:db8::1" }] });
  });

  test("keys match Go struct fields in any letter case, the last one winning", () => {
    expect(parseResult('{"CNIVERSION":"0.4.0","IPs":[{"Version":"4","ADDRESS":"10.0.0.1/8"}]}')).toEqual({
      cniVersion: "0.4.0",
      ips: [{ version: "4", address: "10.0.0.1/8" }],
      dns: {},
    });
    expect(parseResult('{"cniVersion":"0.4.0","cniversion":"1.0.0"}').cniVersion).toBe("1.0.0");
    // The Kelvin sign folds to K, as in Go's foldName.
    expect(parseResult('{"cniVersion":"1.0.0","interfaces":[{"name":"e","soc\u212aetPath":"/s"}]}')).toEqual({
      cniVersion: "1.0.0",
      interfaces: [{ name: "e", socketPath: "/s" }],
    });
  });

  test("a 0.4.0 ips[].version is kept verbatim, even when it disagrees with the address", () => {
    const r = parseResult(
      '{"cniVersion":"0.4.0","ips":[{"version":"6","address":"10.0.0.1/8"},{"address":"10.0.0.2/8"}]}',
    );
    expect(r).toEqual({
      cniVersion: "0.4.0",
      ips: [
        { version: "6", address: "10.0.0.1/8" },
        { version: "", address: "10.0.0.2/8" },
      ],
      dns: {},
    });
  });
});

describe("parseResult decode errors are code 6 and name the bad field", () => {
  test("empty input is `unexpected end of JSON input`", () => {
    const err = errorOf(() => parseResult(""));
    expect(err.code).toBe(ErrorCode.DecodingFailure);
    expect(err.msg).toContain("unexpected end of JSON input");
  });

  test("invalid JSON, a byte-order mark, and a non-object are decode failures", () => {
    expect(errorOf(() => parseResult("{")).code).toBe(ErrorCode.DecodingFailure);
    expect(errorOf(() => parseResult("\uFEFF{}")).code).toBe(ErrorCode.DecodingFailure);
    expect(errorOf(() => parseResult("[]")).msg).toContain("cannot unmarshal array into result");
    expect(errorOf(() => parseResult("5")).code).toBe(ErrorCode.DecodingFailure);
  });

  test("a non-string cniVersion is a decode failure", () => {
    expect(errorOf(() => parseResult('{"cniVersion":1}')).msg).toContain(
      "cniVersion: cannot unmarshal number 1 into string",
    );
  });

  test("a bad address names its JSON path", () => {
    const err = errorOf(() => parseResult('{"cniVersion":"0.4.0","ips":[{"version":"4","address":"10.0.0.1"}]}'));
    expect(err.code).toBe(ErrorCode.DecodingFailure);
    expect(err.message).toContain("ips[0].address");
  });

  test("number literals Go cannot put in an int are rejected by their text", () => {
    expect(errorOf(() => parseResult('{"cniVersion":"1.0.0","interfaces":[{"name":"e","mtu":1.0}]}')).msg).toContain(
      "interfaces[0].mtu: cannot unmarshal number 1.0 into int",
    );
    expect(errorOf(() => parseResult('{"cniVersion":"1.0.0","routes":[{"dst":"::/0","table":1e2}]}')).msg).toContain(
      "number 1e2",
    );
    expect(
      errorOf(() => parseResult('{"cniVersion":"1.0.0","routes":[{"dst":"::/0","table":9223372036854775808}]}')).code,
    ).toBe(ErrorCode.DecodingFailure);
  });

  test("numbers Go ignores (unknown keys) may be anything", () => {
    expect(parseResult('{"cniVersion":"1.0.0","extra":1.5e300}')).toEqual({ cniVersion: "1.0.0" });
  });
});

describe("parseResult with the config's version (RP-2)", () => {
  test("a result without cniVersion takes the config's version (issue #895)", () => {
    expect(parseResult('{"ips":[{"address":"10.0.0.2/8"}]}', "1.0.0")).toEqual({
      cniVersion: "1.0.0",
      ips: [{ address: "10.0.0.2/8" }],
    });
  });

  test("a result with its own version keeps it even when the config differs", () => {
    expect(parseResult('{"cniVersion":"0.4.0"}', "1.1.0").cniVersion).toBe("0.4.0");
  });

  test("an empty or non-string cniVersion is replaced by the config's version", () => {
    expect(parseResult('{"cniVersion":""}', "1.1.0").cniVersion).toBe("1.1.0");
    expect(parseResult('{"cniVersion":7}', "0.3.1").cniVersion).toBe("0.3.1");
  });

  test("null becomes an empty result at the config's version; an empty config version is 0.1.0", () => {
    expect(parseResult("null", "1.0.0")).toEqual({ cniVersion: "1.0.0" });
    expect(parseResult("{}", "")).toEqual({ cniVersion: "0.1.0", dns: {} });
  });

  test("a differently-cased cniVersion sorting after the injected one still wins, as in Go", () => {
    const err = errorOf(() => parseResult('{"cniversion":"0.4.0"}', "1.0.0"));
    expect(err.msg).toBe('result type supports [1.0.0 1.1.0] but unmarshalled CNIVersion is "0.4.0"');
  });
});

describe("createResult checks the version against the parser's family (R02-3, R04-5, R1-1)", () => {
  test("the 0.2.0 parser accepts an empty version, 0.1.0 and 0.2.0", () => {
    expect(createResult("0.2.0", "{}").cniVersion).toBe("0.2.0");
    expect(createResult("0.2.0", '{"cniVersion":"0.1.0"}').cniVersion).toBe("0.1.0");
    expect(errorOf(() => createResult("0.1.0", '{"cniVersion":"0.4.0"}')).msg).toBe(
      'result type supports [ 0.1.0 0.2.0] but unmarshalled CNIVersion is "0.4.0"',
    );
  });

  test("the 0.4.0 parser accepts only 0.3.0, 0.3.1 and 0.4.0, not an empty version", () => {
    expect(createResult("0.3.0", '{"cniVersion":"0.4.0"}').cniVersion).toBe("0.4.0");
    expect(errorOf(() => createResult("0.4.0", "{}")).msg).toBe(
      'result type supports [0.3.0 0.3.1 0.4.0] but unmarshalled CNIVersion is ""',
    );
  });

  test("the 1.x parser rejects a 0.4.0 prevResult (PR-2's example)", () => {
    const err = errorOf(() => createResult("1.0.0", '{"cniVersion":"0.4.0"}'));
    expect(err.code).toBe(ErrorCode.IncompatibleCNIVersion);
    expect(err.msg).toBe('result type supports [1.0.0 1.1.0] but unmarshalled CNIVersion is "0.4.0"');
  });

  test("a version no parser has fails as unsupported", () => {
    expect(errorOf(() => createResult("2.0.0", "{}")).msg).toBe('unsupported CNI result version "2.0.0"');
  });
});
