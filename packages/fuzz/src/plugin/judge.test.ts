import { describe, expect, test } from "bun:test";
import { type ExecOutcome, judgeExec, stackTraceLine } from "./judge.ts";

const run = (o: Partial<ExecOutcome>): string[] =>
  judgeExec({ command: "ADD", exitCode: 0, signal: null, stdout: "", stderr: "", timedOut: false, ...o }).map(
    (f) => f.kind,
  );
const ERR = '{"code":7,"msg":"bad"}';
const RES = '{"cniVersion":"1.0.0","ips":[]}';

describe("judgeExec", () => {
  test("a result on ADD success and an error on failure are fine (P-3, E-4)", () => {
    expect(run({ stdout: RES })).toEqual([]);
    expect(run({ exitCode: 1, stdout: ERR })).toEqual([]);
  });

  test("DEL, CHECK, GC and STATUS may succeed silently; ADD and VERSION may not (DEL-7, CHK-8, GC-7)", () => {
    for (const command of ["DEL", "CHECK", "GC", "STATUS", undefined]) expect(run({ command })).toEqual([]);
    expect(run({ command: "ADD" })).toEqual(["not-json"]);
    expect(run({ command: "VERSION" })).toEqual(["not-json"]);
  });

  test("a failure with nothing on stdout, or with text that is not JSON, is not-json", () => {
    expect(run({ exitCode: 1 })).toEqual(["not-json"]);
    expect(run({ exitCode: 1, stdout: "oops" })).toEqual(["not-json"]);
    expect(run({ stdout: "ok\n" })).toEqual(["not-json"]);
  });

  test("an error without a numeric code or a msg is a bad error", () => {
    expect(run({ exitCode: 1, stdout: '{"msg":"x"}' })).toEqual(["bad-error"]);
    expect(run({ exitCode: 1, stdout: '{"code":"7","msg":"x"}' })).toEqual(["bad-error"]);
    expect(run({ exitCode: 1, stdout: '{"code":7}' })).toEqual(["bad-error"]);
    expect(run({ exitCode: 1, stdout: "[1,2]" })).toEqual(["bad-error"]);
  });

  test("exit 0 with an error, or non-zero with a result, is an exit mismatch", () => {
    expect(run({ stdout: ERR })).toEqual(["exit-mismatch"]);
    expect(run({ exitCode: 1, stdout: RES })).toEqual(["exit-mismatch"]);
  });

  test("a signal, a hang and a stack trace are found whatever stdout says", () => {
    expect(run({ exitCode: null, signal: "SIGSEGV", stdout: "" })).toEqual(["signal"]);
    expect(run({ timedOut: true, exitCode: null, signal: "SIGKILL" })).toEqual(["hang"]);
    expect(run({ exitCode: 2, stdout: ERR, stderr: "panic: boom\n\ngoroutine 1 [running]:\n" })).toEqual(["trace"]);
  });
});

describe("stackTraceLine", () => {
  test("finds Go panics and runtime errors and Bun's uncaught-error frames", () => {
    expect(stackTraceLine("x\npanic: runtime error: nil map\n")).toBe("panic: runtime error: nil map");
    expect(stackTraceLine("fatal error: concurrent map writes")).toBe("fatal error: concurrent map writes");
    expect(stackTraceLine("error: boom\n      at parse (/src/config.ts:12:7)\n")).toBe(
      "at parse (/src/config.ts:12:7)",
    );
    expect(stackTraceLine("\nBun v1.4.5 (Linux x64)\n")).toBe("Bun v1.4.5 (Linux x64)");
  });

  test("leaves ordinary log lines alone", () => {
    expect(stackTraceLine("error: could not add route\nat most 3 retries\n")).toBeUndefined();
    expect(stackTraceLine('{"code":999,"msg":"panic: no"}')).toBeUndefined();
  });
});
