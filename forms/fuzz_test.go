package forms

import (
	"encoding/json"
	"math"
	"math/big"
	"strings"
	"testing"

	"github.com/elicit-dev/elicit/forms/schema"
)

// fuzzSchema has a field of every elicitation kind and constraint.
const fuzzSchema = `{"type":"object","properties":{
	"s":{"type":"string","minLength":1,"maxLength":20},
	"email":{"type":"string","format":"email"},
	"uri":{"type":"string","format":"uri"},
	"date":{"type":"string","format":"date"},
	"dt":{"type":"string","format":"date-time"},
	"pat":{"type":"string","pattern":"^[a-z]*$"},
	"n":{"type":"number","minimum":-1000,"maximum":1e300},
	"i":{"type":"integer","minimum":-5,"maximum":9007199254740991},
	"free":{"type":"integer"},
	"b":{"type":"boolean"},
	"e":{"type":"string","enum":["a","","c"]},
	"m":{"type":"array","minItems":1,"maxItems":2,"items":{"type":"string","enum":["x","y","z"]}}},
	"required":["i"]}`

// fuzzTool adds the tool-only kinds.
const fuzzTool = `{"type":"object","properties":{
	"ls":{"type":"array","items":{"type":"string"},"maxItems":4},
	"ln":{"type":"array","items":{"type":"number"}},
	"li":{"type":"array","items":{"type":"integer","minimum":0}},
	"lb":{"type":"array","items":{"type":"boolean"}},
	"j":{"type":"object","properties":{"k":{"type":"integer"}},"required":["k"],"additionalProperties":false},
	"n":{"type":"number"},
	"s":{"type":"string","maxLength":3}},
	"required":["j"]}`

// setText puts text into a field as typing would, and picks from the
// bytes of text into choice fields.
func setText(fl field, text string) {
	pick := 0
	if len(text) > 0 {
		pick = int(text[0]%5) - 1
	}
	switch x := fl.(type) {
	case *textField:
		x.text = text
	case *numberField:
		x.text = text
	case *listField:
		x.text = text
	case *jsonField:
		x.text = text
	case *boolField:
		x.yes, x.pick = pick > 0, pick%2
	case *enumField:
		x.pick = pick
	case *multiField:
		x.picks = nil
		for _, c := range []byte(text) {
			x.picks = append(x.picks, int(c%4)-1)
		}
	}
}

// FuzzReaders types random text into every field of both forms: Content
// either refuses or returns content that the schema accepts and that
// marshals to JSON; a field whose reader accepts a value agrees with the
// schema's check of that value.
func FuzzReaders(f *testing.F) {
	for _, s := range []string{"", "0", "-5", "2.5", "9007199254740993", "1e300", "-0", "+.5e1", "x@y.z",
		"https://a.b/c", "2025-02-30", "2024-02-29", "2025-03-01T14:30:00Z", "abc", "[1,2]", "[]", "1, 2\n3",
		`{"k":1}`, `{"k":9007199254740993}`, "null", "true, no", "\x1b[31m", "\xff", "1e-400", "4.0000000000000000001"} {
		f.Add(s)
	}
	s, err := schema.Parse(json.RawMessage(fuzzSchema), schema.Subset2025_11_25)
	if err != nil {
		f.Fatal(err)
	}
	ti, err := schema.ParseToolInput(json.RawMessage(fuzzTool))
	if err != nil {
		f.Fatal(err)
	}
	// Built once: every run overwrites every field's state, and a worker
	// calls the fuzz function sequentially.
	forms := []struct {
		form     *Form
		validate func(map[string]any) error
	}{
		{New(s, Options{}), s.Validate},
		{NewToolArgs(ti, Options{}), ti.Validate},
	}
	f.Fuzz(func(t *testing.T, text string) {
		for _, fm := range forms {
			for _, fl := range fm.form.fields {
				setText(fl, text)
				v, ok, err := fl.value()
				if err == nil && ok {
					if verr := schema.ValidateValue(fl.property(), v); verr != nil {
						t.Fatalf("%s: reader accepted %#v from %q, schema refuses: %v", fl.property().Name, v, text, verr)
					}
				}
			}
			c, err := fm.form.Content()
			if err != nil {
				continue
			}
			if verr := fm.validate(c); verr != nil {
				t.Fatalf("Content %#v from %q fails Validate: %v", c, text, verr)
			}
			if _, merr := json.Marshal(c); merr != nil {
				t.Fatalf("Content %#v from %q does not marshal: %v", c, text, merr)
			}
		}
	})
}

// FuzzNumberReaders checks the number readers against exact arithmetic:
// an integer is never rounded, a number is finite, and both agree with
// strconv on what is a number at all.
func FuzzNumberReaders(f *testing.F) {
	for _, s := range []string{"0", "-0", "+1", ".5", "5.", "1e3", "4.2e1", "2.5", "9007199254740991",
		"9007199254740992", "1e16", "-9007199254740991.000", "1e-99999999999", "1e99999999999", "0x10", "1_0", "Inf", "NaN", "e5", "."} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) > 200 {
			return // keep big.Rat cheap; the readers cap exponents themselves
		}
		l, lok := parseLiteral(s)
		n, ierr := readInteger(s)
		x, nerr := readNumber(s)
		if !lok && (ierr == nil || nerr == nil) {
			t.Fatalf("%q is not a literal but was read", s)
		}
		if ierr == nil {
			if n > maxSafe || n < -maxSafe {
				t.Fatalf("readInteger(%q) = %d, beyond 2^53-1", s, n)
			}
			if l.hasExp && (l.exp > 400 || l.exp < -400) {
				return
			}
			r, ok := new(big.Rat).SetString(l.normalized)
			if !ok || !r.IsInt() || r.Num().Int64() != n {
				t.Fatalf("readInteger(%q) = %d, exact value %v", s, n, r)
			}
		}
		if nerr == nil {
			if math.IsInf(x, 0) || math.IsNaN(x) {
				t.Fatalf("readNumber(%q) = %v", s, x)
			}
			if ierr == nil && float64(n) != x {
				t.Fatalf("readInteger(%q) = %d but readNumber = %v", s, n, x)
			}
		}
		if lok && strings.ContainsAny(s, "xX_iInN") {
			t.Fatalf("parseLiteral accepted %q", s)
		}
	})
}
