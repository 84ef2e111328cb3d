// gocni sets up, checks and removes one pod's networks through containerd's CNI library
// (github.com/containerd/go-cni, Debian's golang-github-containerd-go-cni-dev) the way
// containerd's CRI plugin does: loopback plus the default network of a config dir (at
// least two networks, the first config file only), the pod's labels as CNI_ARGS, the pod
// annotations, port mappings and bandwidth as capabilities.
//
//	gocni -op setup|check|remove -bin DIR -conf DIR -id ID -netns PATH [-ports JSON] [-bandwidth JSON]
//
// setup prints {"interfaces":...,"dns":...,"routes":...,"raw":[...]} (go-cni's Result and
// the raw results); check and remove print {}. A failure prints {"error":"..."} and exits 1.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"

	gocni "github.com/containerd/go-cni"
)

// podAnnotations is containerd's annotations.PodAnnotations capability key.
const podAnnotations = "io.kubernetes.cri.pod-annotations"

func fail(err error) {
	out, _ := json.Marshal(map[string]string{"error": err.Error()})
	fmt.Println(string(out))
	os.Exit(1)
}

func main() {
	op := flag.String("op", "setup", "setup, check or remove")
	bin := flag.String("bin", "/opt/cni/bin", "plugin dir (containerd's bin_dir)")
	conf := flag.String("conf", "/etc/cni/net.d", "config dir (containerd's conf_dir)")
	id := flag.String("id", "", "sandbox id")
	netns := flag.String("netns", "", "sandbox network namespace path")
	ports := flag.String("ports", "", "port mappings, JSON array of go-cni PortMapping")
	bandwidth := flag.String("bandwidth", "", "bandwidth, JSON go-cni BandWidth")
	flag.Parse()

	// containerd's CRI: cni.New(WithMinNetworkCount(2), WithPluginConfDir, WithPluginMaxConfNum(1), WithPluginDir)
	// then Load(WithLoNetwork, WithDefaultConf) and Status before each sandbox.
	plugin, err := gocni.New(gocni.WithMinNetworkCount(2), gocni.WithPluginConfDir(*conf), gocni.WithPluginMaxConfNum(1), gocni.WithPluginDir([]string{*bin}))
	if err != nil {
		fail(err)
	}
	if err := plugin.Load(gocni.WithLoNetwork, gocni.WithDefaultConf); err != nil {
		fail(err)
	}
	if err := plugin.Status(); err != nil {
		fail(err)
	}

	// containerd's cniNamespaceOpts: labels, annotations, then port mappings and bandwidth when set.
	opts := []gocni.NamespaceOpts{
		gocni.WithLabels(map[string]string{
			"K8S_POD_NAMESPACE":          "default",
			"K8S_POD_NAME":               "pod-" + *id,
			"K8S_POD_INFRA_CONTAINER_ID": *id,
			"K8S_POD_UID":                "uid-" + *id,
			"IgnoreUnknown":              "1",
		}),
		gocni.WithCapability(podAnnotations, map[string]string{"tscni.test/pod": *id}),
	}
	if *ports != "" {
		var pm []gocni.PortMapping
		if err := json.Unmarshal([]byte(*ports), &pm); err != nil {
			fail(err)
		}
		opts = append(opts, gocni.WithCapabilityPortMap(pm))
	}
	if *bandwidth != "" {
		var bw gocni.BandWidth
		if err := json.Unmarshal([]byte(*bandwidth), &bw); err != nil {
			fail(err)
		}
		opts = append(opts, gocni.WithCapabilityBandWidth(bw))
	}

	ctx := context.Background()
	switch *op {
	case "setup":
		r, err := plugin.Setup(ctx, *id, *netns, opts...)
		if err != nil {
			fail(err)
		}
		out, err := json.Marshal(map[string]interface{}{"interfaces": r.Interfaces, "dns": r.DNS, "routes": r.Routes, "raw": r.Raw()})
		if err != nil {
			fail(err)
		}
		fmt.Println(string(out))
	case "check":
		if err := plugin.Check(ctx, *id, *netns, opts...); err != nil {
			fail(err)
		}
		fmt.Println("{}")
	case "remove":
		if err := plugin.Remove(ctx, *id, *netns, opts...); err != nil {
			fail(err)
		}
		fmt.Println("{}")
	default:
		fail(fmt.Errorf("unknown op %q", *op))
	}
}
