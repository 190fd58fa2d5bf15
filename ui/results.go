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
	return renderCallResult(st, res, outputVerdict{}, width)
}

// renderCallResult is renderResult with what the tool's outputSchema says
// of the result: a mismatch first, in the error style, a match discreetly
// beside the structuredContent heading.
func renderCallResult(st *themes.Styles, res *wire.CallToolResult, v outputVerdict, width int) string {
	var b strings.Builder
	if v.kind != verdictMatch && v.kind != verdictNone {
		b.WriteString(renderVerdict(st, v) + "\n")
	}
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
		b.WriteString(st.Title.Render("structuredContent"))
		if v.kind == verdictMatch {
			b.WriteString("  " + renderVerdict(st, v))
		}
		b.WriteString("\n")
		b.WriteString(st.Text.Render(prettyJSON(res.StructuredContent)) + "\n")
	}
	if len(res.Content) == 0 && len(res.StructuredContent) == 0 {
		b.WriteString(st.Muted.Render("(empty result)"))
	}
	return strings.TrimRight(b.String(), "\n")
}

// outputVerdict is what a tool's outputSchema says of one result.
type outputVerdict struct {
	kind verdictKind
	// problems are the validator's messages (server text: sanitized when
	// drawn), or why the schema could not be used; more counts the ones
	// left out.
	problems []string
	more     int
	size     int // the structuredContent's bytes, when too large to check
}

type verdictKind int

const (
	verdictNone      verdictKind = iota // no outputSchema, or an isError result
	verdictMatch                        // structuredContent conforms
	verdictMismatch                     // it does not
	verdictMissing                      // an outputSchema, and no structuredContent
	verdictBadSchema                    // the outputSchema does not compile
	verdictTooLarge                     // not checked: too large
)

// mismatch reports whether the result breaks the tool's outputSchema.
func (v outputVerdict) mismatch() bool {
	return v.kind == verdictMismatch || v.kind == verdictMissing
}

// renderVerdict draws an outputVerdict: one line, and a mismatch's
// problems under it.
func renderVerdict(st *themes.Styles, v outputVerdict) string {
	switch v.kind {
	case verdictMatch:
		return st.Muted.Render("✓ matches outputSchema")
	case verdictMissing:
		return st.Error.Render("✗ no structuredContent, though the tool declares an outputSchema (servers MUST return structuredContent that conforms)")
	case verdictBadSchema:
		return st.Warning.Render("⚠ outputSchema cannot be compiled, so structuredContent is not checked: " + untrusted.Line(strings.Join(v.problems, "; ")))
	case verdictTooLarge:
		return st.Muted.Render("structuredContent not checked against outputSchema: it is " + humanize.IBytes(uint64(v.size)))
	case verdictMismatch:
		lines := []string{st.Error.Render("✗ structuredContent does not match the tool's outputSchema:")}
		for _, p := range v.problems {
			lines = append(lines, st.Error.Render("  "+untrusted.Line(p)))
		}
		if v.more > 0 {
			lines = append(lines, st.Error.Render(fmt.Sprintf("  … and %d more", v.more)))
		}
		return strings.Join(lines, "\n")
	}
	return ""
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
