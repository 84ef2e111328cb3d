/**
 * An `nft -f -` script as renderNftScript writes it (render-nft.ts: `add table`, `add
 * chain` with its spec, `flush chain`, `delete chain`, `delete table`, `add`/`insert rule`,
 * `delete rule ... handle N`) turned into the nf_tables messages `nft` would send for it,
 * so both transports apply the very same difference. A line or rule outside what we can
 * compile throws {@link Unsupported} before anything is sent.
 */
import type { MessageBuilder } from "@tscni/kernel/netlink";
import { Unsupported, compileRule } from "./compile.ts";
import * as C from "./const.ts";
import { encodeExpr, putBe32 } from "./expr.ts";
import { nftMessage } from "./socket.ts";

const type = (msg: number): number => (C.NFNL_SUBSYS_NFTABLES << 8) | msg;
const encoder = new TextEncoder();

/** The userdata TLV of a comment (type, length, text and its NUL), as libnftnl writes it. */
export function commentUserdata(comment: string): Uint8Array {
  const text = encoder.encode(comment);
  if (text.length + 1 > 255) throw new Unsupported("comment longer than 254 bytes");
  const out = new Uint8Array(text.length + 3);
  out[0] = C.UDATA_COMMENT;
  out[1] = text.length + 1;
  out.set(text, 2);
  return out;
}

function familyOf(name: string): number {
  const f = C.NFPROTO[name as keyof typeof C.NFPROTO];
  if (f === undefined) throw new Unsupported(`family ${name}`);
  return f;
}

const ADD = C.NLM_F.REQUEST | C.NLM_F.ACK | C.NLM_F.CREATE;
/** Deletions, and `add table`, as nft flags them. */
const DEL = C.NLM_F.REQUEST | C.NLM_F.ACK;

/** The message of one script line. */
export function lineMessage(line: string): MessageBuilder {
  let m: RegExpExecArray | null;
  if ((m = /^add table (\S+) (\S+)(?: \{ comment "([^"]*)" ; \})?$/.exec(line))) {
    // nft sends `add table` without NLM_F_CREATE (a table is made when missing all the same).
    const msg = nftMessage(type(C.MSG.NEWTABLE), DEL, familyOf(m[1] as string)).str(C.TABLE.NAME, m[2] as string);
    putBe32(msg, C.TABLE.FLAGS, 0);
    if (m[3] !== undefined) msg.bytes(C.TABLE.USERDATA, commentUserdata(m[3]));
    return msg;
  }
  if ((m = /^delete table (\S+) (\S+)$/.exec(line)))
    return nftMessage(type(C.MSG.DELTABLE), DEL, familyOf(m[1] as string)).str(C.TABLE.NAME, m[2] as string);
  if ((m = /^add chain (\S+) (\S+) (\S+)(?: \{ (.*) \})?$/.exec(line))) {
    const family = m[1] as string;
    const msg = nftMessage(type(C.MSG.NEWCHAIN), ADD, familyOf(family))
      .str(C.CHAIN.TABLE, m[2] as string)
      .str(C.CHAIN.NAME, m[3] as string);
    const spec = m[4] ?? "";
    const base = /type (\S+) hook (\S+) priority (\S+) ;/.exec(spec);
    if (base !== null) {
      // libnftnl's order: type, policy, hook (number, priority).
      msg.str(C.CHAIN.TYPE, base[1] as string);
      const hook = C.HOOKNUM[base[2] as keyof typeof C.HOOKNUM];
      const priority = C.priorityValue(family, base[3] as string);
      if (hook === undefined || priority === undefined) throw new Unsupported(`chain spec ${spec}`);
      const policy = /policy (accept|drop) ;/.exec(spec)?.[1];
      if (policy !== undefined) putBe32(msg, C.CHAIN.POLICY, C.VERDICT_CODE[policy as "accept" | "drop"]);
      msg.nest(C.CHAIN.HOOK | C.NLA_F_NESTED);
      putBe32(msg, C.HOOK.HOOKNUM, hook);
      putBe32(msg, C.HOOK.PRIORITY, priority);
      msg.end();
    }
    const comment = /comment "([^"]*)" ;/.exec(spec)?.[1];
    if (comment !== undefined) msg.bytes(C.CHAIN.USERDATA, commentUserdata(comment));
    return msg;
  }
  if ((m = /^flush chain (\S+) (\S+) (\S+)$/.exec(line))) {
    return nftMessage(type(C.MSG.DELRULE), DEL, familyOf(m[1] as string))
      .str(C.RULE.TABLE, m[2] as string)
      .str(C.RULE.CHAIN, m[3] as string);
  }
  if ((m = /^delete chain (\S+) (\S+) (\S+)$/.exec(line))) {
    return nftMessage(type(C.MSG.DELCHAIN), DEL, familyOf(m[1] as string))
      .str(C.CHAIN.TABLE, m[2] as string)
      .str(C.CHAIN.NAME, m[3] as string);
  }
  if ((m = /^delete rule (\S+) (\S+) (\S+) handle (\d+)$/.exec(line))) {
    const handle = new Uint8Array(8);
    new DataView(handle.buffer).setBigUint64(0, BigInt(m[4] as string));
    return nftMessage(type(C.MSG.DELRULE), DEL, familyOf(m[1] as string))
      .str(C.RULE.TABLE, m[2] as string)
      .str(C.RULE.CHAIN, m[3] as string)
      .bytes(C.RULE.HANDLE, handle);
  }
  if ((m = /^(add|insert) rule (\S+) (\S+) (\S+) (.*?)(?: comment "([^"]*)")?$/.exec(line))) {
    const family = m[2] as string;
    const exprs = compileRule(family, m[5] as string);
    const msg = nftMessage(type(C.MSG.NEWRULE), ADD | (m[1] === "add" ? C.NLM_F.APPEND : 0), familyOf(family));
    msg.str(C.RULE.TABLE, m[3] as string).str(C.RULE.CHAIN, m[4] as string);
    msg.nest(C.RULE.EXPRESSIONS | C.NLA_F_NESTED);
    for (const e of exprs) encodeExpr(msg, e);
    msg.end();
    if (m[6] !== undefined) msg.bytes(C.RULE.USERDATA, commentUserdata(m[6]));
    return msg;
  }
  throw new Unsupported(`script line ${line}`);
}

/** The messages of a whole script, in order. */
export function scriptMessages(script: string): MessageBuilder[] {
  return script
    .split("\n")
    .filter((l) => l !== "")
    .map(lineMessage);
}
