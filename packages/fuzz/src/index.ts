export type { Target } from "./target.ts";
export { describeThrown, judge, SLOW_MS } from "./target.ts";
export { replay, runTarget } from "./run.ts";
export type { Failure, Progress, RunOptions, RunReport } from "./run.ts";
export { configTarget, configTargetWith } from "./targets/config.ts";
export type { ConfigCase } from "./targets/config.ts";
export { configCniArgs } from "./cni-args.ts";
export { judgePlugin, pluginsNamedIn } from "./targets/plugin-decoding.ts";
export type { PluginDecoding } from "./targets/plugin-decoding.ts";
export { convertTarget } from "./targets/convert.ts";
export type { ConvertCase } from "./targets/convert.ts";
export { anyLeaf, deepNesting, hostileNumber, hostileString, jsonText } from "./json.ts";
export {
  cniVersion,
  configDocument,
  configKey,
  hostileConfig,
  nearValidConfig,
  validConfList,
  typedConfigDocument,
  validPluginConfig,
} from "./configs.ts";
export { PLUGIN_FIELDS, typedPluginConfig } from "./plugin-fields.ts";
export { CORPUS, corpusDocument } from "./corpus.ts";
export { mutate, mutatedBytes, mutation } from "./bytes.ts";
export type { Mutation } from "./bytes.ts";
export type { Answer } from "./against/answer.ts";
export { canonical, readAnswer } from "./against/answer.ts";
export { askCommand, commandOracle } from "./against/command.ts";
export type { Oracle } from "./against/command.ts";
export type { Allowance, Differential, Verdict } from "./against/differential.ts";
export { judgeAnswers } from "./against/differential.ts";
export { againstConvert, ourConversion } from "./against/convert.ts";
export type { AgainstConvertCase } from "./against/convert.ts";
export { CONVERT_ALLOWANCES } from "./against/convert-allowances.ts";
export { withoutNewerFields } from "./against/old-library.ts";
export { againstTarget, disagreementClass, runAgainst } from "./against/run.ts";
export type { AgainstReport } from "./against/run.ts";
export { againstConfig, ourParse } from "./against/config.ts";
export type { AgainstConfigCase } from "./against/config.ts";
export { CONFIG_ALLOWANCES } from "./against/config-allowances.ts";
export {
  CHAINED_IFNAME,
  cniArgs,
  cniCommand,
  containerId,
  DIR_TOKEN,
  envSet,
  envSetFor,
  fillTokens,
  ifname,
  NETNS_TOKEN,
  netns,
  TMP_TOKEN,
} from "./plugin/env.ts";
export type { EnvSet, TokenValues } from "./plugin/env.ts";
export { chainedPrevResult, hostLocalIpam, isChained, PLUGIN_TYPES, validConfig } from "./plugin/configs.ts";
export { pluginStdin } from "./plugin/stdin.ts";
export { FAILURE_KINDS, judgeExec, stackTraceLine } from "./plugin/judge.ts";
export type { ExecOutcome, FailureKind, Finding } from "./plugin/judge.ts";
export { ALLOWED_WRITE_DIRS, outsideAllowed, TRACED_SYSCALLS, writtenPaths } from "./plugin/writes.ts";
export { diffSnapshots, parseSnapshot, snapshotScript } from "./plugin/snapshot.ts";
export { caseArbitrary, caseSeed, drawCase, fromReplayFile, toReplayFile } from "./plugin/case.ts";
export type { PluginCase, PluginReplayFile } from "./plugin/case.ts";
export { runCase } from "./plugin/run-case.ts";
export type { CaseState } from "./plugin/run-case.ts";
export { formatTable, runPluginFuzz } from "./plugin/runner.ts";
export { shrinkCase } from "./plugin/shrink.ts";
export type { StillFails } from "./plugin/shrink.ts";
export type { PluginFailure, PluginProgress, PluginRow, PluginRunOptions, PluginRunReport } from "./plugin/runner.ts";
export type { Sandbox, SandboxExec } from "./plugin/sandbox.ts";
