/**
 * Every conformance case, in the order the report lists them.
 */
import type { ConformanceCase } from "../types.ts";
import { DHCP_CASES } from "./dhcp.ts";
import { FRAMEWORK_CASES } from "./framework.ts";
import { HOST_LOCAL_CASES } from "./host-local.ts";
import { HOST_LOCAL_MAINTENANCE_CASES } from "./host-local-maintenance.ts";
import { LOOPBACK_CASES } from "./loopback.ts";
import { SUBLINK_CASES } from "./sublinks.ts";
import { HOST_DEVICE_CASES } from "./host-device.ts";
import { TAP_CASES } from "./tap.ts";

/** The whole suite: framework cases for every plugin, then per-plugin cases. */
export const ALL_CASES: readonly ConformanceCase[] = [
  ...FRAMEWORK_CASES,
  ...LOOPBACK_CASES,
  ...HOST_LOCAL_CASES,
  ...HOST_LOCAL_MAINTENANCE_CASES,
  ...SUBLINK_CASES,
  ...DHCP_CASES,
  ...HOST_DEVICE_CASES,
  ...TAP_CASES,
];
