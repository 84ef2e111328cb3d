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
	"encoding/json"
	"fmt"

	"../lineproto"

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
		return lineproto.Failure(fmt.Errorf("bad request line: %w", err))
	}
	var answer interface{}
	if req.List {
		l, err := libcni.ConfListFromBytes(req.Bytes)
		if err != nil {
			return lineproto.Failure(err)
		}
		out := list{Name: l.Name, CNIVersion: l.CNIVersion, Plugins: []string{}}
		for _, p := range l.Plugins {
			out.Plugins = append(out.Plugins, p.Network.Type)
		}
		answer = out
	} else {
		c, err := libcni.ConfFromBytes(req.Bytes)
		if err != nil {
			return lineproto.Failure(err)
		}
		answer = conf{Name: c.Network.Name, Type: c.Network.Type, CNIVersion: c.Network.CNIVersion}
	}
	out, err := json.Marshal(answer)
	if err != nil {
		return lineproto.Failure(err)
	}
	return out
}

func main() {
	lineproto.Serve(parse, 1<<26)
}
