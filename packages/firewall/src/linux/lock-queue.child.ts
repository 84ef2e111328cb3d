/**
 * The scenarios of lock.queue.test.ts, run in their own process: a regression there
 * blocks the thread in flock(2) for good, which the test sees as this process hanging
 * and kills, instead of hanging itself. Prints one JSON object: what each scenario saw.
 * argv: a directory for the lock files.
 */
import { join } from "node:path";
import { createFirewallLock } from "./lock.ts";

const dir = process.argv[2] as string;
const seen: Record<string, unknown> = {};

// Holders of one lock object take turns across awaits, in the order they asked.
{
  const lock = createFirewallLock(join(dir, "a.lock"));
  const events: string[] = [];
  const holder = (name: string, ms: number) =>
    lock.hold(async () => {
      events.push(`${name} in`);
      await Bun.sleep(ms);
      events.push(`${name} out`);
      return name;
    });
  seen.turns = { values: await Promise.all([holder("a", 30), holder("b", 1), holder("c", 10)]), events };
}

// Two lock objects on one path queue too (a firewall per call in the daemon).
{
  const path = join(dir, "b.lock");
  const events: string[] = [];
  const first = createFirewallLock(path).hold(async () => {
    events.push("first in");
    await Bun.sleep(20);
    events.push("first out");
  });
  const second = createFirewallLock(path).hold(async () => {
    events.push("second in");
  });
  await Promise.all([first, second]);
  seen.objects = events;
}

// A holder that fails passes its error on and lets the next one in.
{
  const lock = createFirewallLock(join(dir, "c.lock"));
  const failed = lock
    .hold(async () => {
      await Bun.sleep(5);
      throw new Error("restore refused");
    })
    .catch((e: unknown) => (e as Error).message);
  const next = lock.hold(async () => "next ran");
  seen.failure = await Promise.all([failed, next]);
}

// Alone in the queue, the holder starts within the call.
{
  let ran = false;
  const held = createFirewallLock(join(dir, "d.lock")).hold(async () => {
    ran = true;
  });
  seen.immediate = ran;
  await held;
}

process.stdout.write(JSON.stringify(seen));
