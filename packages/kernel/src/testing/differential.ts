/**
 * The fake-vs-Linux step the kernel's differential tests share: one batch applied to the
 * FakeKernel and to a Linux driver must fail alike (kind and op index) and leave every
 * namespace reading alike through the test's own `observe`.
 */
import { expect } from "bun:test";
import { KernelError, type Kernel } from "../kernel.ts";
import type { KernelBatch, Netns } from "../ops.ts";

/** "ok", or the failure's kind and op index. */
export async function outcome(k: Kernel, batch: KernelBatch): Promise<string> {
  try {
    await k.apply(batch);
    return "ok";
  } catch (e) {
    if (!(e instanceof KernelError)) throw e;
    return `${e.kind} at op ${e.opIndex}`;
  }
}

/** Applies `batch` to both kernels and expects the same outcome, then the same reading of each of `namespaces`. */
export async function expectSameStep<T>(
  fake: Kernel,
  linux: Kernel,
  batch: KernelBatch,
  namespaces: readonly Netns[],
  observe: (k: Kernel, n: Netns) => Promise<T>,
): Promise<void> {
  const [want, got] = [await outcome(fake, batch), await outcome(linux, batch)];
  expect({ batch, outcome: got }).toEqual({ batch, outcome: want });
  for (const n of namespaces)
    expect({ ns: n, seen: await observe(linux, n) }).toEqual({ ns: n, seen: await observe(fake, n) });
}
