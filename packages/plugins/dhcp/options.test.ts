import { describe, expect, test } from "bun:test";
import {
  classlessRoutes,
  clientIdOption,
  clientIdText,
  maskPrefix,
  parseOptionName,
  prepareOptions,
} from "./options.ts";
import { Opt } from "./packet.ts";

const text = (b: Uint8Array | undefined): string => new TextDecoder().decode(b);

describe("the reference's request/provide options and client id", () => {
  test("prepareOptions requests router and subnet mask by default, after the user's own", () => {
    expect([...(prepareOptions("", [], [{ option: "121" }]).get(Opt.ParameterRequestList) ?? [])]).toEqual([121, 3, 1]);
    expect([...(prepareOptions("", [], []).get(Opt.ParameterRequestList) ?? [])]).toEqual([3, 1]);
  });

  test("skipDefault drops the default requests, and with nothing requested no list is set", () => {
    expect([
      ...(prepareOptions("", [], [{ skipDefault: true, option: "host-name" }]).get(Opt.ParameterRequestList) ?? []),
    ]).toEqual([12]);
    expect(prepareOptions("", [], [{ skipDefault: true }]).has(Opt.ParameterRequestList)).toBe(false);
  });

  test("provide takes a literal value, then a value from CNI_ARGS which wins", () => {
    const o = prepareOptions(
      "K8S_POD_NAME=web-1;IgnoreUnknown=1",
      [
        { option: "host-name", value: "fixed", fromArg: "K8S_POD_NAME" },
        { option: "60", value: "vendor" },
      ],
      [],
    );
    expect(text(o.get(Opt.HostName))).toBe("web-1");
    expect(text(o.get(Opt.ClassId))).toBe("vendor");
    expect(
      text(
        prepareOptions("", [{ option: "host-name", value: "fixed", fromArg: "K8S_POD_NAME" }], []).get(Opt.HostName),
      ),
    ).toBe("fixed");
  });

  test("an unknown option name or a value over 255 bytes is refused in the reference's words", () => {
    expect(() => parseOptionName("bogus")).toThrow(
      'Can not parse option "bogus": Can not parse option: strconv.ParseUint: parsing "bogus": invalid syntax',
    );
    expect(() => prepareOptions("", [{ option: "host-name", value: "x".repeat(256) }], [])).toThrow(
      'value too long for option "host-name"',
    );
    expect(parseOptionName("routers")).toBe(3);
    expect(parseOptionName("250")).toBe(250);
  });

  test("the client id is <containerID>/<network>/<ifname> cut to 254 bytes, sent as type 0", () => {
    expect(clientIdText("c1", "net", "eth0")).toBe("c1/net/eth0");
    expect(clientIdText("x".repeat(300), "net", "eth0")).toHaveLength(254);
    expect([...clientIdOption("ab")]).toEqual([0, 97, 98]);
  });

  test("maskPrefix reads contiguous masks only", () => {
    expect(maskPrefix(Uint8Array.of(255, 255, 255, 0))).toBe(24);
    expect(maskPrefix(Uint8Array.of(255, 255, 255, 255))).toBe(32);
    expect(maskPrefix(Uint8Array.of(0, 0, 0, 0))).toBe(0);
    expect(maskPrefix(Uint8Array.of(255, 0, 255, 0))).toBeUndefined();
  });

  test("option 121 routes with a 0.0.0.0 router are on-link (scope link), as the reference", () => {
    expect(classlessRoutes(Uint8Array.of(24, 198, 18, 9, 0, 0, 0, 0, 0, 198, 18, 1, 1))).toEqual([
      { dst: "198.18.9.0/24", gw: "0.0.0.0", scope: 253 },
      { dst: "0.0.0.0/0", gw: "198.18.1.1" },
    ]);
  });
});
