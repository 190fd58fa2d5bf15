package acp

import (
	"encoding/base64"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// MaxAttachBytes bounds an image read into a prompt.
const MaxAttachBytes = 8 << 20

// Attach is the prompt block for a file: an image block (its bytes,
// base64) when the file is an image and the agent declares
// promptCapabilities.image, else a resource_link to it (file:// URI,
// name, MIME type, size), which every agent takes.
func (c *Client) Attach(path string) (ContentBlock, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return ContentBlock{}, fmt.Errorf("acp: attach %s: %w", path, err)
	}
	// Without blocking: a FIFO named by mistake must not hold us.
	f, err := os.OpenFile(abs, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return ContentBlock{}, fmt.Errorf("acp: attach: %w", err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() {
		return ContentBlock{}, fmt.Errorf("acp: attach %s: not a regular file", path)
	}
	head := make([]byte, 512)
	n, _ := io.ReadFull(f, head)
	mt := mime.TypeByExtension(filepath.Ext(abs))
	if mt == "" {
		mt = http.DetectContentType(head[:n])
	}
	mt, _, _ = strings.Cut(mt, ";")
	size := st.Size()
	if strings.HasPrefix(mt, "image/") && c.caps.Image {
		if size > MaxAttachBytes {
			return ContentBlock{}, fmt.Errorf("acp: attach %s: an image larger than %d bytes", path, MaxAttachBytes)
		}
		if _, err := f.Seek(0, io.SeekStart); err != nil {
			return ContentBlock{}, fmt.Errorf("acp: attach: %w", err)
		}
		b, err := io.ReadAll(io.LimitReader(f, MaxAttachBytes+1))
		if err != nil {
			return ContentBlock{}, fmt.Errorf("acp: attach: %w", err)
		}
		return ContentBlock{Type: "image", MimeType: mt, Data: base64.StdEncoding.EncodeToString(b)}, nil
	}
	u := url.URL{Scheme: "file", Path: abs}
	return ContentBlock{Type: "resource_link", URI: u.String(), Name: filepath.Base(abs), MimeType: mt, Size: &size}, nil
}
