// Command confparse is the reference side of `cni fuzz config --against` (issue 15): it
// parses network configs and lists with the reference library (libcni's ConfFromBytes
// and ConfListFromBytes; NetworkConfFromBytes in later libcni) exactly as a runtime
// loading them does, so our parsers can be compared with it.
//
// Input: one JSON object per line, {"bytes": "<base64>", "list": bool}.
// Output: one JSON line per input line: {"name", "type", "cniVersion"} of a config, or
// {"name", "cniVersion", "plugins": [<type>...]} of a list, or {"error": "<message>"}.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"

	"github.com/containernetworking/cni/libcni"
)

type request struct {
	Bytes []byte `json:"bytes"`
	List  bool   `json:"list"`
}

type conf struct {
	Name       string `json:"name"`
	Type       string `json:"type"`
	CNIVersion string `json:"cniVersion"`
}

type list struct {
	Name       string   `json:"name"`
	CNIVersion string   `json:"cniVersion"`
	Plugins    []string `json:"plugins"`
}

// parse returns the parsed fields' JSON, or an error object's JSON.
func parse(line []byte) []byte {
	var req request
	if err := json.Unmarshal(line, &req); err != nil {
		return failure(fmt.Errorf("bad request line: %w", err))
	}
	var answer interface{}
	if req.List {
		l, err := libcni.ConfListFromBytes(req.Bytes)
		if err != nil {
			return failure(err)
		}
		out := list{Name: l.Name, CNIVersion: l.CNIVersion, Plugins: []string{}}
		for _, p := range l.Plugins {
			out.Plugins = append(out.Plugins, p.Network.Type)
		}
		answer = out
	} else {
		c, err := libcni.ConfFromBytes(req.Bytes)
		if err != nil {
			return failure(err)
		}
		answer = conf{Name: c.Network.Name, Type: c.Network.Type, CNIVersion: c.Network.CNIVersion}
	}
	out, err := json.Marshal(answer)
	if err != nil {
		return failure(err)
	}
	return out
}

func failure(err error) []byte {
	out, _ := json.Marshal(map[string]string{"error": err.Error()})
	return out
}

func main() {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 1<<26)
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	for in.Scan() {
		out.Write(parse(in.Bytes()))
		out.WriteByte('\n')
	}
	if err := in.Err(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
