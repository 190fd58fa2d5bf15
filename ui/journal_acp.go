package ui

import (
	"fmt"
	"slices"

	"charm.land/lipgloss/v2"

	"github.com/elicit-dev/elicit/client/question"
	"github.com/elicit-dev/elicit/themes"
	"github.com/elicit-dev/elicit/themes/untrusted"
)

// permissionBuckets are an ACP permission's journal buckets in the order
// shown: each option kind a person may choose (always shown), then how it
// ended without one (shown when it happened).
var permissionBuckets = []string{
	question.OptionAllowOnce, question.OptionAllowAlways, question.OptionRejectOnce, question.OptionRejectAlways,
	question.BucketCancelled, question.BucketWithdrawn, question.BucketDisconnected, question.BucketShutdown, question.BucketInvalid,
}

// permissionLine is one agent's permission buckets; a bucket not in the
// list (an option kind the agent made up) comes last, as counted.
func permissionLine(st *themes.Styles, label string, n map[string]int) string {
	line := label
	for i, b := range permissionBuckets {
		if v := n[b]; v > 0 || i < 4 {
			line += " " + bucketStyle(st, b).Render(fmt.Sprintf("%s %d", b, v))
		}
	}
	var other []string
	for b := range n {
		if !slices.Contains(permissionBuckets, b) {
			other = append(other, b)
		}
	}
	slices.Sort(other)
	for _, b := range other {
		line += " " + st.Journal.Other.Render(fmt.Sprintf("%s %d", untrusted.Line(b), n[b]))
	}
	return line
}

func bucketStyle(st *themes.Styles, b string) lipgloss.Style {
	switch b {
	case question.OptionAllowOnce, question.OptionAllowAlways:
		return st.Journal.Accept
	case question.OptionRejectOnce, question.OptionRejectAlways:
		return st.Journal.Decline
	case question.BucketCancelled:
		return st.Journal.Cancel
	}
	return st.Journal.Other
}

// permissionTag is a permission entry's bucket in the list: the option
// kind chosen, or how it ended.
func permissionTag(st *themes.Styles, e question.JournalEntry) string {
	if !paneKindOf(e.Asked).byBucket || e.Bucket == "" {
		return ""
	}
	return bucketStyle(st, e.Bucket).Render(untrusted.Line(e.Bucket)) + " "
}
