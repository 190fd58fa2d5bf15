package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"

	"github.com/elicit-dev/elicit/cmd/elicit/demo"
)

// The demo with one question altered, for the replays that must go red:
// the deploy question offers a fourth branch. It is the demo itself over
// stdio, its output rewritten line by line, so everything else (the other
// tools, both eras) stays as the recording saw it.

const (
	demoBranches        = `"enum":["main","release","hotfix"]`
	demoBranchesAltered = `"enum":["main","release","hotfix","rollback"]`
)

// serveDemoAltered is the "demo-altered" test server scene.
func serveDemoAltered(_ *bufio.Scanner, _ *json.Encoder) {
	w := &alterLines{w: os.Stdout, old: []byte(demoBranches), new: []byte(demoBranchesAltered)}
	if err := demo.ServeIO(context.Background(), os.Stdin, w, nil); err != nil {
		fmt.Fprintln(os.Stderr, "demo-altered:", err)
	}
}

// alterLines replaces old with new in each line written through it.
type alterLines struct {
	w        io.Writer
	old, new []byte
	buf      []byte
}

func (a *alterLines) Write(p []byte) (int, error) {
	a.buf = append(a.buf, p...)
	for {
		i := bytes.IndexByte(a.buf, '\n')
		if i < 0 {
			return len(p), nil
		}
		line := bytes.ReplaceAll(a.buf[:i+1], a.old, a.new)
		if _, err := a.w.Write(line); err != nil {
			return 0, err
		}
		a.buf = a.buf[i+1:]
	}
}
