// Package message is the one piece of golang.org/x/text/message that the
// jsonschema copy uses: a Printer whose Sprintf formats as x/text's printer
// for English does, for the formats the copy and forms/schema pass it.
//
// Why not x/text itself: linking golang.org/x/text/message runs the package
// inits of its language, plural and catalog tables at every start of every
// program, whether or not a schema error is ever printed (about 0.4-0.9 ms of
// `elicit version`, BENCHMARKS.md "Start-up"). The differences from fmt are
// all in numbers: integers are grouped by thousands ("1,000"), floats too
// ("1,234.5"), a float fmt would print with an exponent is written
// "1.5 × 10⁰⁶" (narrow no-break spaces), infinity is "∞" and -0 is "0";
// numbers inside arrays and slices too. The test compares this printer with
// x/text's on every format used and many values. Where it is not x/text's:
// numbers inside maps and structs, and numbers under a verb with flags, a
// width or a precision, under %s, %x or %q, or passed as extra arguments
// (x/text groups them; fmt does not). Nothing here passes those.
package message

import (
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"
)

// Printer formats messages as x/text's English printer does. The zero value
// is ready to use; it holds no state.
type Printer struct{}

// English returns the printer the copy used as
// message.NewPrinter(language.English).
func English() *Printer { return &Printer{} }

// Sprintf is fmt.Sprintf with numbers formatted as x/text's English printer
// formats them for %v and %d. A verb with flags, a width or a precision, and
// every other verb, is fmt's.
func (*Printer) Sprintf(format string, args ...any) string {
	var out []any
	argi := 0
	for i := 0; i < len(format); i++ {
		if format[i] != '%' {
			continue
		}
		if i+1 < len(format) && format[i+1] == '%' {
			i++
			continue
		}
		// The verb is the first letter after '%' and any flags, width and
		// precision; only a bare %v or %d is rewritten.
		j := i + 1
		for j < len(format) && strings.IndexByte("+-# 0123456789.*[]", format[j]) >= 0 {
			j++
		}
		if j >= len(format) {
			break
		}
		plain := j == i+1
		if strings.IndexByte(format[i+1:j], '*') >= 0 || strings.IndexByte(format[i+1:j], '[') >= 0 {
			return fmt.Sprintf(format, args...) // argument indexes: leave it all to fmt
		}
		if argi < len(args) && plain && (format[j] == 'v' || format[j] == 'd') {
			if s, ok := number(args[argi], format[j]); ok {
				if out == nil {
					out = append([]any(nil), args...)
				}
				out[argi] = verbatim(s)
			}
		}
		argi++
		i = j
	}
	if out == nil {
		return fmt.Sprintf(format, args...)
	}
	return fmt.Sprintf(format, out...)
}

// verbatim prints itself for %v and %d alike.
type verbatim string

// Format implements fmt.Formatter.
func (v verbatim) Format(f fmt.State, _ rune) { _, _ = f.Write([]byte(v)) }

// number formats v the x/text way if it is a number (or an array or slice
// holding one); ok is false for anything fmt prints the same.
func number(v any, verb byte) (string, bool) {
	switch v.(type) {
	case nil, fmt.Formatter:
		return "", false
	case fmt.Stringer, error:
		if verb == 'v' {
			return "", false // fmt prints what its method says
		}
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return group(strconv.FormatInt(rv.Int(), 10)), true
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return group(strconv.FormatUint(rv.Uint(), 10)), true
	case reflect.Float32, reflect.Float64:
		s := float(rv.Float(), rv.Type().Bits())
		if verb == 'd' {
			s = "%!d(" + rv.Type().String() + "=" + s + ")" // fmt's bad verb, with x/text's number
		}
		return s, true
	case reflect.Slice, reflect.Array:
		if rv.Kind() == reflect.Slice && rv.IsNil() || rv.Type().Elem().Kind() == reflect.Uint8 {
			return "", false // fmt's [] and its byte slices
		}
		parts := make([]string, rv.Len())
		changed := false
		for i := range parts {
			e := rv.Index(i).Interface()
			s, ok := number(e, verb)
			if !ok {
				s = fmt.Sprintf("%"+string(verb), e)
			}
			parts[i], changed = s, changed || ok
		}
		return "[" + strings.Join(parts, " ") + "]", changed
	}
	return "", false
}

// group puts a comma between every three digits of the integer part of a
// decimal number (with an optional sign and fraction).
func group(s string) string {
	sign := ""
	if s != "" && (s[0] == '-' || s[0] == '+') {
		sign, s = s[:1], s[1:]
	}
	frac := ""
	if i := strings.IndexByte(s, '.'); i >= 0 {
		s, frac = s[:i], s[i:]
	}
	if len(s) <= 3 {
		return sign + s + frac
	}
	var b strings.Builder
	b.Grow(len(sign) + len(s) + len(s)/3 + len(frac))
	b.WriteString(sign)
	head := len(s) % 3
	if head == 0 {
		head = 3
	}
	b.WriteString(s[:head])
	for i := head; i < len(s); i += 3 {
		b.WriteByte(',')
		b.WriteString(s[i : i+3])
	}
	b.WriteString(frac)
	return b.String()
}

// float formats f as %v does (the shortest repr, an exponent past 21
// digits or below 1e-4) in x/text's English notation.
func float(f float64, bits int) string {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "∞"
	case math.IsInf(f, -1):
		return "-∞"
	case f == 0:
		return "0" // x/text drops the sign of -0
	}
	s := strconv.FormatFloat(f, 'g', -1, bits)
	mant, exp, ok := strings.Cut(s, "e")
	if !ok {
		return group(s)
	}
	var b strings.Builder
	b.WriteString(group(mant))
	b.WriteString("\u202f×\u202f10")
	for _, r := range exp {
		switch {
		case r == '-':
			b.WriteRune('⁻')
		case r >= '0' && r <= '9':
			b.WriteRune(superscript(byte(r - '0')))
		}
	}
	return b.String()
}

// superscript is the digit d (0-9) written as a superscript: ¹²³ are in
// Latin-1, the others at U+2070 and U+2074-U+2079.
func superscript(d byte) rune {
	switch d {
	case 1:
		return '¹'
	case 2:
		return '²'
	case 3:
		return '³'
	}
	return 0x2070 + rune(d)
}
