export {
  CURRENT_VERSION,
  LEGACY_VERSIONS,
  VERSIONS,
  compareVersions,
  isKnownVersion,
  parseVersion,
  versionAtLeast,
  versionsStartingFrom,
} from "./version.ts";
export type { ParsedVersion, Version } from "./version.ts";
export { CniError, ErrorCode } from "./error.ts";
export type { CniErrorJson, ErrorCodeValue } from "./error.ts";
export type {
  Attachment,
  DNS,
  ErrorResult,
  IPAMConfig,
  IPConfig020,
  IPConfig040,
  IPConfig100,
  Interface040,
  Interface100,
  NetConfList,
  PluginConf,
  Result,
  Result020,
  Result040,
  Result100,
  ResultFamily,
  Route,
  VersionInfo,
} from "./types.ts";
export { canonicalCIDR, canonicalIP, formatCIDR, formatIP, ipFamily, isIPv4, parseCIDR, parseIP } from "./ip.ts";
export type { ParsedCIDR } from "./ip.ts";
export * as ipnet from "./ipnet/index.ts";
export type { Family, IP, IPNet } from "./ipnet/index.ts";
export { FAMILY_VERSIONS, isResult020, isResult040, isResult100, resultFamily } from "./family.ts";
export { createResult, parseResult } from "./parse.ts";
export { convertResult } from "./convert.ts";
export { goJSON, resultToJSON, resultToWire } from "./serialize.ts";
export type { JsonValue } from "./serialize.ts";
export {
  DNSSchema,
  IPConfig020Schema,
  IPConfig040Schema,
  IPConfig100Schema,
  Interface040Schema,
  Interface100Schema,
  IpamResult040Schema,
  IpamResult100Schema,
  Result020Schema,
  Result040Schema,
  Result100Schema,
  RouteSchema,
} from "./schemas/result.ts";
export {
  AttachmentSchema,
  ConfDNSSchema,
  IPAMConfSchema,
  NetConfListSchema,
  PluginConfSchema,
} from "./schemas/config.ts";
export { ErrorSchema, VersionInfoSchema } from "./schemas/wire.ts";
export { describeIssues, issuePath } from "./schemas/_go.ts";
