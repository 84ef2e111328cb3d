import { expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { checkLayering, checkTestingConvention } from "./layering.ts";

const root = new URL("..", import.meta.url).pathname;

function fakeRepo(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), "tscni-layering-"));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, ".."), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

test("the repository's packages import only downwards and have no cycles", () => {
  expect(checkLayering(root)).toEqual([]);
});

test("the layering check reports spec importing another package of ours", () => {
  const dir = fakeRepo({
    "packages/spec/src/a.ts": 'import { x } from "@tscni/config";\n',
    "packages/config/src/b.ts": "export const x = 1;\n",
  });
  try {
    expect(checkLayering(dir).join("\n")).toContain("spec must not import @tscni/config");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("the layering check reports an import cycle between packages", () => {
  const dir = fakeRepo({
    "packages/spec/src/a.ts": 'export type { Y } from "@tscni/kernel";\n',
    "packages/kernel/src/b.ts": 'import type { X } from "@tscni/spec";\n',
  });
  try {
    const problems = checkLayering(dir).join("\n");
    expect(problems).toContain("import cycle");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("the layering check reports a relative import that crosses packages", () => {
  const dir = fakeRepo({
    "packages/config/src/a.ts": 'import { x } from "../../spec/src/b.ts";\n',
    "packages/spec/src/b.ts": "export const x = 1;\n",
  });
  try {
    expect(checkLayering(dir).join("\n")).toContain("leaves package config");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("the layering check holds the end-to-end suite to the protocol and keeps compat out of package internals", () => {
  const dir = fakeRepo({
    "packages/spec/src/a.ts": "export const a = 1;\n",
    "packages/kernel/src/b.ts": "export const b = 1;\n",
    "scripts/e2e/x.test.ts": 'import { b } from "@tscni/kernel";\nimport { h } from "../lib/h.ts";\n',
    "scripts/compat/y.test.ts":
      'import { a } from "../../packages/spec/src/a.ts";\nimport { b } from "@tscni/kernel";\n',
    "scripts/lib/h.ts": "export const h = 1;\n",
  });
  try {
    const problems = checkLayering(dir).join("\n");
    expect(problems).toContain("e2e must not import @tscni/kernel");
    expect(problems).toContain('relative import "../../packages/spec/src/a.ts" leaves package compat');
    expect(problems).not.toContain("../lib/h.ts");
    expect(problems).not.toContain("compat must not import @tscni/kernel");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("test helpers live in testing/ folders and production code never imports them", () => {
  expect(checkTestingConvention(root)).toEqual([]);
});

test("the testing convention reports a helper outside testing/ and production code importing one", () => {
  const dir = fakeRepo({
    "packages/config/src/_testdir.ts": "export const d = 1;\n",
    "packages/config/src/testing/dir.ts": "export const d = 1;\n",
    "packages/config/src/load.ts": 'import { d } from "./testing/dir.ts";\n',
    "packages/config/src/load.test.ts": 'import { d } from "./testing/dir.ts";\n',
    "packages/plugins/bridge/index.ts": 'import { k } from "@tscni/kernel/testing";\n',
  });
  try {
    expect(checkTestingConvention(dir).sort()).toEqual([
      "packages/config/src/_testdir.ts: a test helper outside a testing/ folder",
      "packages/config/src/load.ts: production code imports the test helper ./testing/dir.ts",
      "packages/plugins/bridge/index.ts: production code imports the test helper @tscni/kernel/testing",
    ]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
