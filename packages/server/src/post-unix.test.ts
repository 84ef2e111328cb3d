import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { postUnix } from "./post-unix.ts";

const dir = mkdtempSync(join(tmpdir(), "tscni-shimwire-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test("postUnix sends one request with its length and reads the answer to the end of the stream", async () => {
  const socket = join(dir, "s.sock");
  const big = "x".repeat(300_000);
  let seen = "";
  const server = Bun.serve({
    unix: socket,
    fetch: async (req) => ((seen = await req.text()), new Response(`got ${seen.length}`, { status: 400 })),
  });
  try {
    expect(await postUnix(socket, "/cni", big)).toEqual({ status: 400, body: "got 300000" });
    expect(seen).toBe(big);
  } finally {
    server.stop(true);
  }
});

test("postUnix rejects with the connect error's code when nothing listens", async () => {
  await expect(postUnix(join(dir, "none.sock"), "/cni", "{}")).rejects.toMatchObject({ code: "ENOENT" });
});
