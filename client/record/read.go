package record

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/elicit-dev/elicit/client/wire"
)

// Recording is what a replay needs of a recording: the frames are
// counted, not kept, so reading a long session costs the size of its
// calls and answers only.
type Recording struct {
	Header   Header
	Settings Settings
	// Calls are in the order they were made, each with how it ended
	// (Result nil: the recording was cut short before it ended).
	Calls   []RecordedCall
	Answers []Answer
	// Frames counts the frame lines; End is the last line (nil when the
	// file was cut short).
	Frames int64
	End    *End
}

// RecordedCall is a call line and its result line.
type RecordedCall struct {
	Call
	Result *Result
}

// ReadFile reads the recording at path.
func ReadFile(path string) (*Recording, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("read recording: %w", err)
	}
	defer f.Close()
	rec, err := Read(f)
	if err != nil {
		return nil, fmt.Errorf("read recording %s: %w", path, err)
	}
	return rec, nil
}

// Read reads a recording. The header must come first and be of a
// version this package knows, the settings second; lines of a type it
// does not know are skipped (a later elicit may add some). Lines are read
// by exact member name (wire.DecodeExact), as any other reader of the
// file reads them: encoding/json alone takes "Option" for "option".
func Read(r io.Reader) (*Recording, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	rec := &Recording{}
	index := map[int64]int{} // call number -> index in Calls
	settingsLine := 0
	for n := 1; ; n++ {
		line, err := br.ReadBytes('\n')
		if len(line) == 0 && errors.Is(err, io.EOF) {
			if n == 1 {
				return nil, errors.New("empty file: no header line")
			}
			return rec, nil
		}
		if err != nil && !errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("line %d: %w", n, err)
		}
		if n == 1 {
			// A byte order mark (an editor's) is no part of the JSON
			// text: RFC 8259 §8.1 lets a parser ignore it.
			line = bytes.TrimPrefix(line, []byte("\ufeff"))
		}
		var head struct {
			Type string `json:"type"`
		}
		if jerr := wire.DecodeExact(line, &head); jerr != nil {
			if errors.Is(err, io.EOF) && n > 1 {
				return rec, nil // a last line cut in the middle (the process was killed)
			}
			return nil, fmt.Errorf("line %d: not a JSON object: %w", n, jerr)
		}
		if n == 1 {
			if head.Type != TypeHeader {
				return nil, fmt.Errorf("line 1 is %q, not the header: not an elicit recording", head.Type)
			}
			if err := wire.DecodeExact(line, &rec.Header); err != nil {
				return nil, fmt.Errorf("line 1: %w", err)
			}
			if rec.Header.Format != Format {
				return nil, fmt.Errorf("format %q is not %q", rec.Header.Format, Format)
			}
			if rec.Header.Version != Version {
				return nil, fmt.Errorf("version %d: this elicit reads version %d", rec.Header.Version, Version)
			}
			continue
		}
		if head.Type == TypeSettings {
			if settingsLine > 0 {
				return nil, fmt.Errorf("line %d: a second settings line (the first is line %d): a recording has one, and a reader of the file would see the first", n, settingsLine)
			}
			if n != 2 {
				return nil, fmt.Errorf("line %d: the settings line must be line 2, after the header: the session's settings come before what happened in it", n)
			}
			settingsLine = n
			if derr := checkSettings(line); derr != nil {
				return nil, fmt.Errorf("line %d: %w", n, derr)
			}
		}
		if derr := rec.add(head.Type, line, index); derr != nil {
			return nil, fmt.Errorf("line %d: %w", n, derr)
		}
	}
}

func (rec *Recording) add(typ string, line []byte, index map[int64]int) error {
	switch typ {
	case TypeSettings:
		return wire.DecodeExact(line, &rec.Settings)
	case TypeFrame:
		rec.Frames++
	case TypeCall:
		var c Call
		if err := wire.DecodeExact(line, &c); err != nil {
			return err
		}
		index[c.Call] = len(rec.Calls)
		rec.Calls = append(rec.Calls, RecordedCall{Call: c})
	case TypeResult:
		var r Result
		if err := wire.DecodeExact(line, &r); err != nil {
			return err
		}
		i, ok := index[r.Call]
		if !ok {
			return fmt.Errorf("result of call %d, which was never made", r.Call)
		}
		rec.Calls[i].Result = &r
	case TypeAnswer:
		var a Answer
		if err := wire.DecodeExact(line, &a); err != nil {
			return err
		}
		rec.Answers = append(rec.Answers, a)
	case TypeEnd:
		var e End
		if err := wire.DecodeExact(line, &e); err != nil {
			return err
		}
		rec.End = &e
	}
	return nil
}
