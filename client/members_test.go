package client_test

import "testing"

// TestResultMembersByExactName: a tool result whose "IsError" differs from
// isError only in case is not a tool error, and its "Content" is not its
// content; the real members still are (the case fuzzing found for
// resultType, requestState and elicitation params, for results at large).
func TestResultMembersByExactName(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		result, want string
		isError      bool
	}{
		{`{"resultType":"complete","IsError":true,"content":[{"type":"text","text":"fine"}]}`, "fine", false},
		{`{"resultType":"complete","isError":true,"content":[{"type":"text","text":"broke"}]}`, "broke", true},
		{`{"resultType":"complete","content":[],"Content":[{"type":"text","text":"decoy"}]}`, "", false},
		{`{"resultType":"complete","content":[{"type":"text","text":"real","Text":"decoy"}]}`, "real", false},
	} {
		s, _ := connectScript(t, lines(tc.result), true, nil)
		res, err := s.CallTool(t.Context(), "fuzz", nil, nil)
		if err != nil {
			t.Errorf("%s: %v", tc.result, err)
			continue
		}
		if res.Text() != tc.want || res.IsError != tc.isError {
			t.Errorf("%s: text %q isError %v, want %q %v", tc.result, res.Text(), res.IsError, tc.want, tc.isError)
		}
	}
}
