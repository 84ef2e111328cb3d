import { describe, expect, test } from "bun:test";
import { parseDaemonFlags } from "./daemon.ts";
import { parseGoDuration } from "./duration.ts";

describe("the daemon's flags, as the reference's Go flag set reads them", () => {
  test("defaults: /run/cni/dhcp.sock, 10 s timeout, 62 s resendmax, 208 s resendtimeout, no broadcast", () => {
    expect(parseDaemonFlags([])).toEqual({
      pidfile: "",
      hostprefix: "",
      socketpath: "/run/cni/dhcp.sock",
      statedir: "/var/lib/cni/dhcp",
      broadcast: false,
      timeoutMs: 10_000,
      resendMaxMs: 62_000,
      resendTimeoutMs: 208_000,
    });
  });

  test("-flag value, -flag=value, --flag and a bare -broadcast are all accepted", () => {
    const f = parseDaemonFlags([
      "-socketpath",
      "/tmp/d.sock",
      "--hostprefix=/host",
      "-broadcast",
      "-timeout=1m30s",
      "--resendmax",
      "500ms",
      "-statedir",
      "/tmp/s",
    ]);
    expect(f).toMatchObject({
      socketpath: "/tmp/d.sock",
      hostprefix: "/host",
      broadcast: true,
      timeoutMs: 90_000,
      resendMaxMs: 500,
      statedir: "/tmp/s",
    });
    expect(parseDaemonFlags(["-broadcast=false"]).broadcast).toBe(false);
  });

  test("an unknown flag, a missing value or a bad duration is refused in Go's words", () => {
    expect(() => parseDaemonFlags(["-nope"])).toThrow("flag provided but not defined: -nope");
    expect(() => parseDaemonFlags(["-timeout"])).toThrow("flag needs an argument: -timeout");
    expect(() => parseDaemonFlags(["-timeout", "10"])).toThrow('invalid duration "10"');
  });

  test("parseGoDuration reads Go's units and sums them", () => {
    expect(parseGoDuration("1h2m3.5s")).toBe(3_723_500);
    expect(parseGoDuration("250ms")).toBe(250);
    expect(parseGoDuration("0")).toBe(0);
    expect(() => parseGoDuration("5x")).toThrow('invalid duration "5x"');
  });
});
