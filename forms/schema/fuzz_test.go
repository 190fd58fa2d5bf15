package schema_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/elicit-dev/elicit/forms/schema"
)

// seedSchemas adds every testdata schema to a fuzz corpus.
func seedSchemas(f *testing.F, add func(raw []byte)) {
	files, err := filepath.Glob("testdata/*.json")
	if err != nil {
		f.Fatal(err)
	}
	for _, name := range files {
		raw, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		add(raw)
	}
	add([]byte(kitchen))
}

// FuzzParse checks that Parse never panics, refuses only with a
// *SchemaError, and that what it accepts is self-consistent: every default
// passes ValidateValue, Defaults() passes Validate (short of required
// properties without a default), and so do the defaults after a trip
// through JSON, decoded either way.
func FuzzParse(f *testing.F) {
	seedSchemas(f, func(raw []byte) {
		f.Add(raw, false)
		f.Add(raw, true)
	})
	f.Fuzz(func(t *testing.T, raw []byte, old bool) {
		sub := schema.Subset2025_11_25
		if old {
			sub = schema.Subset2025_06_18
		}
		s, err := schema.Parse(raw, sub)
		// The cached path must decide alike, with its cache holding the
		// same document re-encoded (other key order and spacing).
		cache := schema.NewCache(2)
		var doc any
		if json.Unmarshal(raw, &doc) == nil {
			if b, merr := json.Marshal(doc); merr == nil {
				_, _ = schema.ParseWith(b, sub, cache)
			}
		}
		sc, cerr := schema.ParseWith(raw, sub, cache)
		if (err == nil) != (cerr == nil) || err != nil && err.Error() != cerr.Error() {
			t.Fatalf("Parse: %v; ParseWith a cache: %v", err, cerr)
		}
		if err != nil {
			var se *schema.SchemaError
			if !errors.As(err, &se) {
				t.Fatalf("error %T %v, want *SchemaError", err, err)
			}
			_ = se.Error()
			return
		}
		for _, content := range []map[string]any{s.Defaults(), {}, {"zz": 1}} {
			a, b := s.Validate(content), sc.Validate(content)
			if (a == nil) != (b == nil) || a != nil && a.Error() != b.Error() {
				t.Fatalf("Validate(%v): fresh %v, cached %v", content, a, b)
			}
		}
		missing := map[string]bool{}
		for _, p := range s.Properties {
			if !json.Valid(p.Raw) {
				t.Fatalf("%s: Raw is not JSON: %q", p.Name, p.Raw)
			}
			if old && p.Kind == schema.MultiEnum {
				t.Fatalf("%s: 2025-06-18 accepted an array", p.Name)
			}
			if p.Default == nil {
				if p.Required {
					missing[p.Name] = true
				}
				continue
			}
			if err := schema.ValidateValue(p, p.Default); err != nil {
				t.Fatalf("default %#v of %s fails: %v", p.Default, p.Name, err)
			}
		}
		defaults := s.Defaults()
		check := func(what string, content map[string]any) {
			err := s.Validate(content)
			if err == nil {
				return
			}
			var ve *schema.ValidationError
			if !errors.As(err, &ve) || ve.Reason != "is required" || !missing[ve.Property] {
				t.Fatalf("Validate(%s %#v) = %v", what, content, err)
			}
		}
		check("defaults", defaults)
		b, err := json.Marshal(defaults)
		if err != nil {
			t.Fatalf("defaults do not marshal: %v", err)
		}
		var plain map[string]any
		if err := json.Unmarshal(b, &plain); err != nil {
			t.Fatal(err)
		}
		check("JSON defaults", plain)
		dec := json.NewDecoder(bytes.NewReader(b))
		dec.UseNumber()
		var exact map[string]any
		if err := dec.Decode(&exact); err != nil {
			t.Fatal(err)
		}
		check("exact JSON defaults", exact)
	})
}

// FuzzValidate feeds arbitrary JSON content to the fixture schemas and
// checks that Validate never panics, names a property when it refuses, and
// agrees with ValidateValue field by field.
func FuzzValidate(f *testing.F) {
	var schemas []*schema.Schema
	seedSchemas(f, func(raw []byte) {
		s, err := schema.Parse(raw, schema.Subset2025_11_25)
		if err != nil {
			return // the tool schema is not an elicitation schema
		}
		schemas = append(schemas, s)
	})
	for i, s := range schemas {
		b, _ := json.Marshal(s.Defaults())
		f.Add(uint8(i), b, false)
		f.Add(uint8(i), b, true)
	}
	f.Add(uint8(0), []byte(`{"name":"Ada","integer":1e400,"birthdate":"2025-02-30"}`), true)
	f.Add(uint8(1), []byte(`{"age":9007199254740993,"tags":["a","a"],"extra":null}`), false)
	f.Fuzz(func(t *testing.T, which uint8, raw []byte, useNumber bool) {
		s := schemas[int(which)%len(schemas)]
		dec := json.NewDecoder(bytes.NewReader(raw))
		if useNumber {
			dec.UseNumber()
		}
		var content map[string]any
		if err := dec.Decode(&content); err != nil {
			return
		}
		err := s.Validate(content)
		for _, p := range s.Properties {
			v, ok := content[p.Name]
			if !ok {
				continue
			}
			if v == nil {
				// ValidateValue's nil is an empty field (no answer); a
				// member that is null is an answer, and no kind takes it.
				var ve *schema.ValidationError
				if err == nil || errors.As(err, &ve) && ve.Property == p.Name && !strings.HasPrefix(ve.Reason, "must be") {
					t.Fatalf("Validate of %s=null: %v, want it refused as the wrong type", p.Name, err)
				}
				continue
			}
			vErr := schema.ValidateValue(p, v)
			if err == nil && vErr != nil {
				t.Fatalf("Validate accepts %s=%#v, ValidateValue refuses: %v", p.Name, v, vErr)
			}
			var ve *schema.ValidationError
			if errors.As(err, &ve) && ve.Property == p.Name && vErr == nil {
				t.Fatalf("Validate refuses %s=%#v (%v), ValidateValue accepts", p.Name, v, err)
			}
		}
		if err != nil {
			var ve *schema.ValidationError
			if !errors.As(err, &ve) || ve.Reason == "" {
				t.Fatalf("error %T %v, want a *ValidationError with a reason", err, err)
			}
		}
	})
}

// FuzzParseToolInput checks that tool schemas never panic the parser and
// that whatever it builds can validate its own defaults without panicking.
func FuzzParseToolInput(f *testing.F) {
	seedSchemas(f, func(raw []byte) { f.Add(raw) })
	f.Fuzz(func(t *testing.T, raw []byte) {
		ti, err := schema.ParseToolInput(raw)
		if err != nil {
			var se *schema.SchemaError
			if !errors.As(err, &se) {
				t.Fatalf("error %T %v, want *SchemaError", err, err)
			}
			return
		}
		_ = ti.Validate(ti.Defaults())
		for _, p := range ti.Fields {
			_ = schema.ValidateValue(p, p.Default)
			_, _ = schema.DecodeJSON(p, string(p.Raw))
		}
	})
}
