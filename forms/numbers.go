package forms

import (
	"errors"
	"math"
	"strconv"
	"strings"
)

// maxSafe is 2^53-1, the largest integer every JSON peer holds exactly.
const maxSafe = 1<<53 - 1

var (
	errNotNumber = errors.New("not a number: type digits, like 42 or 3.14")
	errNotWhole  = errors.New("must be a whole number, without a fraction")
	errUnsafeInt = errors.New("too large to send exactly: use a whole number between -9007199254740991 and 9007199254740991")
)

// literal is a number as a person typed it, split into its parts.
type literal struct {
	neg        bool
	int, frac  string // digits
	exp        int
	hasExp     bool
	normalized string // a strict JSON number literal
}

// parseLiteral reads the number syntaxes a person types: an optional sign
// ("+" too), digits with an optional fraction (".5" and "5." too) and an
// optional exponent. Hex, "Inf", "NaN" and digit separators are refused.
func parseLiteral(s string) (literal, bool) {
	var l literal
	switch {
	case strings.HasPrefix(s, "-"):
		l.neg, s = true, s[1:]
	case strings.HasPrefix(s, "+"):
		s = s[1:]
	}
	i := 0
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	l.int, s = s[:i], s[i:]
	if strings.HasPrefix(s, ".") {
		j := 1
		for j < len(s) && isDigit(s[j]) {
			j++
		}
		l.frac, s = s[1:j], s[j:]
	}
	if l.int == "" && l.frac == "" {
		return l, false
	}
	if s != "" {
		if s[0] != 'e' && s[0] != 'E' {
			return l, false
		}
		e, err := strconv.Atoi(s[1:])
		if err != nil {
			// Not a number, or an exponent beyond int (handled as huge).
			if !validExp(s[1:]) {
				return l, false
			}
			e = math.MaxInt32
			if s[1] == '-' {
				e = math.MinInt32
			}
		}
		l.exp, l.hasExp = e, true
	}
	var b strings.Builder
	if l.neg {
		b.WriteByte('-')
	}
	intDigits := strings.TrimLeft(l.int, "0")
	if intDigits == "" {
		intDigits = "0"
	}
	b.WriteString(intDigits)
	if l.frac != "" {
		b.WriteString("." + l.frac)
	}
	if l.hasExp {
		b.WriteString("e" + strconv.Itoa(l.exp))
	}
	l.normalized = b.String()
	return l, true
}

func validExp(s string) bool {
	if s != "" && (s[0] == '+' || s[0] == '-') {
		s = s[1:]
	}
	return allDigits(s)
}

func isDigit(b byte) bool { return b >= '0' && b <= '9' }

// readNumber turns typed text into a finite float64. A plain integer with
// more digits than a float64 holds is refused rather than silently rounded.
func readNumber(s string) (float64, error) {
	l, ok := parseLiteral(s)
	if !ok {
		return 0, errNotNumber
	}
	f, err := strconv.ParseFloat(l.normalized, 64)
	if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
		return 0, errors.New("too large: not a finite number")
	}
	if !l.hasExp && strings.Trim(l.frac, "0") == "" && math.Abs(f) > maxSafe {
		want := strings.TrimLeft(l.int, "0")
		if got := strconv.FormatFloat(math.Abs(f), 'f', 0, 64); got != want {
			return 0, errors.New("too many digits to send exactly: it would become " +
				strconv.FormatFloat(f, 'f', 0, 64))
		}
	}
	if f == 0 {
		f = 0 // no negative zero on the wire
	}
	return f, nil
}

// readInteger turns typed text into an exact integer within ±(2^53-1).
// "42", "+42", "42.0" and "4.2e1" are 42; "2.5" and
// "4.0000000000000000001" are refused.
func readInteger(s string) (int64, error) {
	l, ok := parseLiteral(s)
	if !ok {
		return 0, errNotNumber
	}
	digits := l.int + l.frac
	point := len(l.int) // the decimal point sits after digits[:point]
	trimmed := strings.TrimLeft(digits, "0")
	if trimmed == "" {
		return 0, nil
	}
	point -= len(digits) - len(trimmed)
	trimmed = strings.TrimRight(trimmed, "0")
	if l.exp > 1000 {
		return 0, errUnsafeInt
	}
	if l.exp < -1000 {
		return 0, errNotWhole
	}
	point += l.exp
	if point < len(trimmed) {
		return 0, errNotWhole
	}
	if point > 16 { // 2^53-1 has 16 digits
		return 0, errUnsafeInt
	}
	n, err := strconv.ParseInt(trimmed+strings.Repeat("0", point-len(trimmed)), 10, 64)
	if err != nil || n > maxSafe {
		return 0, errUnsafeInt
	}
	if l.neg {
		n = -n
	}
	return n, nil
}

// fmtNumber prints a number the way a person writes it: 42, 3.14, 1e+300.
func fmtNumber(f float64) string {
	if math.Abs(f) < 1e21 {
		return strconv.FormatFloat(f, 'f', -1, 64)
	}
	return strconv.FormatFloat(f, 'g', -1, 64)
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return false
		}
	}
	return s != ""
}
