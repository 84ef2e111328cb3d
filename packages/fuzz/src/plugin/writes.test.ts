import { expect, test } from "bun:test";
import { ALLOWED_WRITE_DIRS, outsideAllowed, writtenPaths } from "./writes.ts";

const LOG = `101 openat(AT_FDCWD, "/etc/passwd", O_RDONLY|O_CLOEXEC) = 3
101 openat(AT_FDCWD, "/var/lib/cni/networks/n/198.18.0.2", O_RDWR|O_CREAT|O_TRUNC|O_CLOEXEC, 0644) = 4
102 openat(AT_FDCWD, "/tmp/evil", O_WRONLY|O_CREAT|O_TRUNC, 0666 <unfinished ...>
103 mkdirat(AT_FDCWD, "/opt/x", 0755) = -1 EEXIST (File exists)
102 <... openat resumed>) = 5
103 renameat2(AT_FDCWD, "rel/tmpfile", AT_FDCWD, "/etc/cni/net.d/a.conf", RENAME_NOREPLACE) = 0
103 unlinkat(AT_FDCWD, "/run/cni/x\\x20y", 0) = 0
103 symlink("/target/not/written", "/srv/link") = 0
`;

test("writtenPaths keeps successful write-mode opens and path changes, resumed calls joined", () => {
  expect(writtenPaths(LOG, "/work/cwd")).toEqual([
    "/var/lib/cni/networks/n/198.18.0.2",
    "/tmp/evil",
    "/work/cwd/rel/tmpfile",
    "/etc/cni/net.d/a.conf",
    "/run/cni/x y",
    "/srv/link",
  ]);
});

test("outsideAllowed lets the CNI dirs, sysctls, devices and the run's temp dir pass", () => {
  const paths = writtenPaths(LOG, "/work/cwd");
  expect(outsideAllowed(paths, [...ALLOWED_WRITE_DIRS, "/work"])).toEqual([
    "/tmp/evil",
    "/etc/cni/net.d/a.conf",
    "/srv/link",
  ]);
  // A sibling whose name only starts like an allowed dir is outside it.
  expect(
    outsideAllowed(["/var/lib/cni-evil/x", "/dev/null", "/proc/sys/net/ipv4/ip_forward"], ALLOWED_WRITE_DIRS),
  ).toEqual(["/var/lib/cni-evil/x"]);
});
