package schema

import (
	"encoding/json"
	"math"
	"strconv"
	"strings"
)

// maxSafe is the largest integer every JSON peer (JavaScript included) holds
// exactly: 2^53-1. Integers beyond it are refused, never rounded.
const maxSafe = 1<<53 - 1

// Reasons a number is not a usable integer.
const (
	reasonNotNumber  = "must be a number"
	reasonNotInteger = "must be a whole number"
	reasonUnsafe     = "must be between -9007199254740991 and 9007199254740991"
	reasonNotFinite  = "must be a finite number"
)

// integerOf returns v as an exact integer, or a reason it is not one. It
// accepts every Go numeric type and json.Number; a float must be integral.
func integerOf(v any) (int64, string) {
	switch n := v.(type) {
	case int:
		return safeInt(int64(n))
	case int8:
		return int64(n), ""
	case int16:
		return int64(n), ""
	case int32:
		return int64(n), ""
	case int64:
		return safeInt(n)
	case uint:
		return safeUint(uint64(n))
	case uint8:
		return int64(n), ""
	case uint16:
		return int64(n), ""
	case uint32:
		return int64(n), ""
	case uint64:
		return safeUint(n)
	case float32:
		return integerOfFloat(float64(n))
	case float64:
		return integerOfFloat(n)
	case json.Number:
		return integerOfText(string(n))
	}
	return 0, reasonNotNumber
}

func safeInt(n int64) (int64, string) {
	if n > maxSafe || n < -maxSafe {
		return 0, reasonUnsafe
	}
	return n, ""
}

func safeUint(n uint64) (int64, string) {
	if n > maxSafe {
		return 0, reasonUnsafe
	}
	return int64(n), ""
}

func integerOfFloat(f float64) (int64, string) {
	switch {
	case math.IsNaN(f) || math.IsInf(f, 0):
		return 0, reasonNotFinite
	case math.Trunc(f) != f:
		return 0, reasonNotInteger
	case math.Abs(f) > maxSafe:
		return 0, reasonUnsafe
	}
	return int64(f), ""
}

// integerOfText reads a JSON number literal exactly: "1e2" and "100.0" are
// 100, "4.0000000000000000001" is not an integer (a float64 would round it
// to 4), and huge exponents cost nothing.
func integerOfText(s string) (int64, string) {
	neg, intPart, frac, exp, ok := splitNumber(s)
	if !ok {
		return 0, reasonNotNumber
	}
	digits := intPart + frac
	allZero := strings.Trim(digits, "0") == ""
	if allZero {
		return 0, ""
	}
	e, err := strconv.Atoi(exp)
	if err != nil { // exponent beyond int: tiny or huge
		if strings.HasPrefix(exp, "-") {
			return 0, reasonNotInteger
		}
		return 0, reasonUnsafe
	}
	point := len(intPart) + e
	trimmed := strings.TrimLeft(digits, "0")
	point -= len(digits) - len(trimmed)
	trimmed = strings.TrimRight(trimmed, "0")
	if point < len(trimmed) {
		return 0, reasonNotInteger
	}
	if point > 16 { // 2^53-1 has 16 digits
		return 0, reasonUnsafe
	}
	n, err := strconv.ParseInt(trimmed+strings.Repeat("0", point-len(trimmed)), 10, 64)
	if err != nil || n > maxSafe {
		return 0, reasonUnsafe
	}
	if neg {
		n = -n
	}
	return n, ""
}

// splitNumber splits a strict JSON number literal into its parts; exp is
// "0" when absent.
func splitNumber(s string) (neg bool, intPart, frac, exp string, ok bool) {
	if strings.HasPrefix(s, "-") {
		neg, s = true, s[1:]
	}
	i := 0
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	if i == 0 || (i > 1 && s[0] == '0') {
		return false, "", "", "", false
	}
	intPart, s = s[:i], s[i:]
	if strings.HasPrefix(s, ".") {
		j := 1
		for j < len(s) && isDigit(s[j]) {
			j++
		}
		if j == 1 {
			return false, "", "", "", false
		}
		frac, s = s[1:j], s[j:]
	}
	exp = "0"
	if s != "" {
		if s[0] != 'e' && s[0] != 'E' {
			return false, "", "", "", false
		}
		s = s[1:]
		sign := ""
		if s != "" && (s[0] == '+' || s[0] == '-') {
			if s[0] == '-' {
				sign = "-"
			}
			s = s[1:]
		}
		if s == "" || strings.IndexFunc(s, func(r rune) bool { return r < '0' || r > '9' }) >= 0 {
			return false, "", "", "", false
		}
		exp = sign + s
	}
	return neg, intPart, frac, exp, true
}

func isDigit(b byte) bool { return b >= '0' && b <= '9' }

// numberOf returns v as a finite float64, or a reason it is not one.
func numberOf(v any) (float64, string) {
	var f float64
	switch n := v.(type) {
	case float64:
		f = n
	case float32:
		f = float64(n)
	case json.Number:
		if _, _, _, _, ok := splitNumber(string(n)); !ok {
			return 0, reasonNotNumber
		}
		var err error
		if f, err = strconv.ParseFloat(string(n), 64); err != nil {
			return 0, reasonNotFinite
		}
	case int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64:
		i, _ := strconv.ParseFloat(numText(n), 64)
		f = i
	default:
		return 0, reasonNotNumber
	}
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, reasonNotFinite
	}
	return f, ""
}

func numText(v any) string {
	switch n := v.(type) {
	case int:
		return strconv.FormatInt(int64(n), 10)
	case int8:
		return strconv.FormatInt(int64(n), 10)
	case int16:
		return strconv.FormatInt(int64(n), 10)
	case int32:
		return strconv.FormatInt(int64(n), 10)
	case int64:
		return strconv.FormatInt(n, 10)
	case uint:
		return strconv.FormatUint(uint64(n), 10)
	case uint8:
		return strconv.FormatUint(uint64(n), 10)
	case uint16:
		return strconv.FormatUint(uint64(n), 10)
	case uint32:
		return strconv.FormatUint(uint64(n), 10)
	case uint64:
		return strconv.FormatUint(n, 10)
	}
	return ""
}

// fmtNum prints a bound the way a person writes it: 150, 3.14, 1e+300.
func fmtNum(f float64) string {
	if math.Abs(f) < 1e21 {
		return strconv.FormatFloat(f, 'f', -1, 64)
	}
	return strconv.FormatFloat(f, 'g', -1, 64)
}
