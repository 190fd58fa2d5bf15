package wire

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// A tool result may hold a million content blocks in a few megabytes, so
// what a decoded block costs beside its bytes is what matters: a block
// keeps its type, its text and a slice of the result (56 bytes), and
// the fields of the other types are decoded from that slice when asked
// for (Details). Every field of every type would be 192 bytes, seven
// times a 26-byte `{"type":"text","text":"x"}`.

// CallToolResult is a tools/call result.
type CallToolResult struct {
	Content           []ContentBlock  `json:"content"`
	StructuredContent json.RawMessage `json:"structuredContent,omitempty"`
	IsError           bool            `json:"isError,omitempty"`
	// Raw is the whole result exactly as sent.
	Raw json.RawMessage `json:"-"`
}

// Text joins the text blocks of the result, one per line.
func (r *CallToolResult) Text() string {
	var b strings.Builder
	for _, c := range r.Content {
		if c.Type == "text" {
			if b.Len() > 0 {
				b.WriteByte('\n')
			}
			b.WriteString(c.Text)
		}
	}
	return b.String()
}

// DecodeToolResult reads a tools/call result by exact member names
// ("IsError" is not isError, in the result or in a block). The result's
// Raw is raw, and StructuredContent and every block's Raw are slices of
// it: raw must not change afterwards. Beside raw the result holds 56
// bytes per block and the blocks' text.
func DecodeToolResult(raw json.RawMessage) (*CallToolResult, error) {
	if !json.Valid(raw) {
		return nil, json.Unmarshal(raw, new(struct{})) // the syntax error
	}
	res := &CallToolResult{Raw: raw}
	i := skipSpace(raw, 0)
	switch raw[i] {
	case 'n':
		return res, nil // null: nothing, as json.Unmarshal leaves a struct
	case '{':
	default:
		return nil, fmt.Errorf("a tool result must be a JSON object, not %s", raw[i:min(i+16, len(raw))])
	}
	for o := scanObject(raw, i); ; {
		m, ok := o.next()
		if !ok {
			return res, nil
		}
		v := raw[m.valStart:m.valEnd:m.valEnd]
		switch string(memberName(raw, m)) {
		case "content":
			c, err := decodeBlocks(v)
			if err != nil {
				return nil, err
			}
			res.Content = c
		case "structuredContent":
			res.StructuredContent = v
		case "isError":
			if err := json.Unmarshal(v, &res.IsError); err != nil {
				return nil, fmt.Errorf("isError: %w", err)
			}
		}
	}
}

// UnmarshalJSON decodes a result as DecodeToolResult does, from a copy
// of data (encoding/json may reuse it).
func (r *CallToolResult) UnmarshalJSON(data []byte) error {
	if string(bytes.TrimSpace(data)) == "null" {
		return nil
	}
	res, err := DecodeToolResult(bytes.Clone(data))
	if err != nil {
		return err
	}
	*r = *res
	return nil
}

// decodeBlocks reads the content array v (valid JSON) into a slice of
// exactly its length: the blocks are counted first, so the slice never
// grows by doubling (which leaves up to half of it unused).
func decodeBlocks(v []byte) ([]ContentBlock, error) {
	switch v[0] {
	case 'n':
		return nil, nil
	case '[':
	default:
		return nil, fmt.Errorf("content must be an array, not %s", v[:min(16, len(v))])
	}
	n := 0
	for a := scanArray(v, 0); ; n++ {
		if _, _, ok := a.next(); !ok {
			break
		}
	}
	blocks := make([]ContentBlock, n)
	a := scanArray(v, 0)
	for i := range blocks {
		start, end, _ := a.next()
		b, err := decodeBlock(v[start:end:end])
		if err != nil {
			return nil, err
		}
		blocks[i] = b
	}
	return blocks, nil
}

// ContentBlock is one block of content: text, image, audio, resource_link
// or resource. Type and, for "text", Text are decoded; Raw keeps the block
// exactly as sent, and Details decodes what the other types define from
// it. A block whose known fields have unexpected types still decodes:
// Type and Raw are kept, Text and Details are empty.
type ContentBlock struct {
	Type string `json:"type"`
	// Text is set for "text".
	Text string          `json:"text,omitempty"`
	Raw  json.RawMessage `json:"-"`
}

// BlockDetails are the fields of the block types other than text.
type BlockDetails struct {
	// Data (base64) and MimeType are set for "image" and "audio";
	// MimeType also for "resource_link".
	Data     string `json:"data,omitempty"`
	MimeType string `json:"mimeType,omitempty"`
	// URI, Name, Title, Description and Size are set for "resource_link".
	URI         string `json:"uri,omitempty"`
	Name        string `json:"name,omitempty"`
	Title       string `json:"title,omitempty"`
	Description string `json:"description,omitempty"`
	Size        *int64 `json:"size,omitempty"`
	// Resource is set for "resource" (an embedded resource).
	Resource    *ResourceContents `json:"resource,omitempty"`
	Annotations json.RawMessage   `json:"annotations,omitempty"`
}

// blockFields is a block with every field, as the wire has it.
type blockFields struct {
	Type string `json:"type"`
	Text string `json:"text,omitempty"`
	BlockDetails
}

// Details decodes the block's other fields from Raw, by exact name, on
// each call (a result's blocks are drawn once, not per frame). They are
// empty for a block without Raw or one that does not decode.
func (b ContentBlock) Details() BlockDetails {
	var f blockFields
	if len(b.Raw) == 0 || DecodeExact(b.Raw, &f) != nil {
		return BlockDetails{}
	}
	return f.BlockDetails
}

// NewBlock builds a block of type typ with the given fields, Raw
// included. A text block is ContentBlock{Type: "text", Text: …}.
func NewBlock(typ string, d BlockDetails) ContentBlock {
	return ContentBlock{Type: typ, Raw: MustJSON(blockFields{Type: typ, BlockDetails: d})}
}

// MarshalJSON writes the block as it was sent (Raw), or its type and text
// for a block built without Raw.
func (b ContentBlock) MarshalJSON() ([]byte, error) {
	if len(b.Raw) > 0 {
		return b.Raw, nil
	}
	return json.Marshal(blockFields{Type: b.Type, Text: b.Text})
}

// UnmarshalJSON decodes a block from a copy of data, by exact name
// ("Text" is not text).
func (b *ContentBlock) UnmarshalJSON(data []byte) error {
	data = bytes.TrimSpace(data)
	if !json.Valid(data) {
		return json.Unmarshal(data, new(struct{})) // the syntax error
	}
	c, err := decodeBlock(bytes.Clone(data))
	if err != nil {
		return err
	}
	*b = c
	return nil
}

// decodeBlock reads the block v (one valid JSON value) by exact member
// names, keeping v as its Raw. It checks every field the types define
// (as decoding them all would) but keeps only type and text.
func decodeBlock(v []byte) (ContentBlock, error) {
	b := ContentBlock{Raw: v}
	switch v[0] {
	case 'n':
		return b, nil
	case '{':
	default:
		return ContentBlock{}, blockError(v)
	}
	typed, typeOK := true, true // every field has its type; "type" has
	for o := scanObject(v, 0); ; {
		m, ok := o.next()
		if !ok {
			break
		}
		val := v[m.valStart:m.valEnd]
		switch string(memberName(v, m)) {
		case "type":
			if t, known := knownType(val); known {
				b.Type = t
				continue
			}
			s, set, ok := stringMember(val)
			typeOK = typeOK && ok
			if set {
				b.Type = s
			}
		case "text":
			s, set, ok := stringMember(val)
			typed = typed && ok
			if set {
				b.Text = s
			}
		case "data", "mimeType", "uri", "name", "title", "description":
			typed = typed && (val[0] == '"' || isNull(val))
		case "size":
			typed = typed && (isNull(val) || isInt64(val))
		case "resource":
			typed = typed && (isNull(val) || resourceTyped(val))
		}
	}
	if !typeOK {
		return ContentBlock{}, blockError(v)
	}
	if !typed {
		b.Text = ""
	}
	return b, nil
}

// blockError is the error of a block that does not decode at all (not
// an object, or its type not a string), as decoding every field says it.
func blockError(v []byte) error {
	var f blockFields
	err := DecodeExact(v, &f)
	if err == nil {
		err = fmt.Errorf("unexpected %s", v[:min(16, len(v))])
	}
	return fmt.Errorf("content block: %w", err)
}

// stringMember reads a member meant as a string: set if it is one, ok
// unless it is neither a string nor null (which leaves a field as it is).
func stringMember(v []byte) (s string, set, ok bool) {
	switch {
	case isNull(v):
		return "", false, true
	case v[0] != '"':
		return "", false, false
	}
	s, err := stringValue(v)
	return s, err == nil, err == nil
}

// knownType returns the block types we know (quoted in v) as constants,
// so a million blocks do not hold a million copies of "text".
func knownType(v []byte) (string, bool) {
	switch string(v) {
	case `"text"`:
		return "text", true
	case `"image"`:
		return "image", true
	case `"audio"`:
		return "audio", true
	case `"resource_link"`:
		return "resource_link", true
	case `"resource"`:
		return "resource", true
	}
	return "", false
}

func isNull(v []byte) bool { return string(v) == "null" }

// isInt64 reports whether the JSON number v fits an int64, as encoding/json
// decodes one (no fraction, no exponent).
func isInt64(v []byte) bool {
	if v[0] != '-' && (v[0] < '0' || v[0] > '9') {
		return false
	}
	_, err := strconv.ParseInt(string(v), 10, 64)
	return err == nil
}

// resourceTyped reports whether v is an object whose ResourceContents
// members (by exact name) are strings or null.
func resourceTyped(v []byte) bool {
	if v[0] != '{' {
		return false
	}
	for o := scanObject(v, 0); ; {
		m, ok := o.next()
		if !ok {
			return !o.bad
		}
		switch string(memberName(v, m)) {
		case "uri", "mimeType", "text", "blob":
			if val := v[m.valStart:m.valEnd]; val[0] != '"' && !isNull(val) {
				return false
			}
		}
	}
}
