package ui

import (
	"bytes"
	"encoding/json"
	"errors"
	"sync"

	"github.com/elicit-dev/elicit/client/wire"
	"github.com/elicit-dev/elicit/forms/schema"
)

// outputSchema is one tool's outputSchema, compiled once, by the first
// call whose result it judges, in that call's command: compiling and
// checking a large result is work for a goroutine, not for Update.
type outputSchema struct {
	raw  json.RawMessage
	once sync.Once
	doc  *schema.Document
	err  error
}

// maxChecked bounds the structuredContent checked against an outputSchema:
// decoding it for the validator takes several times its size.
const maxChecked = 4 << 20

// outputSchemaOf returns the outputSchema of tool on server as its loaded
// list has it, compiled at most once per document; nil when it has none.
// Only Update calls it, so the map needs no lock.
func (t *toolsView) outputSchemaOf(server, tool string) *outputSchema {
	tl := t.toolOf(server, tool)
	k := [2]string{server, tool}
	if tl == nil || len(bytes.TrimSpace(tl.OutputSchema)) == 0 {
		delete(t.outputs, k)
		return nil
	}
	if o := t.outputs[k]; o != nil && bytes.Equal(o.raw, tl.OutputSchema) {
		return o
	}
	o := &outputSchema{raw: tl.OutputSchema}
	t.outputs[k] = o
	return o
}

// judge checks a result against the schema. An isError result need not
// conform; any other must carry conforming structuredContent (MCP: a tool
// with an outputSchema MUST return it). A nil schema judges nothing.
func (o *outputSchema) judge(res *wire.CallToolResult) outputVerdict {
	if o == nil || res.IsError {
		return outputVerdict{}
	}
	sc := bytes.TrimSpace(res.StructuredContent)
	if len(sc) == 0 || bytes.Equal(sc, []byte("null")) {
		return outputVerdict{kind: verdictMissing}
	}
	o.once.Do(func() { o.doc, o.err = schema.CompileDocument(o.raw) })
	if o.err != nil {
		return outputVerdict{kind: verdictBadSchema, problems: []string{o.err.Error()}}
	}
	if len(sc) > maxChecked {
		return outputVerdict{kind: verdictTooLarge, size: len(sc)}
	}
	err := o.doc.Check(sc)
	var me *schema.MismatchError
	switch {
	case err == nil:
		return outputVerdict{kind: verdictMatch}
	case errors.As(err, &me):
		v := outputVerdict{kind: verdictMismatch, more: me.More}
		for _, p := range me.Problems {
			v.problems = append(v.problems, p.String())
		}
		return v
	}
	return outputVerdict{kind: verdictMismatch, problems: []string{err.Error()}}
}
