// Command refcni is a small cnitool built on the reference libcni (SPEC.md §7.10): the
// reference runtime of scripts/compat/runtime.compat.test.ts.
//
//	refcni [--cache-dir DIR] add|check|del <network-name> <netns-path>
//
// Environment, as cnitool: NETCONFPATH (default /etc/cni/net.d), CNI_PATH, CNI_IFNAME
// (default eth0), CNI_ARGS (strict K=V pairs), CAP_ARGS (a JSON object); and
// CNI_CACHE_DIR for the result cache when --cache-dir is not given (default
// /var/lib/cni). The container ID is cnitool's: "cnitool-" + the hex of the first 10
// bytes of the SHA-512 of the absolute netns path (CT-3).
package main

import (
	"context"
	"crypto/sha512"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/containernetworking/cni/libcni"
)

func main() {
	cacheDir := flag.String("cache-dir", os.Getenv("CNI_CACHE_DIR"), "result cache directory")
	flag.Parse()
	if err := run(flag.Args(), *cacheDir); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func run(args []string, cacheDir string) error {
	if len(args) != 3 {
		return fmt.Errorf("usage: refcni [--cache-dir DIR] add|check|del <network-name> <netns-path>")
	}
	command, netName, netnsArg := args[0], args[1], args[2]

	netdir := os.Getenv("NETCONFPATH")
	if netdir == "" {
		netdir = "/etc/cni/net.d"
	}
	list, err := libcni.LoadConfList(netdir, netName)
	if err != nil {
		return err
	}
	rt, err := runtimeConf(netnsArg)
	if err != nil {
		return err
	}
	cni := libcni.NewCNIConfigWithCacheDir(filepath.SplitList(os.Getenv("CNI_PATH")), cacheDir, nil)
	ctx := context.Background()

	switch command {
	case "add":
		result, err := cni.AddNetworkList(ctx, list, rt)
		if err != nil {
			return err
		}
		return result.Print()
	case "check":
		return cni.CheckNetworkList(ctx, list, rt)
	case "del":
		return cni.DelNetworkList(ctx, list, rt)
	}
	return fmt.Errorf("unknown command %q", command)
}

// runtimeConf builds the attachment as cnitool does (CT-2, CT-3).
func runtimeConf(netnsArg string) (*libcni.RuntimeConf, error) {
	netns, err := filepath.Abs(netnsArg)
	if err != nil {
		return nil, err
	}
	sum := sha512.Sum512([]byte(netns))
	ifName := os.Getenv("CNI_IFNAME")
	if ifName == "" {
		ifName = "eth0"
	}
	rt := &libcni.RuntimeConf{
		ContainerID: fmt.Sprintf("cnitool-%x", sum[:10]),
		NetNS:       netns,
		IfName:      ifName,
	}
	if cniArgs := os.Getenv("CNI_ARGS"); cniArgs != "" {
		for _, pair := range strings.Split(cniArgs, ";") {
			kv := strings.Split(pair, "=")
			if len(kv) != 2 || kv[0] == "" || kv[1] == "" {
				return nil, fmt.Errorf("invalid CNI_ARGS pair %q", pair)
			}
			rt.Args = append(rt.Args, [2]string{kv[0], kv[1]})
		}
	}
	if capArgs := os.Getenv("CAP_ARGS"); capArgs != "" {
		if err := json.Unmarshal([]byte(capArgs), &rt.CapabilityArgs); err != nil {
			return nil, fmt.Errorf("invalid CAP_ARGS: %w", err)
		}
	}
	return rt, nil
}
