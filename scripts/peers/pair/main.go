// Command pair runs two commands as whole processes, paired and
// interleaved (A B, then B A, …), and prints one markdown row: the median
// wall time, CPU (user+system) and peak RSS of each, and the peer's
// median over elicit's ("peer ÷ elicit": above 1.0 elicit is faster).
//
//	pair [-n 21] [-warm 2] -label TEXT -- A ARGS... --vs B ARGS...
//
// A is elicit, B the peer. Each run's stdout is discarded (the program
// still writes it); a run that exits non-zero stops the driver with its
// stderr. Nothing here judges a figure: it only measures.
package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"syscall"
	"time"
)

func main() {
	n := flag.Int("n", 21, "paired runs")
	warm := flag.Int("warm", 2, "unmeasured runs of each first")
	label := flag.String("label", "", "the row's name")
	flag.Parse()
	a, b, err := split(flag.Args())
	if err != nil {
		fmt.Fprintf(os.Stderr, "pair: %v\n", err)
		os.Exit(2)
	}
	ra, rb, err := measure(a, b, *n, *warm)
	if err != nil {
		fmt.Fprintf(os.Stderr, "pair: %s: %v\n", *label, err)
		os.Exit(1)
	}
	wa, wb := median(ra, wall), median(rb, wall)
	ca, cb := median(ra, cpu), median(rb, cpu)
	fmt.Printf("| %s | %s, CPU %s, %s | %s, CPU %s, %s | %.2f | %.2f |\n", *label,
		ms(wa), ms(ca), mib(median(ra, rss)), ms(wb), ms(cb), mib(median(rb, rss)),
		float64(wb)/float64(wa), float64(cb)/float64(ca))
}

// split cuts "A… --vs B…" in two.
func split(args []string) (a, b []string, err error) {
	i := slices.Index(args, "--vs")
	if i <= 0 || i == len(args)-1 {
		return nil, nil, errors.New("want A ARGS... --vs B ARGS...")
	}
	return args[:i], args[i+1:], nil
}

type run struct {
	wall, cpu time.Duration
	rss       int64 // bytes
}

func wall(r run) int64 { return int64(r.wall) }
func cpu(r run) int64  { return int64(r.cpu) }
func rss(r run) int64  { return r.rss }

func measure(a, b []string, n, warm int) (ra, rb []run, err error) {
	for range warm {
		if _, err := once(a); err != nil {
			return nil, nil, err
		}
		if _, err := once(b); err != nil {
			return nil, nil, err
		}
	}
	for i := range n {
		first, second := a, b
		if i%2 == 1 {
			first, second = b, a
		}
		r1, err := once(first)
		if err != nil {
			return nil, nil, err
		}
		r2, err := once(second)
		if err != nil {
			return nil, nil, err
		}
		if i%2 == 1 {
			r1, r2 = r2, r1
		}
		ra, rb = append(ra, r1), append(rb, r2)
	}
	return ra, rb, nil
}

func once(args []string) (run, error) {
	c := exec.Command(args[0], args[1:]...)
	var stderr bytes.Buffer
	c.Stdout, c.Stderr = io.Discard, &stderr
	start := time.Now()
	if err := c.Run(); err != nil {
		return run{}, fmt.Errorf("%q: %w\n%s", args, err, stderr.Bytes())
	}
	r := run{wall: time.Since(start), cpu: c.ProcessState.UserTime() + c.ProcessState.SystemTime()}
	if u, ok := c.ProcessState.SysUsage().(*syscall.Rusage); ok {
		r.rss = u.Maxrss << 10 // KiB on Linux
	}
	return r, nil
}

func median(rs []run, f func(run) int64) int64 {
	v := make([]int64, len(rs))
	for i, r := range rs {
		v[i] = f(r)
	}
	slices.Sort(v)
	if len(v)%2 == 1 {
		return v[len(v)/2]
	}
	return (v[len(v)/2-1] + v[len(v)/2]) / 2
}

func ms(ns int64) string {
	if ns >= int64(time.Second) {
		return fmt.Sprintf("%.2f s", float64(ns)/1e9)
	}
	return fmt.Sprintf("%.1f ms", float64(ns)/1e6)
}

func mib(b int64) string { return fmt.Sprintf("%.1f MiB", float64(b)/(1<<20)) }
