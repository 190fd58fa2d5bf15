package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/elicit-dev/elicit/cmd/elicit/internal/exit"
)

// TestReplayMatchesByMessageNotID: storm asks three questions at once,
// so their ids and the order they come in are the run's. Recorded with
// answers that are not the defaults, the recording's keys then shuffled,
// a replay still gives each question its own recorded answer (matched by
// message and schema): green, the result's values the recorded ones. With
// one recorded answer edited, the result differs: the answers given are
// the recording's.
func TestReplayMatchesByMessageNotID(t *testing.T) {
	answers := writeTemp(t, "answers.json", `{"messages":{"Storm question 1 of 3":{"value":30},"Storm question 2 of 3":{"value":10},"Storm question 3 of 3":{"value":20}}}`)
	for _, era := range []string{"2025-11-25", "2026-07-28"} {
		t.Run(era, func(t *testing.T) {
			f := filepath.Join(t.TempDir(), "storm.jsonl")
			code, out, errs := runCLI(t, "call", "storm", "--args", `{"n":3}`, "--answer", answers, "--protocol", era, "--record", f)
			if code != exit.OK || !strings.Contains(out, `30,`) || !strings.Contains(out, `10,`) {
				t.Fatalf("call --record: exit %d\n%s\n%s", code, out, errs)
			}
			orig, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			rewrite := func(name string, fn func(i int, line map[string]any)) string {
				var b bytes.Buffer
				sc := bufio.NewScanner(bytes.NewReader(orig))
				sc.Buffer(nil, 1<<20)
				n := 0
				for sc.Scan() {
					var line map[string]any
					if err := json.Unmarshal(sc.Bytes(), &line); err != nil {
						t.Fatal(err)
					}
					if line["type"] == "answer" {
						fn(n, line)
						n++
					}
					out, _ := json.Marshal(line)
					b.Write(append(out, '\n'))
				}
				if n != 3 {
					t.Fatalf("%d answers recorded, want 3", n)
				}
				p := filepath.Join(t.TempDir(), name)
				if err := os.WriteFile(p, b.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
				return p
			}
			// Keys (request ids, input keys) that name no question of the replay.
			shuffled := rewrite("shuffled.jsonl", func(i int, l map[string]any) { l["key"] = "demo#" + string(rune('x'+i)) })
			code, out, errs = runCLI(t, "replay", shuffled)
			if code != exit.OK || !strings.Contains(out, "all matched") {
				t.Fatalf("replay with other keys: exit %d\n%s%s", code, out, errs)
			}
			edited := rewrite("edited.jsonl", func(_ int, l map[string]any) {
				q, _ := l["question"].(map[string]any)
				g, _ := l["given"].(map[string]any)
				if q != nil && g != nil && q["message"] == "Storm question 2 of 3" {
					g["content"] = map[string]any{"value": 11}
				}
			})
			code, out, _ = runCLI(t, "replay", edited)
			if code != exit.Differs || !strings.Contains(out, "result") || !strings.Contains(out, "11") {
				t.Fatalf("replay with an edited answer: exit %d, want %d and the result's 10 now 11\n%s", code, exit.Differs, out)
			}
		})
	}
}
