package ui

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/elicit-dev/elicit/client/question"
	"github.com/elicit-dev/elicit/client/wire"
)

// A sampling pane shows an image or audio block as a type/size line; the
// SaveMedia key writes every such block of the request to a file of its
// own under Options.ExportDir, named after the server, the pane and the
// block, never over an existing file, and the pane says where they went.
// The bytes are the server's, written as they came, never opened.

// mediaSavedMsg reports a SaveMedia of pane id.
type mediaSavedMsg struct {
	id    int
	paths []string
	err   error
}

// mediaBlocks lists the image and audio blocks of q's messages, tool
// results' content included, in the order the pane shows them.
func mediaBlocks(q *question.Question) []wire.SamplingBlock {
	var out []wire.SamplingBlock
	var walk func(bs []wire.SamplingBlock)
	walk = func(bs []wire.SamplingBlock) {
		for _, b := range bs {
			switch b.Type {
			case wire.BlockImage, wire.BlockAudio:
				out = append(out, b)
			}
			walk(b.Content)
		}
	}
	if q.Sampling != nil {
		for _, m := range q.Sampling.Params.Messages {
			walk(m.Content)
		}
	}
	return out
}

// saveMedia writes pane pn's media in a Cmd.
func saveMedia(c *viewCtx, pn *pane) tea.Cmd {
	blocks := mediaBlocks(pn.p)
	if len(blocks) == 0 {
		pn.note = "this request has no image or audio to save"
		return nil
	}
	dir, id := c.opts.ExportDir, pn.id
	base := "elicit-sampling-" + fileSafe(pn.p.Server) + "-" + fileSafe(pn.p.Key.String())
	return func() tea.Msg {
		var paths []string
		for i, b := range blocks {
			p, err := writeMedia(filepath.Join(dir, fmt.Sprintf("%s-%d", base, i+1)), mediaExt(b.MimeType), b)
			if err != nil {
				return mediaSavedMsg{id: id, paths: paths, err: err}
			}
			paths = append(paths, p)
		}
		return mediaSavedMsg{id: id, paths: paths}
	}
}

// writeMedia writes b's bytes to base+ext, or base-2+ext… when that
// exists, and returns the path written.
func writeMedia(base, ext string, b wire.SamplingBlock) (string, error) {
	data, err := b.Bytes()
	if err != nil {
		return "", fmt.Errorf("save %s: %w", b.Type, err)
	}
	if abs, err := filepath.Abs(base); err == nil {
		base = abs
	}
	for i := 1; i <= 100; i++ {
		path := base + ext
		if i > 1 {
			path = fmt.Sprintf("%s-%d%s", base, i, ext)
		}
		f, err := os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return "", fmt.Errorf("save %s: %w", b.Type, err)
		}
		_, err = f.Write(data)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return "", fmt.Errorf("save %s to %s: %w", b.Type, path, err)
		}
		return path, nil
	}
	return "", fmt.Errorf("save %s: %s%s and 99 more exist", b.Type, base, ext)
}

// mediaExt is the file extension for a MIME type the server named: a few
// known ones, else .bin (the server's type is not trusted to name files).
func mediaExt(mime string) string {
	switch strings.ToLower(strings.TrimSpace(strings.SplitN(mime, ";", 2)[0])) {
	case "image/png":
		return ".png"
	case "image/jpeg":
		return ".jpg"
	case "image/gif":
		return ".gif"
	case "image/webp":
		return ".webp"
	case "image/svg+xml":
		return ".svg"
	case "audio/wav", "audio/x-wav", "audio/wave":
		return ".wav"
	case "audio/mpeg", "audio/mp3":
		return ".mp3"
	case "audio/ogg":
		return ".ogg"
	case "audio/flac":
		return ".flac"
	}
	return ".bin"
}

// fileSafe keeps letters, digits, '.', '_' and '-' of s (at most 40),
// the rest becoming '_': server names and keys are the server's text.
func fileSafe(s string) string {
	var b strings.Builder
	for _, r := range s {
		if b.Len() >= 40 {
			break
		}
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '.' && b.Len() > 0, r == '_', r == '-':
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
	}
	return b.String()
}

// handleMediaSaved says on the pane where its media went.
func (m *Model) handleMediaSaved(msg mediaSavedMsg) {
	pn := m.prompts.byID[msg.id]
	if pn == nil {
		return
	}
	switch {
	case msg.err != nil && len(msg.paths) > 0:
		pn.note = fmt.Sprintf("saved %s, then: %v", strings.Join(msg.paths, ", "), msg.err)
	case msg.err != nil:
		pn.note = "not saved: " + msg.err.Error()
	default:
		pn.note = "saved " + strings.Join(msg.paths, ", ")
	}
}
