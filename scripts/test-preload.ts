/**
 * Loaded before every test file (bunfig.toml). Under CI, property tests run with one fixed
 * seed so that a run is reproducible and a red CI always means a regression; everywhere
 * else each run draws a new seed and keeps exploring (set FC_SEED to replay one).
 */
import fc from "fast-check";

const seed = process.env.FC_SEED ?? (process.env.CI === "true" ? "20261121" : undefined);
if (seed !== undefined) fc.configureGlobal({ ...fc.readConfigureGlobal(), seed: Number(seed) });
