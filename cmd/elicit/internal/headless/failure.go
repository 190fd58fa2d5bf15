package headless

import (
	"errors"
	"io"

	"github.com/elicit-dev/elicit/cmd/elicit/internal/exit"
)

// WithFailureJSON runs a headless command; when it fails before writing
// its JSON (bad flags, no server, a list that failed), it prints a JSON
// object saying why, so a script always has JSON to read on stdout.
func WithFailureJSON(stdout io.Writer, run func(io.Writer) error) error {
	w := &countingWriter{w: stdout}
	err := run(w)
	if err != nil && !errors.Is(err, exit.ErrHelp) && w.n == 0 {
		if werr := WriteJSON(stdout, struct {
			Failure *exit.Failure `json:"failure"`
		}{exit.FailureOf(err)}); werr != nil {
			return errors.Join(err, werr)
		}
	}
	return err
}

// countingWriter counts what went through it.
type countingWriter struct {
	w io.Writer
	n int
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += n
	return n, err
}
