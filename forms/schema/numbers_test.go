package schema

import (
	"encoding/json"
	"math"
	"testing"
)

func TestIntegerOf(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in     any
		want   int64
		reason string
	}{
		{json.Number("0"), 0, ""},
		{json.Number("-0"), 0, ""},
		{json.Number("0.000e5"), 0, ""},
		{json.Number("100"), 100, ""},
		{json.Number("1e2"), 100, ""},
		{json.Number("1E+2"), 100, ""},
		{json.Number("100.000"), 100, ""},
		{json.Number("12.5e1"), 125, ""},
		{json.Number("1250e-1"), 125, ""},
		{json.Number("-42"), -42, ""},
		{json.Number("9007199254740991"), maxSafe, ""},
		{json.Number("-9007199254740991"), -maxSafe, ""},
		{json.Number("9007199254740991.0"), maxSafe, ""},
		{json.Number("9007199254740992"), 0, reasonUnsafe},
		{json.Number("90071992547409910"), 0, reasonUnsafe},
		{json.Number("1e16"), 0, reasonUnsafe},
		{json.Number("1e99999999999999999999"), 0, reasonUnsafe},
		{json.Number("0e99999999999999999999"), 0, ""},
		{json.Number("1e-99999999999999999999"), 0, reasonNotInteger},
		{json.Number("4.0000000000000000001"), 0, reasonNotInteger},
		{json.Number("1.5"), 0, reasonNotInteger},
		{json.Number("125e-2"), 0, reasonNotInteger},
		{json.Number("0.5"), 0, reasonNotInteger},
		{json.Number("01"), 0, reasonNotNumber},
		{json.Number("1."), 0, reasonNotNumber},
		{json.Number(".5"), 0, reasonNotNumber},
		{json.Number("1e"), 0, reasonNotNumber},
		{json.Number("+1"), 0, reasonNotNumber},
		{json.Number("0x10"), 0, reasonNotNumber},
		{json.Number("NaN"), 0, reasonNotNumber},
		{json.Number(""), 0, reasonNotNumber},
		{int8(-3), -3, ""},
		{uint32(7), 7, ""},
		{int(1) << 53, 0, reasonUnsafe},
		{uint64(1) << 60, 0, reasonUnsafe},
		{2.0, 2, ""},
		{float32(2.5), 0, reasonNotInteger},
		{math.Inf(-1), 0, reasonNotFinite},
		{9007199254740992.0, 0, reasonUnsafe},
		{"1", 0, reasonNotNumber},
		{true, 0, reasonNotNumber},
	}
	for _, tt := range tests {
		got, reason := integerOf(tt.in)
		if got != tt.want || reason != tt.reason {
			t.Errorf("integerOf(%#v) = %d, %q; want %d, %q", tt.in, got, reason, tt.want, tt.reason)
		}
	}
}

func TestNumberOf(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in     any
		want   float64
		reason string
	}{
		{json.Number("3.14"), 3.14, ""},
		{json.Number("-1e3"), -1000, ""},
		{json.Number("1e400"), 0, reasonNotFinite},
		{json.Number("Infinity"), 0, reasonNotNumber},
		{int64(-5), -5, ""},
		{uint8(5), 5, ""},
		{float32(0.5), 0.5, ""},
		{math.NaN(), 0, reasonNotFinite},
		{"3", 0, reasonNotNumber},
		{nil, 0, reasonNotNumber},
	}
	for _, tt := range tests {
		got, reason := numberOf(tt.in)
		if got != tt.want || reason != tt.reason {
			t.Errorf("numberOf(%#v) = %v, %q; want %v, %q", tt.in, got, reason, tt.want, tt.reason)
		}
	}
}

func TestFmtNum(t *testing.T) {
	t.Parallel()
	for in, want := range map[float64]string{150: "150", 3.14: "3.14", -1: "-1", 1e21: "1e+21", 0.0001: "0.0001"} {
		if got := fmtNum(in); got != want {
			t.Errorf("fmtNum(%v) = %s, want %s", in, got, want)
		}
	}
}
