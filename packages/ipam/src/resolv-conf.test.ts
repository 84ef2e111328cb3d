import { expect, test } from "bun:test";
import { parseResolvConf } from "./resolv-conf.ts";

test("parseResolvConf follows host-local's rules for comments, short lines and each keyword", () => {
  const text = [
    "# a comment",
    "; another comment",
    "",
    "nameserver 198.18.0.53",
    "nameserver   2001:db8::53  ",
    "nameserver",
    "domain first.example",
    "domain second.example",
    "search a.example b.example",
    "search c.example",
    "options ndots:5 rotate",
    "sortlist 198.18.0.0/24",
    "\tnameserver 198.18.0.54\r",
  ].join("\n");
  expect(parseResolvConf(text)).toEqual({
    nameservers: ["198.18.0.53", "2001:db8::53", "198.18.0.54"],
    domain: "second.example",
    search: ["a.example", "b.example", "c.example"],
    options: ["ndots:5", "rotate"],
  });
});

test("parseResolvConf of an empty file is an empty dns", () => {
  expect(parseResolvConf("")).toEqual({});
});
