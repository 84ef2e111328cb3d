import { describe, expect, test } from "bun:test";
import { CniError } from "@tscni/spec";
import { configVersion, decodeConfig } from "./config.ts";

const bytes = (s: string) => new TextEncoder().encode(s);

function decoded(s: string | Uint8Array): { name?: unknown; version?: unknown; error?: string } {
  const config = decodeConfig(typeof s === "string" ? bytes(s) : s);
  if (config instanceof CniError) return { error: config.message };
  const version = configVersion(config);
  return version instanceof CniError ? { error: version.message } : { name: config.name, version };
}

describe("decodeConfig reads name and cniVersion as the Go skel's encoding/json does (§1.11 step 4)", () => {
  test("a key in another letter case is the name, or the version", () => {
    expect(decoded('{"Name":"n"}')).toEqual({ name: "n", version: "0.1.0" });
    expect(decoded('{"nAME":"n","CNIVERSION":"1.0.0"}')).toEqual({ name: "n", version: "1.0.0" });
  });

  test("every occurrence is type-checked: a wrong type before the right one fails", () => {
    expect(decoded('{"name":0,"name":"n"}').error).toBe(
      "error unmarshall network config: json: cannot unmarshal number into Go struct field .name of type string",
    );
    expect(decoded('{"name":"n","cniVersion":[],"CniVersion":"1.0.0"}').error).toBe(
      "decoding version from network config: json: cannot unmarshal array into Go struct field .cniVersion of type string",
    );
  });

  test("the last string wins and null keeps what was there", () => {
    expect(decoded('{"name":"a","NAME":"b","cniVersion":"1.0.0","cniVersion":null}')).toEqual({
      name: "b",
      version: "1.0.0",
    });
  });

  test("invalid UTF-8 becomes one U+FFFD per byte, as Go reads it", () => {
    const stdin = Uint8Array.from([...bytes('{"name":"n'), 0xed, 0x80, ...bytes('"}')]);
    const config = decodeConfig(stdin);
    expect(config instanceof CniError ? config.details : undefined).toBe("n\ufffd\ufffd");
  });
});
