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
