package schema

import (
	"fmt"
	"net/mail"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// checkFormat asserts the four MCP formats with reasons a person can act
// on. Other formats (tool schemas) are left to the JSON Schema library.
func checkFormat(format, s string) string {
	switch format {
	case "email":
		return checkEmail(s)
	case "uri":
		return checkURI(s)
	case "date":
		return checkDate(s)
	case "date-time":
		return checkDateTime(s)
	}
	return ""
}

func checkEmail(s string) string {
	const reason = "must be an email address like name@example.com"
	at := strings.LastIndexByte(s, '@')
	if at <= 0 || at == len(s)-1 {
		return reason
	}
	// ParseAddress also takes "Name <a@b>"; an address alone must come back
	// unchanged.
	addr, err := mail.ParseAddress(s)
	if err != nil || addr.Name != "" || addr.Address != s {
		return reason
	}
	return ""
}

func checkURI(s string) string {
	u, err := url.Parse(s)
	if err != nil || !u.IsAbs() || strings.ContainsAny(s, " \t\r\n") {
		return "must be a full URI with a scheme, like https://example.com"
	}
	return ""
}

// checkDate wants YYYY-MM-DD naming a day that exists.
func checkDate(s string) string {
	const shape = "must be a date like 2025-01-31 (YYYY-MM-DD)"
	if len(s) != 10 || s[4] != '-' || s[7] != '-' {
		return shape
	}
	for i, c := range []byte(s) {
		if i != 4 && i != 7 && !isDigit(c) {
			return shape
		}
	}
	y, _ := strconv.Atoi(s[:4])
	mo, _ := strconv.Atoi(s[5:7])
	d, _ := strconv.Atoi(s[8:])
	if mo < 1 || mo > 12 {
		return fmt.Sprintf("%s is not a real date (there is no month %d)", s, mo)
	}
	// Day 0 of the next month is the last day of this one.
	days := time.Date(y, time.Month(mo)+1, 0, 0, 0, 0, 0, time.UTC).Day()
	if d < 1 || d > days {
		return fmt.Sprintf("%s is not a real date (%s %d has %d days)", s, time.Month(mo), y, days)
	}
	return ""
}

// checkDateTime wants an RFC 3339 date-time with a time zone.
func checkDateTime(s string) string {
	const shape = "must be a date and time like 2025-01-31T14:30:00Z (RFC 3339, with a time zone)"
	if len(s) < 11 || (s[10] != 'T' && s[10] != 't') {
		return shape
	}
	if r := checkDate(s[:10]); r != "" {
		if strings.HasPrefix(r, "must") {
			return shape
		}
		return r
	}
	if _, err := time.Parse(time.RFC3339Nano, strings.ToUpper(s)); err != nil {
		return shape
	}
	return ""
}
