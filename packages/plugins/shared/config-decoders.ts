/**
 * Each plugin's config decoding without the kernel, for `cni fuzz config` (issue 15):
 * stdin bytes go through the skel's own steps (decodeConfig, configVersion, the version
 * gate, §1.11 steps 4-5) and then the parser the plugin's ADD calls first, with the same
 * arguments. Only the synchronous parsers: portmap's reads the firewall backend
 * (`parsePortmapConfig` is async) and is left to `cni fuzz plugin`.
 */
import { checkExactVersion, configVersion, decodeConfig, type CmdArgs } from "@tscni/skel";
import { CniError, VERSIONS, versionsStartingFrom } from "@tscni/spec";
import { parseBandwidthConfig } from "../bandwidth/config.ts";
import { parseBridgeConfig, validateForAdd as bridgeForAdd } from "../bridge/config.ts";
import { parseDhcpConf } from "../dhcp/config.ts";
import { parseDummyConfig } from "../dummy/config.ts";
import { parseFirewallConfig } from "../firewall/config.ts";
import { parseHostDeviceConfig } from "../host-device/config.ts";
import type { Sysfs } from "../host-device/sysfs.ts";
import { loadConfig as hostLocalConfig } from "../host-local/config.ts";
import { parseIpvlanConfig } from "../ipvlan/config.ts";
import { parseMacvlanConfig } from "../macvlan/config.ts";
import { parsePtpConfig, validateForAdd as ptpForAdd } from "../ptp/config.ts";
import { parseSbrConfig } from "../sbr/config.ts";
import { loadStaticConfig } from "../static/config.ts";
import { parseTapConfig } from "../tap/config.ts";
import { checkSysctlKeys, parseTuningConfig } from "../tuning/config.ts";
import { parseVlanConfig } from "../vlan/config.ts";
import { parseVrfConfig } from "../vrf/config.ts";
import { parsePrevResult } from "@tscni/skel";

type Parse = (a: CmdArgs) => unknown;

/** A sysfs with nothing in it: host-device's deviceID lookups find no device. */
const EMPTY_SYSFS: Sysfs = {
  root: "/nonexistent",
  list: () => undefined,
  exists: () => false,
  linkTarget: () => undefined,
};

/** The config after ADD's own validation of it. */
function checked<C>(conf: C, validate: (c: C) => void): C {
  validate(conf);
  return conf;
}

/** Plugin type to its supported versions (as its PluginDefinition) and ADD's first parse. */
const PARSERS: Readonly<Record<string, { versions: readonly string[]; parse: Parse }>> = {
  bandwidth: { versions: versionsStartingFrom("0.3.0"), parse: (a) => parseBandwidthConfig(a.config) },
  bridge: { versions: VERSIONS, parse: (a) => checked(parseBridgeConfig(a.config, a.args), bridgeForAdd) },
  dhcp: { versions: VERSIONS, parse: (a) => parseDhcpConf(new TextDecoder().decode(a.stdinData)) },
  dummy: { versions: VERSIONS, parse: (a) => parseDummyConfig(a.config) },
  firewall: { versions: versionsStartingFrom("0.4.0"), parse: (a) => parseFirewallConfig(a.config) },
  "host-device": { versions: VERSIONS, parse: (a) => parseHostDeviceConfig(a.config, EMPTY_SYSFS) },
  "host-local": { versions: VERSIONS, parse: (a) => hostLocalConfig(a) },
  ipvlan: { versions: VERSIONS, parse: (a) => parseIpvlanConfig(a.config) },
  loopback: { versions: VERSIONS, parse: (a) => parsePrevResult(a.config) },
  macvlan: { versions: VERSIONS, parse: (a) => parseMacvlanConfig(a.config, a.args) },
  ptp: { versions: VERSIONS, parse: (a) => checked(parsePtpConfig(a.config), ptpForAdd) },
  sbr: { versions: VERSIONS, parse: (a) => parseSbrConfig(a.config) },
  static: { versions: VERSIONS, parse: (a) => loadStaticConfig(a.config, a.args) },
  tap: { versions: VERSIONS, parse: (a) => parseTapConfig(a.config, a.args) },
  tuning: {
    versions: VERSIONS,
    parse: (a) => {
      checkSysctlKeys(a.config, a.stdinData);
      return parseTuningConfig(a.config, a.args);
    },
  },
  vlan: { versions: VERSIONS, parse: (a) => parseVlanConfig(a.config) },
  vrf: { versions: versionsStartingFrom("0.3.1"), parse: (a) => parseVrfConfig(a.config) },
};

/** The plugin types {@link decodePluginConfig} knows. */
export const DECODED_TYPES: readonly string[] = Object.keys(PARSERS);

/**
 * Decodes `stdin` as plugin `type`'s ADD would before touching the kernel: the parsed
 * config, or a throw (a CniError, or an Error the skel reports as code 999).
 */
export function decodePluginConfig(type: string, stdin: Uint8Array, cniArgs = ""): unknown {
  const p = PARSERS[type];
  if (p === undefined) throw new Error(`no decoder for plugin type ${JSON.stringify(type)}`);
  const config = decodeConfig(stdin);
  if (config instanceof CniError) throw config;
  const version = configVersion(config);
  if (version instanceof CniError) throw version;
  const gate = checkExactVersion(version, p.versions);
  if (gate !== undefined) throw gate;
  return p.parse({
    command: "ADD",
    containerID: "fuzz",
    netns: "/var/run/netns/fuzz",
    ifName: "eth0",
    args: cniArgs,
    path: "",
    stdinData: stdin,
    config: { ...config, type: typeof config.type === "string" ? config.type : "", cniVersion: version },
  });
}
