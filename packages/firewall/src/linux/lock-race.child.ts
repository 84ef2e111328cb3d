/**
 * One plugin-like process for lock.test.ts: waits for a common start time, then applies
 * container `i`'s ADD, which also ensures rules every container shares, with a pause
 * after each read (widening the read -> write window the lock must close). Exits 0 on
 * success, 1 with the error on stderr. Run inside the test's namespace (`ip netns exec`).
 * argv: backend (ipt|nft), i, startAtMs, pauseMs, lock (on|off), tools dir.
 */
import type { FirewallTx } from "../ops.ts";
import { createLinuxFirewall } from "./linux-firewall.ts";
import { raceAdd } from "./lock-race.ts";

const [backend, i, startAt, pause, lock, dir] = process.argv.slice(2) as [
  string,
  string,
  string,
  string,
  string,
  string,
];
const isRead = (argv: readonly string[]): boolean => /-save$/.test(argv[0] ?? "") || argv.includes("list");
const fw = await createLinuxFirewall({
  path: dir,
  ...(lock === "off" && { lock: false }),
  afterNftRead: () => Bun.sleepSync(Number(pause)),
  // The pause comes after the read has finished, before anything is written.
  wrapExec: (exec) => (argv, stdin) =>
    exec(argv, stdin).then((r) => {
      if (isRead(argv)) Bun.sleepSync(Number(pause));
      return r;
    }),
});
const tx: FirewallTx = raceAdd(backend as "ipt" | "nft", Number(i));
Bun.sleepSync(Math.max(0, Number(startAt) - Date.now()));
try {
  await fw.apply(tx);
} catch (e) {
  console.error((e as Error).message);
  process.exit(1);
}
