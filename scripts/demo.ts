/**
 * `npm start`: shows what tscni does. Builds the one binary, converts a sample result
 * through every spec version, then (as root) builds a real bridge network in throwaway
 * namespaces: two containers get addresses from host-local and ping each other, a port
 * mapped by portmap carries a TCP connection from the host namespace into the first
 * container, then everything is deleted. The machine's own network namespace is never touched.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { $ } from "zx";
import { missingTools } from "@tscni/spec/testing/machine";
import { NetnsSet, canUseNetns, inNetns } from "./lib/netns.ts";

$.verbose = false;
const root = new URL("..", import.meta.url).pathname;
const bin = join(root, "dist/bin");
const cni = join(bin, "cni");

const step = (s: string) => console.log(`\n\x1b[1m== ${s}\x1b[0m`);

step("build the one binary");
await $({ cwd: root, stdio: "inherit" })`${process.execPath} run scripts/build.ts`;

step("a 1.1.0 result converted through every spec version (cni convert)");
const sample = {
  cniVersion: "1.1.0",
  interfaces: [{ name: "eth0", mac: "02:42:c6:12:00:05", mtu: 1500, sandbox: "/var/run/netns/demo" }],
  ips: [
    { address: "198.18.0.5/24", gateway: "198.18.0.1", interface: 0 },
    { address: "198.18.1.5/24", gateway: "198.18.1.1", interface: 0 },
    { address: "2001:db8::5/64", gateway: "2001:db8::1", interface: 0 },
  ],
  routes: [{ dst: "0.0.0.0/0", gw: "198.18.0.1" }, { dst: "::/0" }],
  dns: { nameservers: ["198.18.0.1"] },
};
for (const to of ["1.0.0", "0.4.0", "0.3.1", "0.3.0", "0.2.0", "0.1.0"]) {
  const out = await $({ input: JSON.stringify(sample) })`${cni} convert --to ${to}`.nothrow();
  console.log(`--- to ${to}${out.exitCode === 0 ? "" : ` (exit ${out.exitCode})`}`);
  console.log(JSON.stringify(JSON.parse(out.stdout || "{}")));
}

if (!canUseNetns()) {
  console.log("\n(not root: skipping the real bridge network; run `sudo npm start` to see it)");
  process.exit(0);
}
// Without these the network below cannot be built or shown (a missing ping used to print
// an empty ping and nothing else): say which tool is missing and how to get it.
const noTools = missingTools(["ip", "ping", "iptables", "iptables-restore", "ip6tables-restore"]);
if (noTools !== undefined) {
  console.log(`\n(${noTools}: skipping the real bridge network)`);
  process.exit(1);
}
if (!existsSync(join(bin, "bridge")) || !existsSync(join(bin, "host-local"))) {
  console.log("\n(the bridge and host-local plugins are not built yet: skipping the real network)");
  process.exit(0);
}

step("a real bridge network in throwaway namespaces");
const ns = new NetnsSet("demo");
const work = mkdtempSync(join(tmpdir(), "tscni-demo-"));
let failed = false;
try {
  const host = await ns.add("host");
  const containers = [await ns.add("c1"), await ns.add("c2")];
  const confDir = join(work, "net.d");
  await $`mkdir -p ${confDir}`;
  const conf = {
    cniVersion: "1.1.0",
    name: "demo",
    plugins: [
      {
        type: "bridge",
        bridge: "tscni0",
        isGateway: true,
        ipam: { type: "host-local", ranges: [[{ subnet: "198.18.0.0/24" }]], dataDir: join(work, "ipam") },
      },
      { type: "portmap", capabilities: { portMappings: true } },
    ],
  };
  writeFileSync(join(confDir, "10-demo.conflist"), JSON.stringify(conf, null, 2));
  console.log(`config ${join(confDir, "10-demo.conflist")}:\n${JSON.stringify(conf)}`);
  const env = { NETCONFPATH: confDir, CNI_PATH: bin, CNI_CACHE_DIR: join(work, "cache") };
  // The first container maps host port 8080 to its port 80 (the portMappings capability).
  const capArgs = (i: number): Record<string, string> =>
    i === 0
      ? { CAP_ARGS: JSON.stringify({ portMappings: [{ hostPort: 8080, containerPort: 80, protocol: "tcp" }] }) }
      : {};

  const plan = await inNetns(host, [cni, "plan", "demo", NetnsSet.path(containers[0]!)], { env });
  console.log(`\ncni plan demo ${NetnsSet.path(containers[0]!)} (what ADD would do):\n${plan.stdout || plan.stderr}`);

  const addresses: string[] = [];
  for (const [i, c] of containers.entries()) {
    const t0 = performance.now();
    const add = await inNetns(host, [cni, "add", "demo", NetnsSet.path(c)], { env: { ...env, ...capArgs(i) } });
    const ms = (performance.now() - t0).toFixed(1);
    if (add.code !== 0) throw new Error(`cni add failed for ${c}: ${add.stdout}${add.stderr}`);
    const result = JSON.parse(add.stdout) as { ips: { address: string }[] };
    const ip = result.ips[0]!.address.split("/")[0]!;
    addresses.push(ip);
    console.log(`cni add demo ${c}: ${ip} (${ms} ms, including the cni runtime, bridge and portmap)`);
  }
  const ping = await inNetns(containers[0]!, ["ping", "-c", "2", "-W", "1", addresses[1]!]);
  console.log(
    `\nping from ${containers[0]} to ${addresses[1]}:\n${(ping.stdout + ping.stderr).trim() || `(no output, exit ${ping.code})`}`,
  );
  if (ping.code !== 0) failed = true;

  if (!(await showMappedPort(host, containers[0]!))) failed = true;

  for (const [i, c] of containers.entries()) {
    const del = await inNetns(host, [cni, "del", "demo", NetnsSet.path(c)], { env: { ...env, ...capArgs(i) } });
    console.log(`cni del demo ${c}: ${del.code === 0 ? "ok" : `failed: ${del.stdout}${del.stderr}`}`);
    if (del.code !== 0) failed = true;
  }
  const dn = (await inNetns(host, ["iptables-save", "-t", "nat"])).stdout
    .split("\n")
    .filter((l) => l.includes("CNI-DN-"));
  console.log(`portmap rules of the containers left after DEL: ${dn.length === 0 ? "none" : dn.join("\n")}`);
  if (dn.length > 0) failed = true;
  const left = await inNetns(containers[0]!, ["ip", "-o", "link"]);
  console.log(`\nleft in ${containers[0]} after DEL:\n${left.stdout.trim()}`);
} catch (err) {
  failed = true;
  console.error(String(err));
} finally {
  await ns.cleanup();
  rmSync(work, { recursive: true, force: true });
  console.log("\nthrowaway namespaces and files deleted");
}
process.exit(failed ? 1 : 0);

/**
 * A TCP server on port 80 in `container`, and a curl-like connection from the host
 * namespace to its gateway address port 8080, which portmap forwards to it.
 */
async function showMappedPort(host: string, container: string): Promise<boolean> {
  const greeting = `hello from ${container} port 80`;
  const script = `Bun.listen({ hostname: "0.0.0.0", port: 80, socket: { open(s) { s.write(${JSON.stringify(greeting)}); s.end(); }, data() {} } }); console.log("up");`;
  const server = Bun.spawn(["ip", "netns", "exec", container, process.execPath, "-e", script], {
    stdout: "pipe",
    stderr: "inherit",
  });
  try {
    await (server.stdout as ReadableStream<Uint8Array>).getReader().read();
    const rules = await inNetns(host, ["iptables-save", "-t", "nat"]);
    console.log(
      `\nportmap's rules in the host namespace (iptables-save -t nat):\n${rules.stdout
        .split("\n")
        .filter((l) => l.includes("CNI-"))
        .join("\n")}`,
    );
    const get = await inNetns(host, ["timeout", "5", "bash", "-c", "exec 3<>/dev/tcp/198.18.0.1/8080; cat <&3"]);
    console.log(
      `\nTCP connect from the host namespace to 198.18.0.1:8080 -> ${JSON.stringify(get.stdout.trim() || get.stderr.trim())}`,
    );
    return get.stdout.includes(greeting);
  } finally {
    server.kill();
    await server.exited;
  }
}
