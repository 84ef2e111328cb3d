import { describe, expect, test } from "bun:test";
import { askCommand, commandOracle } from "./command.ts";
import { readAnswer } from "./answer.ts";

describe("the line protocol of --against CMD", () => {
  test("a result object, an error object, and anything else are told apart", () => {
    expect(readAnswer('{"cniVersion":"1.0.0"}')).toEqual({ result: { cniVersion: "1.0.0" } });
    expect(readAnswer('{"error":"no"}')).toEqual({ error: "no" });
    expect(readAnswer('{"error":7}')).toEqual({ result: { error: 7 } });
    expect(readAnswer("[1]")).toEqual({ broken: "not a JSON object: [1]" });
    expect(readAnswer("nope")).toEqual({ broken: "not JSON: nope" });
    expect(readAnswer(undefined)).toEqual({ broken: "no answer line" });
  });

  test("a batch goes through one process of the command, answers in order", () => {
    // The command counts its own starts in a file, so one process per batch is checked.
    const dir = `${process.env.TMPDIR ?? "/tmp"}/tscni-fzag-${process.pid}`;
    const cmd = `mkdir -p ${dir}; echo x >> ${dir}/starts; sed 's/.*/{"seen":&}/'`;
    try {
      const answers = askCommand(cmd, [1, { a: 2 }, "three"]);
      expect(answers).toEqual([{ result: { seen: 1 } }, { result: { seen: { a: 2 } } }, { result: { seen: "three" } }]);
      expect(Bun.spawnSync(["cat", `${dir}/starts`]).stdout.toString()).toBe("x\n");
    } finally {
      Bun.spawnSync(["rm", "-rf", dir]);
    }
  });

  test("a crash on one line answers that line broken and asks the rest of the batch again", () => {
    const cmd = `while read -r l; do case "$l" in *boom*) echo "panic: boom" >&2; exit 2;; esac; echo '{"error":"x"}'; done`;
    const answers = commandOracle(cmd).ask(["a", "boom", "c", "d"]);
    expect(answers).toEqual([
      { error: "x" },
      { broken: "no answer line (exit 2: panic: boom)" },
      { error: "x" },
      { error: "x" },
    ]);
  });
});
