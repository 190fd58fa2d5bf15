package forms

import (
	"fmt"
	"strings"

	"github.com/elicit-dev/elicit/forms/schema"
)

// filterAbove is the option count from which a select says it filters and
// shows a scrolling window instead of every option.
const filterAbove = 8

// hint says, in one line, what a field accepts.
func hint(p *schema.Property) string {
	var parts []string
	add := func(s string) {
		if s != "" {
			parts = append(parts, s)
		}
	}
	switch p.Kind {
	case schema.String:
		add(formatHint(p.Format))
		add(lengthHint(p.MinLength, p.MaxLength))
		if p.Pattern != "" {
			add("must match " + untrusted.Line(p.Pattern))
		}
	case schema.Number:
		add(rangeHint("a number", p.Minimum, p.Maximum))
	case schema.Integer:
		add(rangeHint("a whole number", p.Minimum, p.Maximum))
	case schema.Enum:
		if len(p.Options) > filterAbove {
			add("/ to filter")
		}
	case schema.MultiEnum:
		add(countHint("choose", p.MinItems, p.MaxItems))
		add("x to toggle")
		if len(p.Options) > filterAbove {
			add("/ to filter")
		}
	case schema.List:
		item := map[schema.Kind]string{schema.Number: "numbers", schema.Integer: "whole numbers",
			schema.Boolean: "true/false values"}[p.Items]
		if item == "" {
			add("one item per line")
		} else {
			add(item + ", separated by commas or new lines")
		}
		add("or a JSON array")
		add(countHint("give", p.MinItems, p.MaxItems))
	case schema.JSON:
		add("JSON")
	}
	return strings.Join(parts, " · ")
}

func formatHint(format string) string {
	switch format {
	case "email":
		return "email address, like name@example.com"
	case "uri":
		return "URL with a scheme, like https://example.com"
	case "date":
		return "date as YYYY-MM-DD"
	case "date-time":
		return "date and time, like 2025-03-01T14:30:00Z"
	case "":
		return ""
	}
	return "format " + untrusted.Line(format)
}

// examplePlaceholder shows an example in an empty field. It is marked as
// an example so that, without colours, it cannot pass for a value.
func examplePlaceholder(text string) string {
	if text == "" {
		return ""
	}
	return "e.g. " + text
}

func lengthHint(minLen, maxLen *int) string {
	switch {
	case minLen != nil && maxLen != nil && *minLen == *maxLen:
		return fmt.Sprintf("exactly %d characters", *minLen)
	case minLen != nil && *minLen > 0 && maxLen != nil:
		return fmt.Sprintf("%d to %d characters", *minLen, *maxLen)
	case minLen != nil && *minLen > 0:
		return fmt.Sprintf("at least %d characters", *minLen)
	case maxLen != nil:
		return fmt.Sprintf("at most %d characters", *maxLen)
	}
	return ""
}

func rangeHint(what string, lo, hi *float64) string {
	switch {
	case lo != nil && hi != nil:
		return fmt.Sprintf("%s from %s to %s", what, fmtNumber(*lo), fmtNumber(*hi))
	case lo != nil:
		return fmt.Sprintf("%s, at least %s", what, fmtNumber(*lo))
	case hi != nil:
		return fmt.Sprintf("%s, at most %s", what, fmtNumber(*hi))
	}
	return what
}

func countHint(verb string, lo, hi *int) string {
	switch {
	case lo != nil && hi != nil && *lo == *hi:
		return fmt.Sprintf("%s exactly %d", verb, *lo)
	case lo != nil && *lo > 0 && hi != nil:
		return fmt.Sprintf("%s %d to %d", verb, *lo, *hi)
	case lo != nil && *lo > 0:
		return fmt.Sprintf("%s at least %d", verb, *lo)
	case hi != nil:
		return fmt.Sprintf("%s up to %d", verb, *hi)
	}
	return ""
}
