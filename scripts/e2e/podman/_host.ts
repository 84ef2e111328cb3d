/**
 * podman on tscni, inside a throwaway network namespace that plays the host: podman's CNI
 * backend (`network_backend = "cni"`), its own storage root, runroot, tmp dir and CNI
 * config dir under a temp dir, `cni_plugin_dirs` = a directory holding only tscni's plugin
 * links, and podman's CNI state (`/var/lib/cni`: host-local's store and libcni's result
 * cache) bind-mounted from the temp dir in a private mount namespace, so that nothing of
 * podman's networking touches the machine's own namespace or directories.
 *
 * Each podman call runs as `unshare -m --propagation unchanged nsenter --net=<host ns>
 * <dir>/podman-in-ns ...`. Not `ip netns exec`: that remounts /sys for the namespace,
 * which hides /sys/fs/cgroup from the OCI runtime; and the mount namespace keeps
 * /run/netns shared, where podman bind-mounts its containers' namespaces, so every call
 * sees the same ones. runc, not crun: crun refuses this machine's hybrid cgroup layout.
 */
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { BIN_DIR, World, sh } from "../harness.ts";

/** tscni's plugins podman's networks use. */
const OURS = ["bridge", "host-local", "loopback", "portmap", "firewall", "tuning"] as const;

/** The default network's subnet (podman's `default_subnet`). */
export const DEFAULT_SUBNET = "198.18.40.0/24";
/** The host's uplink to the "outside" namespace: host .1, outside .2; the outside has no route to the pods. */
export const UPLINK = {
  host: "198.19.40.1",
  outside: "198.19.40.2",
  prefix: 24,
  host6: "2001:db8:40::1",
  outside6: "2001:db8:40::2",
};
/** The tiny image (busybox-static, `podman import`). */
export const IMAGE = "localhost/tscni-busybox:latest";
const BUSYBOX = "/bin/busybox";
const APPLETS = [
  "sh",
  "ip",
  "ping",
  "ping6",
  "nc",
  "wget",
  "sleep",
  "cat",
  "mkdir",
  "echo",
  "httpd",
  "hostname",
  "ls",
  "true",
];

/** What is missing for the podman suite here (one line), or undefined. */
export function missingPodman(): string | undefined {
  const missing: string[] = [];
  if (Bun.which("podman") === null) missing.push("podman (apt-get install podman)");
  if (Bun.which("runc") === null) missing.push("runc (apt-get install runc)");
  if (!existsSync(BUSYBOX)) missing.push(`${BUSYBOX} (apt-get install busybox-static)`);
  for (const p of OURS) if (!existsSync(join(BIN_DIR, p))) missing.push(`${BIN_DIR}/${p} (bun run scripts/build.ts)`);
  return missing.length === 0 ? undefined : `missing ${missing.join(", ")}`;
}

/** One podman call's outcome. */
export interface Out {
  code: number;
  stdout: string;
  stderr: string;
}

/** A host namespace running podman, an "outside" namespace behind its uplink, and podman's state dir. */
export class PodmanHost {
  readonly world: World;
  /** podman's state: storage, runroot, tmp, CNI configs, /var/lib/cni. */
  readonly dir: string;
  /** `cni_plugin_dirs`: tscni's links (and the labelled reference stand-ins). */
  readonly pluginDir: string;
  /** podman's `network_config_dir`. */
  readonly netDir: string;
  /** What podman sees as /var/lib/cni. */
  readonly cniState: string;

  private constructor(world: World) {
    this.world = world;
    this.dir = join(world.dir, "podman");
    this.pluginDir = join(this.dir, "cni-bin");
    this.netDir = join(this.dir, "cni-net");
    this.cniState = join(this.dir, "var-lib-cni");
  }

  /** The namespace that plays the host (podman runs here). */
  get host(): string {
    return this.world.host;
  }

  /** The namespace behind the host's uplink, with no route to the pods' subnets. */
  get outside(): string {
    return this.world.containers[0]!;
  }

  /** Sets everything up; on failure tears down what it made. */
  static async create(): Promise<PodmanHost> {
    const world = await World.create("podman", 1);
    const h = new PodmanHost(world);
    try {
      await h.#files();
      await h.#uplink();
      const imported = await h.pm(["import", "--change", 'CMD ["/bin/sh"]', join(h.dir, "rootfs.tar"), IMAGE]);
      if (imported.code !== 0) throw new Error(`podman import failed: ${imported.stderr}`);
    } catch (err) {
      await h.close();
      throw err;
    }
    return h;
  }

  async #files(): Promise<void> {
    for (const d of ["root", "runroot", "tmp", "cni-bin", "cni-net", "var-lib-cni", "rootfs/bin", "rootfs/www"])
      mkdirSync(join(this.dir, d), { recursive: true });
    // Every plugin podman's networks chain is ours (tuning since issue 12).
    for (const p of OURS) symlinkSync(join(BIN_DIR, p), join(this.pluginDir, p));
    const rootfs = join(this.dir, "rootfs");
    writeFileSync(join(rootfs, "bin/busybox"), readFileSync(BUSYBOX));
    chmodSync(join(rootfs, "bin/busybox"), 0o755);
    for (const a of APPLETS) symlinkSync("busybox", join(rootfs, "bin", a));
    writeFileSync(join(rootfs, "www/index.html"), "tscni\n");
    const tar = Bun.spawnSync(["tar", "-C", rootfs, "-cf", join(this.dir, "rootfs.tar"), "."]);
    if (tar.exitCode !== 0) throw new Error(`tar failed: ${tar.stderr.toString()}`);
    const { dir } = this;
    writeFileSync(
      join(dir, "containers.conf"),
      [
        "[containers]",
        // The root user's hard limits here are below podman's defaults (1048576).
        'default_ulimits = ["nofile=1024:1024", "nproc=1024:1024"]',
        "[engine]",
        'cgroup_manager = "cgroupfs"',
        'events_logger = "file"',
        'runtime = "runc"',
        `tmp_dir = "${dir}/tmp"`,
        `static_dir = "${dir}/root/libpod"`,
        `volume_path = "${dir}/root/volumes"`,
        "[network]",
        'network_backend = "cni"',
        `cni_plugin_dirs = ["${this.pluginDir}"]`,
        `network_config_dir = "${this.netDir}"`,
        `default_subnet = "${DEFAULT_SUBNET}"`,
        "",
      ].join("\n"),
    );
    writeFileSync(
      join(dir, "storage.conf"),
      ["[storage]", 'driver = "vfs"', `graphroot = "${dir}/root"`, `runroot = "${dir}/runroot"`, ""].join("\n"),
    );
    // /var/lib/cni must exist as a mount point; the reference plugins create it too.
    mkdirSync("/var/lib/cni", { recursive: true });
    const wrapper = join(dir, "podman-in-ns");
    writeFileSync(
      wrapper,
      [
        "#!/bin/sh",
        "# A private copy of the mount holding /var/lib/cni, then podman's CNI state over it.",
        'm=$(findmnt -n -o TARGET --target /var/lib/cni) && mount --make-private "$m" || exit 125',
        `mount --bind '${this.cniState}' /var/lib/cni || exit 125`,
        `export CONTAINERS_CONF='${dir}/containers.conf' CONTAINERS_STORAGE_CONF='${dir}/storage.conf'`,
        'exec podman "$@"',
        "",
      ].join("\n"),
    );
    chmodSync(wrapper, 0o755);
  }

  async #uplink(): Promise<void> {
    const { host: H, outside: O } = this;
    const cmds: string[][] = [
      ["ip", "-n", H, "link", "add", "uplink", "type", "veth", "peer", "name", "uplink", "netns", O],
      ["ip", "-n", H, "addr", "add", `${UPLINK.host}/${UPLINK.prefix}`, "dev", "uplink"],
      ["ip", "-n", O, "addr", "add", `${UPLINK.outside}/${UPLINK.prefix}`, "dev", "uplink"],
      ["ip", "-n", H, "addr", "add", `${UPLINK.host6}/64`, "dev", "uplink", "nodad"],
      ["ip", "-n", O, "addr", "add", `${UPLINK.outside6}/64`, "dev", "uplink", "nodad"],
      ["ip", "-n", H, "link", "set", "uplink", "up"],
      ["ip", "-n", O, "link", "set", "uplink", "up"],
    ];
    for (const c of cmds) {
      const r = Bun.spawnSync(c, { stderr: "pipe" });
      if (r.exitCode !== 0) throw new Error(`${c.join(" ")}: ${r.stderr.toString()}`);
    }
  }

  /** Runs podman with `args` inside the host namespace. */
  async pm(args: string[]): Promise<Out> {
    const proc = Bun.spawn(
      [
        "unshare",
        "-m",
        "--propagation",
        "unchanged",
        "nsenter",
        `--net=/run/netns/${this.host}`,
        join(this.dir, "podman-in-ns"),
        ...args,
      ],
      {
        stdout: "pipe",
        stderr: "pipe",
        stdin: "ignore",
      },
    );
    const [stdout, stderr, code] = await Promise.all([
      new Response(proc.stdout).text(),
      new Response(proc.stderr).text(),
      proc.exited,
    ]);
    return { code, stdout, stderr };
  }

  /** Like `pm`, but throws with podman's stderr when it fails; returns stdout trimmed. */
  async ok(args: string[]): Promise<string> {
    const r = await this.pm(args);
    if (r.code !== 0) throw new Error(`podman ${args.join(" ")} exited ${r.code}: ${r.stderr.trim()}`);
    return r.stdout.trim();
  }

  /** Runs a command in one of our namespaces (not in a container). */
  in(ns: string, cmd: string[]): Promise<Out> {
    return sh(ns, cmd);
  }

  /** Files under the CNI state dir (host-local's store, our index, libcni's cache), relative. */
  stateFiles(): string[] {
    const out: string[] = [];
    const walk = (d: string, rel: string) => {
      for (const f of readdirSync(d)) {
        const p = join(d, f);
        if (statSync(p).isDirectory()) walk(p, `${rel}${f}/`);
        else out.push(`${rel}${f}`);
      }
    };
    if (existsSync(this.cniState)) walk(this.cniState, "");
    return out.sort();
  }

  /** Removes every container and network podman has, then the namespaces and the temp dir. */
  async close(): Promise<void> {
    try {
      await this.pm(["rm", "-a", "-f", "-t", "0"]);
      const nets = (await this.pm(["network", "ls", "--format", "{{.Name}}"])).stdout
        .split("\n")
        .filter((n) => n !== "" && n !== "podman");
      if (nets.length > 0) await this.pm(["network", "rm", "-f", ...nets]);
    } finally {
      await this.world.close();
      rmSync(this.dir, { recursive: true, force: true });
    }
  }
}
