export { createLinuxKernel, sysctlPath } from "./driver.ts";
export type { LinuxKernelOptions } from "./driver.ts";
export { classify, failedLine, reason, segmentError } from "./errors.ts";
export { parseAddrs, parseLinks, parseRoutes } from "./parse.ts";
export { createNsenterRunner, isNetnsFile, requireNetns, toolPath } from "./runner.ts";
export type { Command, NsRunner, RunResult } from "./runner.ts";
export { createSetnsRunner } from "./setns.ts";
export { openPacketSocket, buildDhcpDatagram, dhcpPayload } from "../packet-socket.ts";
export type { PacketSocket } from "../packet-socket.ts";
