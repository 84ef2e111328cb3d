// Package lineproto is the main loop of the JSON line-protocol programs beside it
// (convert, confparse): one request per line on stdin, one answer per line on stdout.
// They import it by relative path ("../lineproto"), which GOPATH mode allows for code
// outside GOPATH: the offline build against Debian's GOPATH needs no module for it.
package lineproto

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
)

// Failure is the answer to a request that failed: {"error": "<message>"}.
func Failure(err error) []byte {
	out, _ := json.Marshal(map[string]string{"error": err.Error()})
	return out
}

// Serve answers every stdin line (up to maxLine bytes) with answer's line, then exits 1
// on a read error.
func Serve(answer func(line []byte) []byte, maxLine int) {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), maxLine)
	out := bufio.NewWriter(os.Stdout)
	for in.Scan() {
		out.Write(answer(in.Bytes()))
		out.WriteByte('\n')
	}
	out.Flush()
	if err := in.Err(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
