/**
 * For ipt-support.test.ts: prints, as JSON, whether the kernel answers NFT_MSG_GETGEN to
 * this process in its own namespace (run under `unshare -U -r`, where it has no
 * CAP_NET_ADMIN over that namespace).
 */
import { nfGenerationAnswered } from "./ipt-support.ts";

console.log(JSON.stringify(await nfGenerationAnswered(undefined)));
