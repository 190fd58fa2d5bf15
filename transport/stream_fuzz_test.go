package transport_test

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/elicit-dev/elicit/transport"
	"github.com/elicit-dev/elicit/transport/jsonrpc"
)

// fuzzLimit is small so the fuzzer reaches the oversized-line path.
const fuzzLimit = 256

// FuzzDecodeFrame feeds arbitrary bytes through NewStream: it must not
// panic, and every non-blank line must yield one frame per message in it
// (one, or a batch's), each either a decoded message handed to Read or a
// reported error; a reported
// error meant as a response with an id also makes Read end that request.
func FuzzDecodeFrame(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"ping"}` + "\n",
		`{"jsonrpc":"2.0","id":7,"result":{"x":[[[` + "\n",
		`{"jsonrpc":"2.0","id":"a","result":{}}` + "\r\n\r\n" + `{"jsonrpc":"2.0","method":"n"}`,
		`{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"x"}}` + "\n",
		"garbage\n{\n[]\n\n \t \n",
		`[{"jsonrpc":"2.0","id":1,"method":"ping"}]`,
		`[{"jsonrpc":"2.0","method":"n"}, [], 1, {"jsonrpc":"2.0","id":2,"result":{}}] x` + "\n" + `[{"jsonrpc":"2.0","id":3,"result":[`,
		`{"jsonrpc":"1.0","id":null,"method":""}`,
		`{"jsonrpc":"2.0","id":1.5,"method":"x"}` + "\n" + strings.Repeat("x", fuzzLimit+1) + "\nok",
		`{"jsonrpc":"2.0","id":8,"result":"` + strings.Repeat("x", fuzzLimit) + `"}` + "\n",
		"\xff\xfe\x00\n\r",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		rec := &recorder{}
		c := transport.NewStreamLimit(bytes.NewReader(data), io.Discard, nopCloser{}, rec, fuzzLimit)
		defer c.Close()
		var got []transport.Inbound
		for {
			in, err := c.Read(t.Context())
			if err != nil {
				if !errors.Is(err, io.EOF) {
					t.Fatalf("Read ended with %v, want io.EOF", err)
				}
				break
			}
			if in.Msg != nil {
				if _, err := jsonrpc.Encode(in.Msg); err != nil {
					t.Fatalf("Read returned a message that does not encode: %v", err)
				}
			}
			got = append(got, in)
		}

		// What the frames should be, worked out independently of readLine:
		// one per message of each line (DecodeFrame splits batches).
		type line struct {
			raw  string
			err  bool
			long bool
		}
		var want []line
		for i, seg := range bytes.Split(data, []byte("\n")) {
			last := i == bytes.Count(data, []byte("\n"))
			if last && len(seg) == 0 {
				break
			}
			if len(seg) > fuzzLimit {
				want = append(want, line{long: true})
				continue
			}
			seg = bytes.TrimSuffix(seg, []byte("\r"))
			if len(bytes.TrimSpace(seg)) > 0 {
				for _, p := range jsonrpc.DecodeFrame(seg) {
					want = append(want, line{raw: string(p.Raw), err: p.Err != nil})
				}
			}
		}
		frames := rec.Frames()
		if len(frames) != len(want) {
			t.Fatalf("%d frames for %d non-blank lines", len(frames), len(want))
		}
		ok, undecodable := 0, 0
		for i, fr := range frames {
			if fr.Dir != transport.In {
				t.Fatalf("frame %d has direction %v", i, fr.Dir)
			}
			if want[i].long {
				if fr.Err == nil || len(fr.Raw) > 4096 {
					t.Fatalf("oversized line %d: err %v, %d raw bytes", i, fr.Err, len(fr.Raw))
				}
				// An answer whose id shows in the start still ends its
				// request.
				for _, p := range jsonrpc.DecodeFrame(fr.Raw) {
					var de *jsonrpc.DecodeError
					if p.Msg != nil && p.Msg.Kind() == jsonrpc.KindResponse ||
						errors.As(p.Err, &de) && de.Kind == jsonrpc.KindResponse && de.ID.IsValid() {
						undecodable++
					}
				}
				continue
			}
			if string(fr.Raw) != want[i].raw {
				t.Fatalf("frame %d raw = %q, want %q", i, fr.Raw, want[i].raw)
			}
			if want[i].err != (fr.Err != nil) {
				t.Fatalf("frame %d: reported err %v, but DecodeFrame says otherwise", i, fr.Err)
			}
			var de *jsonrpc.DecodeError
			switch {
			case fr.Err == nil:
				ok++
			case errors.As(fr.Err, &de) && de.Kind == jsonrpc.KindResponse && de.ID.IsValid():
				undecodable++
			}
		}
		ended := 0
		for _, in := range got {
			if in.Msg == nil {
				ended++
				var de *jsonrpc.DecodeError
				if !errors.As(in.Err, &de) || de.ID != in.ID || !in.ID.IsValid() {
					t.Fatalf("Read ended request %s with %v for an undecodable response", in.ID, in.Err)
				}
			}
		}
		if ok != len(got)-ended || undecodable != ended {
			t.Fatalf("%d good frames and %d undecodable responses, but Read returned %d messages and ended %d requests", ok, undecodable, len(got)-ended, ended)
		}
	})
}
