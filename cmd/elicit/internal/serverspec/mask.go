package serverspec

import "strings"

// Masked stands for a value left out.
const Masked = "…"

// MaskArgs masks the values of arguments that name a secret: "--token=X"
// and "--api-key X" become "--token=…" and "--api-key …", "API_KEY=X"
// becomes "API_KEY=…", "Authorization: Bearer X" becomes
// "Authorization: …".
func MaskArgs(args []string) []string {
	out := make([]string, len(args))
	for i, a := range args {
		out[i] = a
		if i > 0 && strings.HasPrefix(args[i-1], "-") && !strings.Contains(args[i-1], "=") &&
			secretName(args[i-1]) && !strings.HasPrefix(a, "-") {
			out[i] = Masked
			continue
		}
		for _, sep := range []string{"=", ":"} {
			if k, _, ok := strings.Cut(a, sep); ok && secretName(k) {
				out[i] = k + sep + Masked
				if sep == ":" {
					out[i] = k + ": " + Masked
				}
				break
			}
		}
	}
	return out
}

// secretName reports whether a flag, variable or header name says its
// value is a secret.
func secretName(name string) bool {
	n := strings.ToLower(name)
	for _, w := range []string{"token", "key", "secret", "pass", "auth", "credential", "cookie", "bearer", "session"} {
		if strings.Contains(n, w) {
			return true
		}
	}
	return false
}
