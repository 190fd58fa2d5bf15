package ui

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/dustin/go-humanize"

	"github.com/elicit-dev/elicit/client/wire"
	"github.com/elicit-dev/elicit/themes"
	"github.com/elicit-dev/elicit/themes/untrusted"
)

// renderResult draws a tools/call result readably: text as text,
// structuredContent as indented JSON, binary content as one line with its
// type and size, links as links, and isError in the error style. Every
// server string is sanitized.
func renderResult(st *themes.Styles, res *wire.CallToolResult, width int) string {
	var b strings.Builder
	if res.IsError {
		b.WriteString(st.Error.Render("the tool reported an error (isError)") + "\n")
	}
	text := st.Text
	if res.IsError {
		text = st.Error
	}
	for _, c := range res.Content {
		b.WriteString(renderBlock(st, text, c, width))
		b.WriteByte('\n')
	}
	if len(res.StructuredContent) > 0 {
		b.WriteString(st.Title.Render("structuredContent") + "\n")
		b.WriteString(st.Text.Render(prettyJSON(res.StructuredContent)) + "\n")
	}
	if len(res.Content) == 0 && len(res.StructuredContent) == 0 {
		b.WriteString(st.Muted.Render("(empty result)"))
	}
	return strings.TrimRight(b.String(), "\n")
}

func renderBlock(st *themes.Styles, text interface{ Render(...string) string }, c wire.ContentBlock, width int) string {
	san := untrusted.Line
	switch c.Type {
	case "text":
		return text.Render(untrusted.Text(c.Text))
	case "image", "audio":
		d := c.Details()
		return st.List.Badge.Render(fmt.Sprintf("[%s %s, %s]", c.Type, san(orDash(d.MimeType)), base64Size(d.Data)))
	case "resource_link":
		d := c.Details()
		s := "→ link " + san(firstNonEmpty(d.Title, d.Name)) + " " + st.Pane.URL.Render(san(d.URI))
		if d.MimeType != "" {
			s += st.Muted.Render(" (" + san(d.MimeType) + ")")
		}
		if d.Description != "" {
			s += "\n  " + st.Muted.Render(san(d.Description))
		}
		return s
	case "resource":
		d := c.Details()
		if d.Resource == nil {
			return st.Muted.Render("[resource without contents]")
		}
		return renderContents(st, *d.Resource)
	}
	return st.Muted.Render("[" + san(c.Type) + "] " + san(string(c.Raw)))
}

// renderContents draws one resource contents item.
func renderContents(st *themes.Styles, r wire.ResourceContents) string {
	head := st.List.Badge.Render("[resource " + untrusted.Line(r.URI) + " " + untrusted.Line(orDash(r.MimeType)) + "]")
	if r.Blob != "" {
		return head + " " + st.Muted.Render("binary, "+base64Size(r.Blob))
	}
	body := r.Text
	if strings.Contains(r.MimeType, "json") {
		body = prettyJSON([]byte(body))
	}
	return head + "\n" + st.Text.Render(untrusted.Text(body))
}

// prettyJSON indents JSON for display, sanitized; invalid JSON is shown
// as sent.
func prettyJSON(raw []byte) string {
	var buf bytes.Buffer
	if err := json.Indent(&buf, raw, "", "  "); err != nil {
		return untrusted.Text(string(raw))
	}
	return untrusted.Text(buf.String())
}

// base64Size is the decoded size of base64 data, for display.
func base64Size(data string) string {
	n := len(data) * 3 / 4
	n -= strings.Count(data[max(len(data)-2, 0):], "=")
	return humanize.IBytes(uint64(max(n, 0)))
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func firstNonEmpty(ss ...string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}
