import { describe, expect, test } from "bun:test";
import { CniError } from "@tscni/spec";
import { validateContainerID, validateInterfaceName, validateNetworkName } from "./validate-ids.ts";

function failure(fn: () => void): [number, string, string] | undefined {
  try {
    fn();
    return undefined;
  } catch (err) {
    const e = err as CniError;
    return [e.code, e.msg, e.details];
  }
}

describe("identifier validation on ADD", () => {
  test("an empty container ID is code 3, bad characters code 4 (VAL-2)", () => {
    expect(failure(() => validateContainerID(""))).toEqual([3, "missing containerID", ""]);
    expect(failure(() => validateContainerID("-x"))).toEqual([4, "invalid characters in containerID", "-x"]);
    expect(failure(() => validateContainerID("cnitool-0123abc_.-"))).toBeUndefined();
  });

  test("a network name is code 7 when empty or badly formed (VAL-1)", () => {
    expect(failure(() => validateNetworkName(""))).toEqual([7, "missing network name:", ""]);
    expect(failure(() => validateNetworkName("a/b"))).toEqual([7, "invalid characters found in network name", "a/b"]);
  });

  test("an interface name follows the kernel's rules, all code 4 (VAL-3)", () => {
    expect(failure(() => validateInterfaceName(""))).toEqual([4, "interface name is empty", ""]);
    expect(failure(() => validateInterfaceName("a".repeat(16)))).toEqual([
      4,
      "interface name is too long",
      "interface name should be less than 16 characters",
    ]);
    expect(failure(() => validateInterfaceName("é".repeat(8)))?.[1]).toBe("interface name is too long"); // 16 bytes
    expect(failure(() => validateInterfaceName(".."))?.[1]).toBe("interface name is . or ..");
    for (const bad of ["a/b", "a:b", "a b", "a\u00a0b", "a\u0085b"]) {
      expect(failure(() => validateInterfaceName(bad))?.[1]).toBe(
        "interface name contains / or : or whitespace characters",
      );
    }
    expect(failure(() => validateInterfaceName("a".repeat(15)))).toBeUndefined();
  });
});
