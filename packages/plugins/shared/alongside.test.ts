import { describe, expect, test } from "bun:test";
import { alongside } from "./alongside.ts";

const later = <T>(ms: number, v: T, fail = false): Promise<T> =>
  new Promise((ok, no) => setTimeout(() => (fail ? no(v) : ok(v)), ms));

describe("alongside", () => {
  test("returns the main part's value once both parts are done", async () => {
    let sideDone = false;
    const v = await alongside(
      later(1, "main"),
      later(20, null).then(() => (sideDone = true)),
    );
    expect(v).toBe("main");
    expect(sideDone).toBe(true);
  });

  test("a failed main part is thrown only after the side part has finished", async () => {
    let sideDone = false;
    const r = alongside(
      later(1, new Error("kernel"), true),
      later(20, null).then(() => (sideDone = true)),
    );
    await expect(r).rejects.toThrow("kernel");
    expect(sideDone).toBe(true);
  });

  test("when both fail, the main part's error wins; the side's alone is thrown too", async () => {
    await expect(alongside(later(5, new Error("kernel"), true), later(1, new Error("firewall"), true))).rejects.toThrow(
      "kernel",
    );
    await expect(alongside(later(1, "ok"), later(5, new Error("firewall"), true))).rejects.toThrow("firewall");
  });
});
