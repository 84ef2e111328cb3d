export type { Target } from "./target.ts";
export { describeThrown, judge, SLOW_MS } from "./target.ts";
export { replay, runTarget } from "./run.ts";
export type { Failure, Progress, RunOptions, RunReport } from "./run.ts";
export { configTarget } from "./targets/config.ts";
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
  validPluginConfig,
} from "./configs.ts";
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
