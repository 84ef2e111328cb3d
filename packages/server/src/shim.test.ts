import { afterEach, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { libcNow } from "@tscni/kernel/libc";
import { main, socketPathFor, syncExchange } from "./shim.ts";
import { type StandIn, standInDaemon } from "./testing/stand-in.ts";

describe("socketPathFor", () => {
  test("takes the config's socketPath first, then $TSCNI_SOCKET, then /run/tscni/tscni.sock", () => {
    expect(socketPathFor({ socketPath: "/run/a.sock" }, { TSCNI_SOCKET: "/run/b.sock" })).toBe("/run/a.sock");
    expect(socketPathFor({}, { TSCNI_SOCKET: "/run/b.sock" })).toBe("/run/b.sock");
    expect(socketPathFor({ socketPath: "" }, {})).toBe("/run/tscni/tscni.sock");
  });
});

/** A stand-in daemon (another process: the shim's exchange blocks) that always answers `status` with `body`. */
let dir: string | undefined;
let server: StandIn | undefined;
afterEach(async () => {
  await server?.stop();
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  server = undefined;
  dir = undefined;
});

async function shimAgainst(
  status: number,
  body: string,
  command = "ADD",
): Promise<{ code: number; out: Record<string, unknown> | undefined }> {
  dir = mkdtempSync(join(tmpdir(), "tscni-shim-"));
  const socketPath = join(dir, "s.sock");
  server = await standInDaemon(socketPath, status, body);
  let stdout = "";
  const stdin = new TextEncoder().encode(JSON.stringify({ cniVersion: "1.0.0", socketPath }));
  const code = await main(
    {
      argv: [],
      env: { CNI_COMMAND: command },
      readStdin: async () => stdin,
      stdout: (t) => void (stdout += t),
      stderr: () => {},
    },
    syncExchange(libcNow),
  ); // the binary's own exchange (runProcess)
  return { code, out: stdout === "" ? undefined : (JSON.parse(stdout) as Record<string, unknown>) };
}

describe("the shim", () => {
  test("prints the daemon's result Go-style and exits 0", async () => {
    const r = await shimAgainst(200, '{"result":{"cniVersion":"1.0.0","ips":[]}}');
    expect(r).toEqual({ code: 0, out: { cniVersion: "1.0.0", ips: [] } });
  });

  test("fails with code 999 when ADD gets no result", async () => {
    const r = await shimAgainst(200, "{}");
    expect(r.code).toBe(1);
    expect(r.out).toEqual({ code: 999, msg: "the CNI daemon sent no result for ADD" });
  });

  test("succeeds silently when DEL gets no result", async () => {
    expect(await shimAgainst(200, "{}", "DEL")).toEqual({ code: 0, out: undefined });
  });

  test("fails with code 999 and the body as details on another HTTP status", async () => {
    const r = await shimAgainst(500, "boom\n");
    expect(r.out).toEqual({ code: 999, msg: "the CNI daemon answered HTTP 500", details: "boom" });
  });

  test("fails with code 999 when the answer is not a wire response", async () => {
    const r = await shimAgainst(400, "bad request");
    expect(r.code).toBe(1);
    expect(r.out?.code).toBe(999);
    expect(String(r.out?.msg)).toStartWith("the CNI daemon answered HTTP 400: response is not JSON");
  });

  test("fails with code 11, try again later, when the daemon is not there", async () => {
    dir = mkdtempSync(join(tmpdir(), "tscni-shim-"));
    const socketPath = join(dir, "gone.sock");
    let stdout = "";
    const code = await main(
      {
        argv: [],
        env: { CNI_COMMAND: "ADD" },
        readStdin: async () => new TextEncoder().encode(JSON.stringify({ cniVersion: "1.0.0", socketPath })),
        stdout: (t) => void (stdout += t),
        stderr: () => {},
      },
      syncExchange(libcNow),
    );
    expect(code).toBe(1);
    expect(JSON.parse(stdout)).toEqual({
      code: 11,
      msg: `cannot reach the CNI daemon on ${JSON.stringify(socketPath)}; try again later`,
      details: "no such socket; is `cni daemon` running?",
    });
  });

  test("run in process with its default exchange, it leaves the event loop free for a daemon in the same process", async () => {
    dir = mkdtempSync(join(tmpdir(), "tscni-shim-"));
    const socketPath = join(dir, "here.sock");
    const here = Bun.serve({ unix: socketPath, fetch: () => new Response('{"result":{"cniVersion":"1.0.0"}}') });
    try {
      let stdout = "";
      const stdin = new TextEncoder().encode(JSON.stringify({ cniVersion: "1.0.0", socketPath }));
      const code = await main({
        argv: [],
        env: { CNI_COMMAND: "ADD" },
        readStdin: async () => stdin,
        stdout: (t) => void (stdout += t),
        stderr: () => {},
      });
      expect({ code, out: JSON.parse(stdout) }).toEqual({ code: 0, out: { cniVersion: "1.0.0" } });
    } finally {
      await here.stop(true);
    }
  });

  test("fails with code 5, not a stack trace, when stdin cannot be read", async () => {
    let stdout = "";
    const code = await main(
      {
        argv: [],
        env: { CNI_COMMAND: "ADD" },
        readStdin: async () => {
          throw new Error("read: errno 9");
        },
        stdout: (t) => void (stdout += t),
        stderr: () => {},
      },
      () => {
        throw new Error("the daemon must not be asked");
      },
    );
    expect({ code, out: JSON.parse(stdout) }).toEqual({
      code: 1,
      out: { code: 5, msg: "error reading from stdin: read: errno 9" },
    });
  });
});
