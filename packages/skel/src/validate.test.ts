import { describe, expect, test } from "bun:test";
import { validateContainerID, validateInterfaceName, validateNetworkName } from "./validate.ts";

describe("validateContainerID (VAL-2)", () => {
  test("accepts IDs matching the name regex", () => {
    for (const id of ["a", "0", "ctr-1", "c_1.x-Y"]) expect(validateContainerID(id)).toBeUndefined();
  });
  test("rejects other characters with code 4 and the ID as details", () => {
    for (const id of ["-a", "a b", "a/b", ".a", "ä"]) {
      const e = validateContainerID(id);
      expect(e?.code).toBe(4);
      expect(e?.msg).toBe("invalid characters in containerID");
      expect(e?.details).toBe(id);
    }
  });
});

describe("validateInterfaceName (VAL-3)", () => {
  test("accepts ordinary names up to 15 bytes", () => {
    for (const n of ["eth0", "lo", "a", "x".repeat(15), "veth-1.2_3"]) expect(validateInterfaceName(n)).toBeUndefined();
  });
  test("an empty name is code 4", () => {
    expect(validateInterfaceName("")?.msg).toBe("interface name is empty");
  });
  test("a name over 15 bytes is too long, counting UTF-8 bytes", () => {
    const e = validateInterfaceName("x".repeat(16));
    expect(e?.msg).toBe("interface name is too long");
    expect(e?.details).toBe("interface name should be less than 16 characters");
    expect(validateInterfaceName("é".repeat(8))?.msg).toBe("interface name is too long");
  });
  test(". and .. are rejected", () => {
    expect(validateInterfaceName(".")?.msg).toBe("interface name is . or ..");
    expect(validateInterfaceName("..")?.msg).toBe("interface name is . or ..");
  });
  test("/, : and Unicode whitespace are rejected", () => {
    for (const n of ["a/b", "eth0:1", "a b", "a\tb", "a\u00a0b", "a\u0085b", "a\u3000b"]) {
      expect(validateInterfaceName(n)?.msg).toBe("interface name contains / or : or whitespace characters");
      expect(validateInterfaceName(n)?.code).toBe(4);
    }
  });
});

describe("validateNetworkName (VAL-1)", () => {
  test("an empty name is code 7 missing network name", () => {
    expect(validateNetworkName("")?.code).toBe(7);
    expect(validateNetworkName("")?.msg).toBe("missing network name");
  });
  test("a name failing the regex is code 7 with the name as details", () => {
    const e = validateNetworkName("my net");
    expect(e?.code).toBe(7);
    expect(e?.msg).toBe("invalid characters found in network name");
    expect(e?.details).toBe("my net");
  });
  test("a valid name passes", () => {
    expect(validateNetworkName("tscni-net.1_a")).toBeUndefined();
  });
});
