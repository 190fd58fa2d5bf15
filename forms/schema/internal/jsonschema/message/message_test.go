package message

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"golang.org/x/text/language"
	xmessage "golang.org/x/text/message"
)

type named int

type stringer int

func (stringer) String() string { return "s" }

// TestSameAsXText prints the formats the jsonschema copy and forms/schema
// use, and a spread of values under the verbs, with this printer and with
// x/text's English one: the output must be the same byte for byte.
func TestSameAsXText(t *testing.T) {
	x := xmessage.NewPrinter(language.English)
	p := English()
	values := []any{
		0, 5, -7, 999, 1000, -1000, 1500, 999999, 1000000, -1234567, int8(-128), int16(32000), int32(-2000000000),
		int64(math.MaxInt64), int64(math.MinInt64), uint(12345), uint8(255), uint16(65535), uint32(4000000000), uint64(math.MaxUint64),
		named(123456), stringer(123456), errors.New("e 1000"),
		0.0, 1.5, -1.5, 1234.5, -1234.5, 1e6, 1e20, 1e21, 1e-4, 1e-5, 1e-7, 123456789.125, 0.1, 2.0 / 3, 100000.0,
		math.Copysign(0, -1), math.NaN(), math.Inf(1), math.Inf(-1), math.MaxFloat64, math.SmallestNonzeroFloat64,
		float32(1234.5), float32(1e7), float32(0.1),
		[]int{1000, 2, 3}, []int{}, []float64{1234.5, 1e9}, [2]int{1000, 1},
		"1000", "", true, nil, []string{"a", "b"}, []any{1000, "x"}, []byte("ab"), []any{}, map[string]string{"k": "v"},
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		values = append(values, r.NormFloat64()*math.Pow(10, float64(r.IntN(50)-25)), r.Int64N(1<<50)-(1<<49))
	}
	// The verbs the copy uses: %v and %d for numbers, %s and %q for
	// strings, %T. (Others, a width or a precision on a number, and extra
	// arguments are fmt's here, which x/text prints with grouped numbers:
	// nothing passes them.)
	for _, v := range values {
		check := func(f string, args ...any) {
			t.Helper()
			if want, got := x.Sprintf(f, args...), p.Sprintf(f, args...); got != want {
				t.Errorf("Sprintf(%q, %#v): got %q, x/text %q", f, args, got, want)
			}
		}
		check("%v", v)
		check("%d", v)
		check("got %v, want %v!", v, -3)
		check("100%% %v %T", v, v)
		if _, ok := v.(string); ok {
			check("%s and %q", v, v)
		}
	}
	formats := map[string][]any{
		"minimum: got %v, want %v":   {1234.5, 1e6},
		"minLength: got %d, want %d": {1000, 2000},
		"min %d items required to match contains schema, but matched %d items at %v": {1000, 2, []int{1000, 4}},
		"items at %d and %d are equal":                         {1000, 1001},
		"'oneOf' failed, subschemas %d, %d matched":            {1, 1000},
		"both %s and %s resolve to %q causing reference cycle": {"a", "b", "c"},
		"invalid jsonType %T":                                  {1000},
		"last %d additionalItem(s) not allowed":                {1000},
		"%s is not valid %s: %v":                               {"'x'", "date", errors.New("bad 1000")},
		"no verbs":                                             nil,
		"too few %d %d":                                        {1000},
		"%[2]s %[1]s":                                          {"a", "b"},
		"trailing %":                                           nil,
	}
	for f, args := range formats {
		want, got := x.Sprintf(f, args...), p.Sprintf(f, args...)
		if got != want {
			t.Errorf("Sprintf(%q, %v): got %q, x/text %q", f, args, got, want)
		}
	}
}
