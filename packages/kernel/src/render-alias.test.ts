import { describe, expect, test } from "bun:test";
import { renderOp } from "./lines.ts";
import { HOST } from "./ops.ts";
import { parseKernelBatch } from "./schema.ts";

describe("link.set alias in iproute2's words", () => {
  test("an alias renders as `alias NAME`, an empty one as a quoted empty token", () => {
    expect(
      renderOp({ op: "link.set", ns: HOST, name: "net1", newName: "nic0", alias: "" }, "/proc/1/ns/net").line,
    ).toBe('link set dev net1 name nic0 alias ""');
    expect(renderOp({ op: "link.set", ns: HOST, name: "nic0", alias: "nic0" }, "/proc/1/ns/net").line).toBe(
      "link set dev nic0 alias nic0",
    );
  });

  test("the batch schema takes an alias but not one that would break the batch line", () => {
    expect(parseKernelBatch([{ op: "link.set", ns: "host", name: "nic0", alias: "nic0" }]).ok).toBe(true);
    expect(parseKernelBatch([{ op: "link.set", ns: "host", name: "nic0", alias: "a b" }]).ok).toBe(false);
  });
});
