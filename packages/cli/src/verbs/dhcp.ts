/**
 * `cni dhcp daemon [flags]`: the DHCP IPAM daemon the `dhcp` plugin talks to (the
 * reference's `dhcp daemon`), the same code as the `dhcp` link run with `daemon`.
 */
import type { CommandIO, Verb } from "../io.ts";

const HELP = `usage: cni dhcp daemon [flags]

Acquire DHCPv4 leases inside containers' network namespaces for the dhcp IPAM plugin,
renew them in the background and release them on DEL. Serves the plugin on a unix socket
(default /run/cni/dhcp.sock); leases are kept in -statedir and resumed after a restart.

  -socketpath PATH         the socket (default /run/cni/dhcp.sock)
  -pidfile PATH            write the daemon's pid there (absolute path)
  -hostprefix PREFIX       prefix of the host's root for netns and socket paths
  -statedir DIR            lease records (default /var/lib/cni/dhcp)
  -broadcast               set the broadcast flag in DISCOVER and REQUEST
  -timeout DURATION        first wait for each reply (default 10s)
  -resendmax DURATION      longest pause between retries (default 1m2s)
  -resendtimeout DURATION  stop retrying after this (default 3m28s)
`;

/** The `dhcp` verb. */
export const verb: Verb = {
  summary: "the DHCP IPAM daemon",
  help: HELP,
  async run(io: CommandIO): Promise<number> {
    if (io.argv[0] !== "daemon") {
      io.stderr(HELP);
      return 2;
    }
    const { main } = await import("@tscni/plugins/dhcp");
    return main(io);
  },
};
