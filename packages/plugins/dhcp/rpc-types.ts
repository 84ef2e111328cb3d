/**
 * The Go types the reference's dhcp plugin and daemon exchange over net/rpc, as gob
 * describes them (field names are what gob matches on): rpc.Request and rpc.Response,
 * skel.CmdArgs, current.Result with its IPConfig, net.IPNet, types.Route and types.DNS,
 * and the empty struct of DHCP.Release's reply. net.IP travels as plain bytes: gob does
 * not use MarshalText (encoding/gob type.go, golang.org/issue/6760), as captured from the
 * reference's daemon.
 */
import { type GobType, T } from "./gob.ts";

const IP: GobType = T.bytes;
const IPNet: GobType = {
  kind: "struct",
  name: "IPNet",
  fields: [
    ["IP", IP],
    ["Mask", T.bytes],
  ],
};
const strings: GobType = { kind: "slice", name: "[]string", elem: T.string };

/** rpc.Request: the header before each call's arguments. */
export const Request: GobType = {
  kind: "struct",
  name: "Request",
  fields: [
    ["ServiceMethod", T.string],
    ["Seq", T.uint],
  ],
};
/** rpc.Response: the header before each reply. */
export const Response: GobType = {
  kind: "struct",
  name: "Response",
  fields: [
    ["ServiceMethod", T.string],
    ["Seq", T.uint],
    ["Error", T.string],
  ],
};
/** skel.CmdArgs, the arguments of DHCP.Allocate and DHCP.Release. */
export const CmdArgs: GobType = {
  kind: "struct",
  name: "CmdArgs",
  fields: [
    ["ContainerID", T.string],
    ["Netns", T.string],
    ["IfName", T.string],
    ["Args", T.string],
    ["Path", T.string],
    ["StdinData", T.bytes],
  ],
};
const Interface: GobType = {
  kind: "struct",
  name: "Interface",
  fields: [
    ["Name", T.string],
    ["Mac", T.string],
    ["Sandbox", T.string],
  ],
};
const IPConfig: GobType = {
  kind: "struct",
  name: "IPConfig",
  fields: [
    ["Interface", T.int],
    ["Address", IPNet],
    ["Gateway", IP],
  ],
};
const Route: GobType = {
  kind: "struct",
  name: "Route",
  fields: [
    ["Dst", IPNet],
    ["GW", IP],
    ["MTU", T.int],
    ["AdvMSS", T.int],
    ["Priority", T.int],
    ["Table", T.int],
    ["Scope", T.int],
  ],
};
const DNS: GobType = {
  kind: "struct",
  name: "DNS",
  fields: [
    ["Nameservers", strings],
    ["Domain", T.string],
    ["Search", strings],
    ["Options", strings],
  ],
};
/** current.Result (types/100), DHCP.Allocate's reply. */
export const Result: GobType = {
  kind: "struct",
  name: "Result",
  fields: [
    ["CNIVersion", T.string],
    ["Interfaces", { kind: "slice", name: "[]*current.Interface", elem: Interface }],
    ["IPs", { kind: "slice", name: "[]*current.IPConfig", elem: IPConfig }],
    ["Routes", { kind: "slice", name: "[]*types.Route", elem: Route }],
    ["DNS", DNS],
  ],
};
/** struct{}: DHCP.Release's reply, and the body of any error reply. */
export const Empty: GobType = { kind: "struct", name: "", fields: [] };
