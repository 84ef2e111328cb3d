import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { chmodSync, closeSync, mkdtempSync, openSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BunExec } from "./exec-bun.ts";

let dir = "";
const enc = (s: string): Uint8Array => new TextEncoder().encode(s);
const dec = (b: Uint8Array): string => new TextDecoder().decode(b);

function script(name: string, body: string): string {
  const path = join(dir, name);
  writeFileSync(path, `#!/bin/sh\n${body}\n`);
  chmodSync(path, 0o755);
  return path;
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "tscni-exec-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("BunExec", () => {
  test("runs the binary directly, without a shell, and passes stdin and exactly the given env (EX-1)", async () => {
    // A name a shell would split or interpret.
    const path = script("odd name;echo", 'printf "%s|%s|" "$CNI_COMMAND" "${HOME-unset}"; cat');
    const out = await new BunExec().execPlugin(path, {
      env: { CNI_COMMAND: "ADD", PATH: "/usr/bin:/bin" },
      stdin: enc('{"a":1}'),
    });
    expect(out.failure).toBeUndefined();
    expect(dec(out.stdout)).toBe('ADD|unset|{"a":1}');
  });

  test("words a non-zero exit like Go's os/exec", async () => {
    const path = script("exit3", "echo oops >&2; exit 3");
    const out = await new BunExec().execPlugin(path, { env: {}, stdin: enc("") });
    expect(out.failure).toBe("exit status 3");
    expect(dec(out.stderr)).toBe("oops\n");
  });

  test("words a binary that cannot start as a fork/exec failure", async () => {
    const path = join(dir, "not-executable");
    writeFileSync(path, "#!/bin/sh\n");
    chmodSync(path, 0o644);
    const out = await new BunExec().execPlugin(path, { env: {}, stdin: enc("") });
    expect(out.failure).toBe(`fork/exec ${path}: permission denied`);
  });

  test("copies a successful plugin's stderr to the runtime's stderr (E-6)", async () => {
    const seen: string[] = [];
    const path = script("chatty", "echo log line >&2; echo '{}'");
    const out = await new BunExec({ stderr: (b) => seen.push(dec(b)) }).execPlugin(path, { env: {}, stdin: enc("") });
    expect(dec(out.stdout)).toBe("{}\n");
    expect(seen).toEqual(["log line\n"]);
  });

  test("kills a plugin and everything it started when the timeout runs out (EX-2)", async () => {
    const path = script("slow", "echo started; sleep 30; echo never");
    const t0 = performance.now();
    const out = await new BunExec().execPlugin(path, {
      env: { PATH: "/usr/bin:/bin" },
      stdin: enc(""),
      timeoutMs: 200,
    });
    expect(performance.now() - t0).toBeLessThan(5000);
    expect(out.timedOut).toBe(true);
    expect(out.failure).toBe("signal: killed");
    expect(dec(out.stdout)).toBe("started\n");
  });

  test("retries a binary that is busy being written, then runs it (EX-3)", async () => {
    const path = script("busy", "echo ran");
    const fd = openSync(path, "r+"); // an open writer makes execve fail with ETXTBSY
    setTimeout(() => closeSync(fd), 150);
    const out = await new BunExec({ busyRetryDelayMs: 100 }).execPlugin(path, { env: {}, stdin: enc("") });
    expect(out.failure).toBeUndefined();
    expect(dec(out.stdout)).toBe("ran\n");
  });

  test("gives up on a busy binary after the last attempt (EX-3)", async () => {
    const path = script("stuck", "echo ran");
    const fd = openSync(path, "r+");
    try {
      const out = await new BunExec({ busyRetryDelayMs: 10, busyAttempts: 3 }).execPlugin(path, {
        env: {},
        stdin: enc(""),
      });
      expect(out.failure).toStartWith(`fork/exec ${path}: text file is busy`);
    } finally {
      closeSync(fd);
    }
  });
});
