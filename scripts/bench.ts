/**
 * `npm run bench`: ADD, CHECK and DEL medians and p95 for bridge and ptp over 50
 * sequential containers, 10 parallel ADDs, VERSION start-up, peak RSS and binary size,
 * measured on the compiled binary against the real kernel in throwaway namespaces.
 *
 * The outer process makes the namespaces (one host, 50 containers), then re-runs itself
 * inside the host namespace so that each timing is one plugin process, spawned directly,
 * as a runtime spawns it (no `ip netns exec` in the measured path).
 *
 * BENCH_CONTAINERS=N changes the 50. BENCH_REFERENCE=1 runs the reference Go plugins in
 * /usr/lib/cni instead (CNI_PATH=/usr/lib/cni, cniVersion 1.0.0: they predate 1.1.0), so
 * both are measured by the same harness on the same machine. BENCH_BIN=DIR runs another
 * build of ours (a directory with `cni` and its links). BENCH_IPAM=0 skips the host-local
 * allocation benchmark at the end, BENCH_EXEC=0 the interleaved per-exec run against the
 * reference (scripts/bench-exec.ts), BENCH_MASQ=0 the bridge-with-ipMasq one against the
 * reference (scripts/bench-masq.ts), BENCH_PORTMAP=0 the portmap one (scripts/bench-portmap.ts).
 *
 * Peak RSS is measured apart, through GNU time (`/usr/bin/time -f %M`) when it is there:
 * the rusage of a child that Bun spawns (vfork) starts from the spawning process's own
 * high-water mark, so it would report the harness's RSS, not the plugin's.
 */
import { existsSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const REFERENCE = process.env.BENCH_REFERENCE === "1";
const BIN = REFERENCE ? "/usr/lib/cni" : (process.env.BENCH_BIN ?? new URL("../dist/bin", import.meta.url).pathname);
const GNU_TIME = "/usr/bin/time";
const CNI_VERSION = REFERENCE ? "1.0.0" : "1.1.0";
const N = Number(process.env.BENCH_CONTAINERS ?? 50);
const PARALLEL = 10;

interface Sample {
  ms: number;
  maxRssKiB: number;
}

async function spawnPlugin(
  plugin: string,
  env: Record<string, string>,
  stdin: string,
): Promise<Sample & { code: number; stdout: string }> {
  const t0 = performance.now();
  const proc = Bun.spawn([join(BIN, plugin)], {
    env,
    stdin: new TextEncoder().encode(stdin),
    stdout: "pipe",
    stderr: "pipe",
  });
  const stdout = await new Response(proc.stdout).text();
  const code = await proc.exited;
  const ms = performance.now() - t0;
  const usage = proc.resourceUsage();
  // Bun reports maxRSS in bytes on Linux (ru_maxrss is KiB; Bun normalises it).
  const maxRssKiB = usage ? Math.round(Number(usage.maxRSS) / 1024) : 0;
  return { ms, maxRssKiB, code, stdout };
}

/** The peak RSS of one plugin run in KiB, through GNU time; undefined without it. */
async function rssOf(plugin: string, env: Record<string, string>, stdin: string): Promise<number | undefined> {
  if (!existsSync(GNU_TIME)) return undefined;
  const out = join(process.env.BENCH_DIR ?? tmpdir(), `rss-${process.pid}`);
  const proc = Bun.spawn([GNU_TIME, "-f", "%M", "-o", out, join(BIN, plugin)], {
    env,
    stdin: new TextEncoder().encode(stdin),
    stdout: "ignore",
    stderr: "ignore",
  });
  await proc.exited;
  const kib = Number((await Bun.file(out).text()).trim().split("\n").pop());
  return Number.isFinite(kib) ? kib : undefined;
}

const pct = (xs: number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN;
};
const median = (xs: number[]) => pct(xs, 50);
const fmt = (n: number) => n.toFixed(2);

async function inner(): Promise<void> {
  const containers = (process.env.BENCH_NETNS ?? "").split(",");
  const work = process.env.BENCH_DIR ?? "";
  const rows: string[] = [];
  const report: Record<string, unknown> = {};
  let peakRss = 0;
  let timedRss = 0;
  const env = (cmd: string, cid: string, netns: string): Record<string, string> => ({
    PATH: process.env.PATH ?? "",
    CNI_COMMAND: cmd,
    CNI_CONTAINERID: cid,
    CNI_NETNS: netns,
    CNI_IFNAME: "eth0",
    CNI_ARGS: "",
    CNI_PATH: BIN,
  });

  for (const plugin of ["bridge", "ptp"]) {
    const config = {
      cniVersion: CNI_VERSION,
      name: `bench-${plugin}`,
      type: plugin,
      ...(plugin === "bridge" ? { bridge: "tscnib0", isGateway: true } : {}),
      ipam: {
        type: "host-local",
        ranges: [[{ subnet: plugin === "bridge" ? "198.18.64.0/24" : "198.18.65.0/24" }]],
        dataDir: join(work, "ipam"),
      },
    };
    const times: Record<"ADD" | "CHECK" | "DEL", number[]> = { ADD: [], CHECK: [], DEL: [] };
    const results: string[] = [];
    for (let i = 0; i < containers.length; i++) {
      const s = await spawnPlugin(plugin, env("ADD", `b${i}`, containers[i]!), JSON.stringify(config));
      if (s.code !== 0) throw new Error(`${plugin} ADD failed: ${s.stdout}`);
      times.ADD.push(s.ms);
      peakRss = Math.max(peakRss, s.maxRssKiB);
      results.push(s.stdout);
    }
    for (let i = 0; i < containers.length; i++) {
      const cfg = { ...config, prevResult: JSON.parse(results[i]!) };
      const s = await spawnPlugin(plugin, env("CHECK", `b${i}`, containers[i]!), JSON.stringify(cfg));
      if (s.code !== 0) throw new Error(`${plugin} CHECK failed: ${s.stdout}`);
      times.CHECK.push(s.ms);
    }
    for (let i = 0; i < containers.length; i++) {
      const cfg = { ...config, prevResult: JSON.parse(results[i]!) };
      const s = await spawnPlugin(plugin, env("DEL", `b${i}`, containers[i]!), JSON.stringify(cfg));
      if (s.code !== 0) throw new Error(`${plugin} DEL failed: ${s.stdout}`);
      times.DEL.push(s.ms);
    }
    for (const cmd of ["ADD", "CHECK", "DEL"] as const) {
      rows.push(
        `| ${plugin} ${cmd} | ${containers.length} | ${fmt(median(times[cmd]))} | ${fmt(pct(times[cmd], 95))} |`,
      );
      report[`${plugin}.${cmd}.median`] = median(times[cmd]);
      report[`${plugin}.${cmd}.p95`] = pct(times[cmd], 95);
    }

    // Peak RSS of one ADD, CHECK and DEL, each run under GNU time.
    const addRss = await rssOf(plugin, env("ADD", "rss", containers[0]!), JSON.stringify(config));
    const prev = (
      await spawnPlugin(plugin, env("ADD", "rss2", containers[1] ?? containers[0]!), JSON.stringify(config))
    ).stdout;
    const rss = [
      addRss,
      await rssOf(
        plugin,
        env("CHECK", "rss2", containers[1] ?? containers[0]!),
        JSON.stringify({ ...config, prevResult: JSON.parse(prev) }),
      ),
      await rssOf(plugin, env("DEL", "rss", containers[0]!), JSON.stringify(config)),
      await rssOf(plugin, env("DEL", "rss2", containers[1] ?? containers[0]!), JSON.stringify(config)),
    ];
    for (const kib of rss) if (kib !== undefined) timedRss = Math.max(timedRss, kib);
    if (addRss !== undefined) report[`${plugin}.ADD.rssKiB`] = addRss;

    // 10 parallel ADDs: wall time for all of them, then their DELs.
    const par = containers.slice(0, PARALLEL);
    const t0 = performance.now();
    const adds = await Promise.all(
      par.map((ns, i) => spawnPlugin(plugin, env("ADD", `p${i}`, ns), JSON.stringify(config))),
    );
    const wall = performance.now() - t0;
    if (adds.some((a) => a.code !== 0)) throw new Error(`${plugin} parallel ADD failed`);
    const distinct = new Set(adds.map((a) => JSON.parse(a.stdout).ips[0].address)).size;
    await Promise.all(par.map((ns, i) => spawnPlugin(plugin, env("DEL", `p${i}`, ns), JSON.stringify(config))));
    rows.push(`| ${plugin} 10 parallel ADDs (wall, ${distinct} distinct IPs) | 1 | ${fmt(wall)} | - |`);
    report[`${plugin}.parallel10.wall`] = wall;
  }

  const version: number[] = [];
  for (let i = 0; i < 100; i++) {
    const s = await spawnPlugin("bridge", { PATH: process.env.PATH ?? "", CNI_COMMAND: "VERSION" }, "{}");
    version.push(s.ms);
    peakRss = Math.max(peakRss, s.maxRssKiB);
  }
  const versionRss = await rssOf("bridge", { PATH: process.env.PATH ?? "", CNI_COMMAND: "VERSION" }, "{}");
  if (versionRss !== undefined) timedRss = Math.max(timedRss, versionRss);
  rows.push(`| VERSION start-up | 100 | ${fmt(median(version))} | ${fmt(pct(version, 95))} |`);
  report["version.median"] = median(version);
  const size = statSync(join(BIN, REFERENCE ? "bridge" : "cni")).size;
  // Without GNU time, the spawn's rusage (an upper bound: see the header).
  const measuredByTime = timedRss > 0;
  if (measuredByTime) peakRss = timedRss;
  report.peakRssKiB = peakRss;
  report.binaryBytes = size;

  console.log(
    `${REFERENCE ? "reference plugins in /usr/lib/cni" : "tscni"} (${BIN}), load average ${(await import("node:os"))
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")}\n`,
  );
  console.log("| measurement | runs | median ms | p95 ms |\n|---|---|---|---|");
  console.log(rows.join("\n"));
  console.log(
    `\npeak RSS of any plugin process: ${(peakRss / 1024).toFixed(1)} MiB (${measuredByTime ? "GNU time" : "rusage of the spawn, an upper bound"})`,
  );
  for (const plugin of ["bridge", "ptp"]) {
    const kib = report[`${plugin}.ADD.rssKiB`];
    if (typeof kib === "number") console.log(`peak RSS of one ${plugin} ADD: ${(kib / 1024).toFixed(1)} MiB`);
  }
  if (versionRss !== undefined) console.log(`peak RSS of VERSION: ${(versionRss / 1024).toFixed(1)} MiB`);
  console.log(`binary size${REFERENCE ? " (bridge)" : ""}: ${(size / 1024 / 1024).toFixed(1)} MiB`);
  console.log(`\nJSON ${JSON.stringify(report)}`);
}

async function outer(): Promise<void> {
  if (process.getuid?.() !== 0) {
    console.error("bench: needs root (it creates throwaway network namespaces)");
    process.exit(1);
  }
  if (REFERENCE && !existsSync(join(BIN, "bridge"))) {
    console.error(`bench: BENCH_REFERENCE=1 needs the reference plugins in ${BIN}`);
    process.exit(1);
  }
  if (!existsSync(join(BIN, "bridge"))) {
    const b = Bun.spawnSync([process.execPath, "run", "scripts/build.ts"], {
      cwd: new URL("..", import.meta.url).pathname,
      stdout: "inherit",
      stderr: "inherit",
    });
    if (b.exitCode !== 0) process.exit(1);
  }
  const { runInsideThrowawayHost } = await import("./lib/netns.ts");
  const code = await runInsideThrowawayHost("bench", N, [process.execPath, "run", import.meta.path, "--inner"]);
  if (code !== 0) process.exitCode = code;
  // Ours against the reference in one interleaved run, with Bun's start floor (scripts/bench-exec.ts).
  if (process.env.BENCH_EXEC !== "0" && !REFERENCE && existsSync("/usr/lib/cni/bridge")) {
    console.log("\nper-exec, interleaved with the reference (scripts/bench-exec.ts):");
    Bun.spawnSync([process.execPath, "run", new URL("./bench-exec.ts", import.meta.url).pathname, "ref", BIN], {
      stdout: "inherit",
      stderr: "inherit",
    });
  }
  if (
    process.env.BENCH_IPAM !== "0" &&
    !REFERENCE &&
    existsSync(new URL("./bench-ipam.ts", import.meta.url).pathname)
  ) {
    console.log("\nhost-local allocation (scripts/bench-ipam.ts):");
    Bun.spawnSync([process.execPath, "run", new URL("./bench-ipam.ts", import.meta.url).pathname], {
      stdout: "inherit",
      stderr: "inherit",
    });
  }
  if (process.env.BENCH_MASQ !== "0" && !REFERENCE && existsSync("/usr/lib/cni/bridge")) {
    console.log("\nbridge with ipMasq against the reference (scripts/bench-masq.ts):");
    Bun.spawnSync([process.execPath, "run", new URL("./bench-masq.ts", import.meta.url).pathname], {
      stdout: "inherit",
      stderr: "inherit",
    });
  }
  // The chain bridge + portmap against the reference's, and portmap's ADD as the nat table grows.
  if (process.env.BENCH_PORTMAP !== "0" && !REFERENCE && existsSync("/usr/lib/cni/portmap")) {
    console.log("\nbridge + portmap against the reference (scripts/bench-portmap.ts):");
    Bun.spawnSync([process.execPath, "run", new URL("./bench-portmap.ts", import.meta.url).pathname], {
      stdout: "inherit",
      stderr: "inherit",
    });
  }
}

if (process.argv.includes("--inner")) await inner();
else await outer();
