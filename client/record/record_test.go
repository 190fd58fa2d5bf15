package record_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/client/question"
	"github.com/elicit-dev/elicit/client/record"
	"github.com/elicit-dev/elicit/transport/jsonrpc"
)

// buffer is a recording's file in memory.
type buffer struct {
	bytes.Buffer
	closed int
}

func (b *buffer) Close() error { b.closed++; return nil }

func deployQuestion(server string, id int64) *question.Question {
	return &question.Question{
		Key: question.Key{Server: server, Delivery: question.ServerRequest, RequestID: jsonrpc.IntID(id)}, Server: server,
		Kind: question.KindElicitation, Mode: question.ModeForm, Message: "Which branch?",
		RawSchema: json.RawMessage(`{"type":"object","properties":{"branch":{"type":"string"}}}`),
		Origin:    question.Origin{Kind: question.OriginToolCall, Name: "deploy"},
	}
}

// TestRecorderRoundTrip writes a session as the engine would tell it
// (two calls open on one server, a question of the second, a frame, a
// question left open) and reads it back.
func TestRecorderRoundTrip(t *testing.T) {
	var buf buffer
	r, err := record.New(&buf, "test", record.Settings{Command: "call", Elicit: "both", Sampling: "decline",
		Servers: []record.Server{{Name: "demo", Kind: "demo"}}})
	if err != nil {
		t.Fatal(err)
	}
	r.Frame("demo", client.Frame{Dir: client.Out, Raw: []byte(`{"jsonrpc":"2.0","id":1,"method":"ping"}`)})
	r.Frame("demo", client.Frame{Dir: client.In, Raw: []byte("not json \xff"), Err: errors.New("bad frame")})
	add := r.Begin("demo", "tools/call", "add", map[string]any{"name": "add"}, nil)
	yes := true
	deploy := r.Begin("demo", "tools/call", "deploy", map[string]any{"name": "deploy"}, &yes)

	q := deployQuestion("demo", 7)
	p := r.Prompter(question.PrompterFunc(func(context.Context, *question.Question) question.Outcome {
		return question.Outcome{Kind: question.Accept, Content: map[string]any{"branch": "main"}}
	}))
	r.Event(client.PromptOpened{Prompt: q})
	out := p.Prompt(t.Context(), q)
	if out.Kind != question.Accept {
		t.Fatalf("the tap changed the answer: %+v", out)
	}
	r.Event(client.PromptResolved{Key: q.Key, Sent: "accept", Entry: question.JournalEntry{Key: q.Key, Kind: question.Accept,
		Content: map[string]any{"branch": "main"}, Origin: q.Origin}})
	deploy.End(json.RawMessage(`{"content":[]}`), nil)
	add.End(nil, &jsonrpc.Error{Code: -32602, Message: "bad args"})
	// A question still open when the file is closed.
	r.Event(client.PromptOpened{Prompt: deployQuestion("demo", 8)})
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
	if err := r.Close(); err != nil || buf.closed != 1 {
		t.Fatalf("a second Close: %v, file closed %d times", err, buf.closed)
	}

	rec, err := record.Read(strings.NewReader(buf.String()))
	if err != nil {
		t.Fatal(err)
	}
	if rec.Header.Version != record.Version || rec.Settings.Command != "call" || rec.Frames != 2 || rec.End == nil || rec.End.Calls != 2 {
		t.Errorf("header %+v settings %+v frames %d end %+v", rec.Header, rec.Settings, rec.Frames, rec.End)
	}
	if len(rec.Calls) != 2 || rec.Calls[1].Result == nil || string(rec.Calls[1].Result.Result) != `{"content":[]}` ||
		rec.Calls[1].AsTask == nil || !*rec.Calls[1].AsTask {
		t.Fatalf("calls %+v", rec.Calls)
	}
	if e := rec.Calls[0].Result.Error; e == nil || e.Code != -32602 || e.Message != "bad args" {
		t.Errorf("the failed call's error: %+v", e)
	}
	if len(rec.Answers) != 2 {
		t.Fatalf("answers %+v", rec.Answers)
	}
	a := rec.Answers[0]
	// The question names deploy: it belongs to call 2, not to add, also open then.
	if a.Call != 2 || a.Key != "demo#7" || a.Outcome != "accept" || a.Sent != "accept" || a.Given == nil ||
		a.Given.Content["branch"] != "main" || a.Question == nil || a.Question.Message != "Which branch?" ||
		a.Question.Origin != "tool" || a.Question.OriginName != "deploy" || !strings.Contains(string(a.Question.Schema), `"branch"`) {
		t.Errorf("the answer %+v, question %+v, given %+v", a, a.Question, a.Given)
	}
	if open := rec.Answers[1]; open.Outcome != "open" || open.Key != "demo#8" || open.Call != 0 {
		t.Errorf("the question left open: %+v", open)
	}
	// The bad frame is kept as text, its bad byte replaced.
	if !strings.Contains(buf.String(), `"text":"not json \ufffd"`) || !strings.Contains(buf.String(), `"error":"bad frame"`) {
		t.Errorf("the undecodable frame:\n%s", buf.String())
	}
}

// TestGivenOutcome: what a recording keeps of an answer gives it again.
func TestGivenOutcome(t *testing.T) {
	for _, g := range []record.Given{
		{Kind: "accept", Content: map[string]any{"x": 1.0}},
		{Kind: "decline"},
		{Kind: "cancel", Reason: "dismissed"},
		{Kind: "accept", Sample: &record.Sample{Text: "hi", Model: "m", ToolUses: []record.ToolUse{{Name: "t"}}}},
	} {
		out := g.Outcome()
		if out.Kind.String() != g.Kind || out.Reason != g.Reason || (g.Sample != nil) != (out.Sample != nil) {
			t.Errorf("%+v gave %+v", g, out)
		}
		if g.Sample != nil && (out.Sample.Text != "hi" || len(out.Sample.ToolUses) != 1) {
			t.Errorf("sample %+v", out.Sample)
		}
	}
}

func TestReadRefuses(t *testing.T) {
	for name, text := range map[string]string{
		"empty":     "",
		"no header": `{"type":"settings"}` + "\n",
		"version":   `{"type":"header","format":"elicit-record","version":99}` + "\n",
		"format":    `{"type":"header","format":"other","version":1}` + "\n",
		"garbage":   "hello\n",
		"orphan":    `{"type":"header","format":"elicit-record","version":1}` + "\n" + `{"type":"result","call":3}` + "\n",
	} {
		if _, err := record.Read(strings.NewReader(text)); err == nil {
			t.Errorf("%s: read without error", name)
		}
	}
}

// TestReadCutShort: a recording whose process was killed mid-line reads
// up to there, without an end.
func TestReadCutShort(t *testing.T) {
	text := `{"type":"header","format":"elicit-record","version":1}` + "\n" +
		`{"type":"call","call":1,"server":"s","method":"tools/list"}` + "\n" + `{"type":"fra`
	rec, err := record.Read(strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	if len(rec.Calls) != 1 || rec.Calls[0].Result != nil || rec.End != nil {
		t.Errorf("%+v", rec)
	}
}

// failing fails every write after the first n bytes.
type failing struct{ n int }

func (f *failing) Write(p []byte) (int, error) {
	if f.n -= len(p); f.n < 0 {
		return 0, errors.New("disk full")
	}
	return len(p), nil
}

// TestWriteErrorSurfaces: a write that fails stops the recording, and
// Close says why.
func TestWriteErrorSurfaces(t *testing.T) {
	r, err := record.New(&failing{n: 1 << 20}, "test", record.Settings{})
	if err != nil {
		t.Fatal(err)
	}
	big := bytes.Repeat([]byte("x"), 2<<20)
	r.Frame("s", client.Frame{Raw: []byte(`"` + string(big) + `"`)})
	r.Begin("s", "tools/list", "", nil, nil).End(nil, nil)
	if err := r.Close(); err == nil || !strings.Contains(err.Error(), "disk full") {
		t.Errorf("Close: %v", err)
	}
	if _, err := record.New(&failing{}, "test", record.Settings{}); err == nil {
		t.Error("New on a writer that fails at once: no error")
	}
}

// TestNilRecorder: without --record every method does nothing.
func TestNilRecorder(t *testing.T) {
	var r *record.Recorder
	r.Frame("s", client.Frame{})
	r.Event(client.Notice{})
	r.Begin("s", "tools/list", "", nil, nil).End(nil, nil)
	p := question.PrompterFunc(func(context.Context, *question.Question) question.Outcome { return question.Outcome{} })
	if r.Prompter(p) == nil || r.Close() != nil {
		t.Error("a nil Recorder is not inert")
	}
}

// BenchmarkFrame is the cost of recording one frame of a busy session:
// the line is encoded and buffered, nothing kept.
func BenchmarkFrame(b *testing.B) {
	r, err := record.New(io.Discard, "bench", record.Settings{})
	if err != nil {
		b.Fatal(err)
	}
	f := client.Frame{Dir: client.In, Raw: []byte(`{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":5,"total":10,"message":"working"}}`)}
	b.ReportAllocs()
	for b.Loop() {
		r.Frame("demo", f)
	}
}

// TestAnswerAfterItsEnd: a Prompter that returns after its question was
// withdrawn (the engine discarded its answer) does not open the question
// again: it is recorded once, withdrawn.
func TestAnswerAfterItsEnd(t *testing.T) {
	var buf buffer
	r, err := record.New(&buf, "test", record.Settings{})
	if err != nil {
		t.Fatal(err)
	}
	q := deployQuestion("demo", 1)
	release := make(chan struct{})
	p := r.Prompter(question.PrompterFunc(func(context.Context, *question.Question) question.Outcome {
		<-release
		return question.Outcome{Kind: question.Cancel}
	}))
	r.Event(client.PromptOpened{Prompt: q})
	done := make(chan struct{})
	go func() { defer close(done); p.Prompt(context.Background(), q) }()
	r.Event(client.PromptResolved{Key: q.Key, Entry: question.JournalEntry{Key: q.Key, Kind: question.Withdrawn}})
	close(release)
	<-done
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
	rec, err := record.Read(strings.NewReader(buf.String()))
	if err != nil {
		t.Fatal(err)
	}
	if len(rec.Answers) != 1 || rec.Answers[0].Outcome != "withdrawn" || rec.Answers[0].Given != nil {
		t.Errorf("answers %+v", rec.Answers)
	}
}
