package acp

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/elicit-dev/elicit/client/question"
	"github.com/elicit-dev/elicit/client/wire"
	"github.com/elicit-dev/elicit/transport/jsonrpc"
)

// The fs methods: served only with Options.AllowFS, and only for paths
// within the session's cwd. A write is asked of a person first (a
// question.FileWrite permission whose tool call carries the diff).
const (
	MethodReadTextFile  = "fs/read_text_file"
	MethodWriteTextFile = "fs/write_text_file"
)

// CodeResourceNotFound is ACP's error for a file that does not exist.
const CodeResourceNotFound = -32002

// MaxFileBytes bounds a file read or written for the agent: a text file
// larger than this is refused rather than held in memory.
const MaxFileBytes = 8 << 20

// FileAccess is one fs request of the agent's, as it ended.
type FileAccess struct {
	// Op is "read" or "write".
	Op        string `json:"op"`
	SessionID string `json:"sessionId,omitempty"`
	// Path is the absolute path the agent named.
	Path string `json:"path"`
	// Diff is a write's unified diff (old → new); "" for a read.
	Diff string `json:"diff,omitempty"`
	// Sent is what answered it: "content", "written", "error -32602"…
	Sent string `json:"sent"`
	// Reason says why it was refused, if it was.
	Reason string `json:"reason,omitempty"`
}

type fsParams struct {
	SessionID string  `json:"sessionId"`
	Path      string  `json:"path"`
	Line      *int    `json:"line,omitempty"`
	Limit     *int    `json:"limit,omitempty"`
	Content   *string `json:"content,omitempty"`
}

// fsError is an fs request refused: its code and message.
func fsError(code int64, format string, args ...any) *jsonrpc.Error {
	return jsonrpc.NewError(code, fmt.Sprintf(format, args...), nil)
}

// decodeFS reads fs params and places the path: it must be absolute and,
// symbolic links resolved, inside the session's cwd. real is where the
// file is (for a new file: its resolved directory joined with its name).
// A link swapped between this check and the read or write is not
// guarded against: the agent is not the adversary here, its model is.
func (c *Client) decodeFS(params json.RawMessage) (p fsParams, real, rel string, e *jsonrpc.Error) {
	if err := wire.DecodeExact(params, &p); err != nil {
		return p, "", "", fsError(jsonrpc.CodeInvalidParams, "invalid params: %v", err)
	}
	c.mu.Lock()
	r, ok := c.cwds[p.SessionID]
	c.mu.Unlock()
	switch {
	case !ok:
		return p, "", "", fsError(jsonrpc.CodeInvalidParams, errForeignSession)
	case !filepath.IsAbs(p.Path):
		return p, "", "", fsError(jsonrpc.CodeInvalidParams, "invalid params: path must be absolute")
	}
	clean := filepath.Clean(p.Path)
	real, err := filepath.EvalSymlinks(clean)
	if errors.Is(err, fs.ErrNotExist) {
		// A new file: its directory must exist and be inside.
		dir, derr := filepath.EvalSymlinks(filepath.Dir(clean))
		if derr != nil {
			return p, "", "", fsError(CodeResourceNotFound, "resource not found: %s", p.Path)
		}
		real, err = filepath.Join(dir, filepath.Base(clean)), nil
	}
	if err != nil {
		return p, "", "", fsError(jsonrpc.CodeInternalError, "%s: %v", p.Path, err)
	}
	rel, e = r.place(real)
	if e != nil {
		return p, "", "", fsError(e.Code, "%s: %s", e.Message, p.Path)
	}
	return p, real, rel, nil
}

// place says where real (symbolic links resolved) is relative to the
// root holding it: the cwd, else an additional directory (named by its
// base, "dir/rel"). Outside them all is refused.
func (r roots) place(real string) (string, *jsonrpc.Error) {
	for i, root := range append([]string{r.cwd}, r.dirs...) {
		resolved, err := filepath.EvalSymlinks(root)
		if err != nil {
			if i == 0 {
				return "", fsError(jsonrpc.CodeInternalError, "the session's cwd: %v", err)
			}
			continue
		}
		rel, err := filepath.Rel(resolved, real)
		if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			continue
		}
		if i > 0 {
			rel = filepath.Join(filepath.Base(root), rel)
		}
		return rel, nil
	}
	return "", fsError(jsonrpc.CodeInvalidParams, "path outside the session's working directory and additional directories")
}

// readBounded reads a regular file of at most MaxFileBytes; exists is
// false when there is none. It opens without blocking: opening a FIFO
// (which the agent may make in the cwd) waits for a writer, for ever if
// none comes, and what is not a regular file is refused once open.
func readBounded(path string) (text string, exists bool, e *jsonrpc.Error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return "", false, nil
	}
	if err != nil {
		return "", false, fsError(jsonrpc.CodeInternalError, "%v", err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() {
		return "", true, fsError(jsonrpc.CodeInvalidParams, "not a regular file")
	}
	b, err := io.ReadAll(io.LimitReader(f, MaxFileBytes+1))
	if err != nil {
		return "", true, fsError(jsonrpc.CodeInternalError, "%v", err)
	}
	if len(b) > MaxFileBytes {
		return "", true, fsError(jsonrpc.CodeInvalidParams, "the file is larger than %d bytes", MaxFileBytes)
	}
	return string(b), true, nil
}

// serveRead answers fs/read_text_file: the file's text, or the lines
// [line, line+limit) of it (line is 1-based).
func (c *Client) serveRead(m *jsonrpc.Message) {
	p, real, _, e := c.decodeFS(m.Params)
	var text string
	if e == nil {
		var exists bool
		text, exists, e = readBounded(real)
		if e == nil && !exists {
			e = fsError(CodeResourceNotFound, "resource not found: %s", p.Path)
		}
	}
	fa := FileAccess{Op: "read", SessionID: p.SessionID, Path: p.Path, Sent: "content"}
	var result json.RawMessage
	if e == nil {
		result, _ = json.Marshal(map[string]string{"content": lineRange(text, p.Line, p.Limit)})
	} else {
		fa.Sent, fa.Reason = fmt.Sprintf("error %d", e.Code), e.Message
	}
	// Heard before the answer goes out, so that the turn it belongs to
	// cannot end before it is.
	c.fileAccess(fa)
	if err := c.peer.Respond(m.ID, result, e); err != nil {
		c.stderr(fmt.Sprintf("acp: %s %s: the answer could not be sent: %v", MethodReadTextFile, m.ID.Raw(), err))
	}
}

func (c *Client) fileAccess(fa FileAccess) {
	if c.opts.OnFile != nil {
		c.opts.OnFile(fa)
	}
}

// lineRange cuts text to limit lines from line (1-based); nil means
// from the start, to the end.
func lineRange(text string, line, limit *int) string {
	if line == nil && limit == nil {
		return text
	}
	lines := strings.SplitAfter(text, "\n")
	from := 0
	if line != nil && *line > 1 {
		from = min(*line-1, len(lines))
	}
	to := len(lines)
	if limit != nil && *limit >= 0 {
		to = min(from+*limit, len(lines))
	}
	return strings.Join(lines[from:to], "")
}

// pendingWrite is a write asked of a person, done once allowed.
type pendingWrite struct {
	real    string
	content string
	access  FileAccess
}

func (w *pendingWrite) do() error {
	mode := fs.FileMode(0o644)
	if st, err := os.Stat(w.real); err == nil {
		mode = st.Mode().Perm()
	}
	// Without blocking, and a regular file only: what was checked before
	// the person was asked may be a FIFO by now (the agent runs in the
	// cwd), whose open would wait for a reader for ever.
	f, err := os.OpenFile(w.real, os.O_WRONLY|os.O_CREATE|syscall.O_NONBLOCK, mode)
	if err != nil {
		return err
	}
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		f.Close()
		return fmt.Errorf("%s: not a regular file", w.real)
	}
	_, err = f.WriteString(w.content)
	if err == nil {
		err = f.Truncate(int64(len(w.content)))
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// The options of a write question.
const (
	WriteAllow  = "write"
	WriteReject = "skip"
)

// parseWrite turns fs/write_text_file into the question asked first: a
// permission (allow_once "write", reject_once "skip") whose tool call is
// an edit of the file carrying the diff, drawn as the agent's own diffs
// are.
func (c *Client) parseWrite(q *question.Question, params json.RawMessage) (*pendingWrite, *question.ParamsError) {
	q.Kind, q.Mode = question.KindPermission, question.ModeForm
	p, real, rel, e := c.decodeFS(params)
	w := &pendingWrite{real: real, access: FileAccess{Op: "write", SessionID: p.SessionID, Path: p.Path}}
	q.Origin = question.Origin{Kind: question.OriginTurn, SessionID: p.SessionID, Name: "write " + rel}
	if e == nil && p.Content == nil {
		e = fsError(jsonrpc.CodeInvalidParams, "invalid params: content is required")
	}
	if e == nil && len(*p.Content) > MaxFileBytes {
		e = fsError(jsonrpc.CodeInvalidParams, "content is larger than %d bytes", MaxFileBytes)
	}
	var old string
	var exists bool
	if e == nil {
		old, exists, e = readBounded(real)
	}
	if e != nil {
		return w, &question.ParamsError{Msg: e.Message}
	}
	w.content = *p.Content
	w.access.Diff = UnifiedDiff(rel, old, w.content, exists)
	diff := map[string]any{"type": "diff", "path": p.Path, "newText": w.content}
	if exists {
		diff["oldText"] = old
	}
	verb := "Write"
	if !exists {
		verb = "Create"
	}
	tc, _ := json.Marshal(map[string]any{
		"toolCallId": MethodWriteTextFile + "#" + q.Key.RequestID.Raw(),
		"title":      verb + " " + rel, "kind": "edit", "status": "pending",
		"locations": []map[string]string{{"path": p.Path}},
		"content":   []any{diff},
	})
	q.Message = verb + " " + rel
	q.Permission = &question.Permission{ToolCall: tc, Options: []question.PermissionOption{
		{ID: WriteAllow, Name: verb + " the file", Kind: question.OptionAllowOnce},
		{ID: WriteReject, Name: "Do not write", Kind: question.OptionRejectOnce},
	}}
	return w, nil
}
