// Command convert is the reference side of scripts/compat/convert.compat.test.ts: it
// converts CNI results with the reference library (libcni's pkg/types) exactly as a
// runtime does, so our converters can be compared with it.
//
// Input: one JSON object per line, {"result": <result>, "to": "<version>"}.
// Output: one JSON line per input line, the converted result as json.Marshal prints
// it, or {"error": "<message>"} when parsing or conversion fails.
package main

import (
	"encoding/json"
	"fmt"

	"../lineproto"

	"github.com/containernetworking/cni/pkg/types/create"

	// The converters register themselves when their packages load.
	_ "github.com/containernetworking/cni/pkg/types/020"
	_ "github.com/containernetworking/cni/pkg/types/040"
	_ "github.com/containernetworking/cni/pkg/types/100"
)

type request struct {
	Result json.RawMessage `json:"result"`
	To     string          `json:"to"`
}

// convert returns the converted result's JSON, or an error object's JSON.
func convert(line []byte) []byte {
	var req request
	if err := json.Unmarshal(line, &req); err != nil {
		return lineproto.Failure(fmt.Errorf("bad request line: %w", err))
	}
	result, err := create.CreateFromBytes(req.Result)
	if err != nil {
		return lineproto.Failure(err)
	}
	converted, err := result.GetAsVersion(req.To)
	if err != nil {
		return lineproto.Failure(err)
	}
	out, err := json.Marshal(converted)
	if err != nil {
		return lineproto.Failure(err)
	}
	return out
}

func main() {
	lineproto.Serve(convert, 1<<24)
}
