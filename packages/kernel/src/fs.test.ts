import { afterAll, describe, expect, test } from "bun:test";
import * as node from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as ours from "./fs.ts";

const root = node.mkdtempSync(join(tmpdir(), "tscni-fs-"));
afterAll(() => node.rmSync(root, { recursive: true, force: true }));

/** What a call gave: its value, or its error's code, message, syscall, path, dest and errno. */
function outcome(f: () => unknown): unknown {
  try {
    return { value: f() };
  } catch (err) {
    const e = err as Record<string, unknown> & Error;
    return { code: e.code, message: e.message, syscall: e.syscall, path: e.path, dest: e.dest, errno: e.errno };
  }
}

/** Runs one scenario with node:fs in one directory and ours in a twin; both must agree. */
function same(name: string, setup: (dir: string) => void, call: (fs: typeof ours, dir: string) => unknown): void {
  test(name, () => {
    const a = join(root, `${name.replace(/\W+/g, "-")}-node`);
    const b = join(root, `${name.replace(/\W+/g, "-")}-ours`);
    for (const d of [a, b]) {
      node.mkdirSync(d);
      setup(d);
    }
    // Paths differ by the twin's suffix; compare with it taken out.
    const norm = (x: unknown, d: string) => JSON.parse(JSON.stringify(x ?? null).replaceAll(d, "<dir>"));
    expect(
      norm(
        outcome(() => call(ours, b)),
        b,
      ),
    ).toEqual(
      norm(
        outcome(() => call(node as unknown as typeof ours, a)),
        a,
      ),
    );
  });
}

const file = (d: string, n: string, text = "x") => node.writeFileSync(join(d, n), text);

describe("the libc file operations answer as node:fs does", () => {
  same(
    "readFileSync reads a file, a large one across reads",
    (d) => (file(d, "a", "hello"), file(d, "big", "y".repeat(200_000))),
    (fs, d) => [fs.readFileSync(join(d, "a"), "utf8"), fs.readFileSync(join(d, "big"), "utf8").length],
  );
  same(
    "readFileSync of a missing file is ENOENT with node's message",
    () => {},
    (fs, d) => fs.readFileSync(join(d, "none"), "utf8"),
  );
  same(
    "readFileSync of a directory is EISDIR from read",
    () => {},
    (fs, d) => fs.readFileSync(d, "utf8"),
  );
  same(
    "readFileSync through a file is ENOTDIR",
    (d) => file(d, "f"),
    (fs, d) => fs.readFileSync(join(d, "f", "x"), "utf8"),
  );
  same(
    "writeFileSync creates with its mode and truncates",
    (d) => file(d, "old", "long old text"),
    (fs, d) => {
      fs.writeFileSync(join(d, "new"), "n", { mode: 0o600 });
      fs.writeFileSync(join(d, "old"), "short");
      return [node.statSync(join(d, "new")).mode & 0o777, node.readFileSync(join(d, "old"), "utf8")];
    },
  );
  same(
    "openSync wx of an existing file is EEXIST",
    (d) => file(d, "f"),
    (fs, d) => fs.openSync(join(d, "f"), "wx"),
  );
  same(
    "openSync a appends, writeSync writes, closeSync closes",
    (d) => file(d, "f", "1"),
    (fs, d) => {
      const fd = fs.openSync(join(d, "f"), "a", 0o600);
      const n = fs.writeSync(fd, "23");
      fs.closeSync(fd);
      return [n, node.readFileSync(join(d, "f"), "utf8")];
    },
  );
  same(
    "closeSync of a closed fd is EBADF",
    () => {},
    (fs) => fs.closeSync(987_654),
  );
  same(
    "mkdirSync recursive makes parents, keeps a directory, refuses a file",
    (d) => file(d, "f"),
    (fs, d) => [
      outcome(() => fs.mkdirSync(join(d, "p", "q", "r"), { recursive: true, mode: 0o755 })),
      outcome(() => fs.mkdirSync(join(d, "p", "q"), { recursive: true })),
      outcome(() => fs.mkdirSync(join(d, "f"), { recursive: true })),
      outcome(() => fs.mkdirSync(join(d, "f", "x"), { recursive: true })),
      outcome(() => fs.mkdirSync(join(d, "p"))),
      node.statSync(join(d, "p", "q", "r")).isDirectory(),
    ],
  );
  same(
    "readdirSync lists names in the same order; a file is ENOTDIR, a missing dir ENOENT",
    (d) => {
      for (let i = 0; i < 300; i++) file(d, `n${(i * 7919) % 1000}`);
    },
    (fs, d) => [
      fs.readdirSync(d),
      outcome(() => fs.readdirSync(join(d, "n0"))),
      outcome(() => fs.readdirSync(join(d, "none"))),
    ],
  );
  same(
    "opendirSync reads entries one by one until null",
    (d) => (file(d, "a"), file(d, "b")),
    (fs, d) => {
      const dir = fs.opendirSync(d);
      const names: string[] = [];
      for (let e = dir.readSync(); e !== null; e = dir.readSync()) names.push(e.name);
      dir.closeSync();
      return names.sort();
    },
  );
  same(
    "unlinkSync, rmdirSync and renameSync, and their errors",
    (d) => (file(d, "f"), node.mkdirSync(join(d, "full")), file(join(d, "full"), "x")),
    (fs, d) => [
      outcome(() => fs.renameSync(join(d, "f"), join(d, "g"))),
      outcome(() => fs.renameSync(join(d, "f"), join(d, "h"))),
      outcome(() => fs.unlinkSync(join(d, "g"))),
      outcome(() => fs.unlinkSync(join(d, "g"))),
      outcome(() => fs.rmdirSync(join(d, "full"))),
      outcome(() => fs.rmdirSync(join(d, "none"))),
    ],
  );
  same(
    "statSync and fstatSync see the same inode, type and mtime in ns; existsSync and accessSync",
    (d) => file(d, "f"),
    (fs, d) => {
      const s = fs.statSync(join(d, "f"), { bigint: true });
      const fd = fs.openSync(join(d, "f"), "r");
      const f = fs.fstatSync(fd);
      fs.closeSync(fd);
      return [
        Number(s.ino) === node.statSync(join(d, "f")).ino,
        f.ino === Number(s.ino),
        s.isFile(),
        fs.statSync(d).isDirectory(),
        String(s.mtimeNs) === String(node.statSync(join(d, "f"), { bigint: true }).mtimeNs),
        fs.existsSync(join(d, "f")),
        fs.existsSync(join(d, "none")),
        outcome(() => (fs.accessSync(join(d, "f"), ours.constants.W_OK), "ok")),
        outcome(() => fs.accessSync(join(d, "none"), ours.constants.W_OK)),
        outcome(() => fs.statSync(join(d, "none"))),
      ];
    },
  );
  test("statSync's device number is node's, so netns files compare alike", () => {
    for (const p of ["/proc/self/ns/net", root, "/dev/null"]) {
      const [a, b] = [ours.statSync(p), node.statSync(p)];
      expect([a.dev, a.ino]).toEqual([b.dev, b.ino]);
    }
  });
  test("utimesSync sets the mtime to the microsecond, as statSync reads it back", () => {
    const p = join(root, "utimes");
    node.mkdirSync(p);
    ours.utimesSync(p, new Date(), 1_700_000_000.123456);
    expect(node.statSync(p, { bigint: true }).mtimeNs).toBe(1_700_000_000_123_456_000n);
  });
  test("realpathSync resolves links and refuses a missing path with ENOENT", () => {
    const link = join(root, "link");
    node.symlinkSync(root, link);
    expect(ours.realpathSync(link)).toBe(node.realpathSync(link));
    expect(outcome(() => ours.realpathSync(join(root, "none")))).toMatchObject({ code: "ENOENT" });
  });
  test("readSync reads a pipe's bytes and 0 at its end", () => {
    const p = join(root, "data");
    node.writeFileSync(p, "abc");
    const fd = ours.openSync(p, "r");
    const buf = new Uint8Array(8);
    expect([ours.readSync(fd, buf), ours.readSync(fd, buf)]).toEqual([3, 0]);
    ours.closeSync(fd);
  });
});
