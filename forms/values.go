package forms

import (
	"bytes"
	"encoding/json"
	"strings"
)

// Values returns what the fields hold now, typed as Content types them,
// whether or not the whole passes the schema: a field left empty, or whose
// text does not read as its kind (letters in a number), is left out. It is
// for carrying a half-filled form elsewhere (the same arguments as JSON
// text); what is sent is still checked by Content.
//
// A JSON field is carried as the text written (compacted, a
// json.RawMessage) once it is JSON, fitting its schema yet or not: its
// members keep their order, and half-written work is not dropped.
func (f *Form) Values() map[string]any {
	out := make(map[string]any, len(f.fields))
	for _, fl := range f.fields {
		if jf, ok := fl.(*jsonField); ok {
			if raw := jf.raw(); raw != nil {
				out[fl.property().Name] = raw
			}
			continue
		}
		if v, ok, err := fl.value(); err == nil && ok {
			out[fl.property().Name] = v
		}
	}
	return out
}

// raw is the field's text compacted, nil when it is empty, null or not
// JSON.
func (f *jsonField) raw() json.RawMessage {
	t := strings.TrimSpace(f.text)
	if t == "" || t == "null" || !json.Valid([]byte(t)) {
		return nil
	}
	var b bytes.Buffer
	if json.Compact(&b, []byte(t)) != nil {
		return nil
	}
	return b.Bytes()
}
