package serverspec

import "os"

// OpenInBrowser starts $BROWSER on u as the OAuth sign-in does (its first
// entry, u one argument, not waited for); false when $BROWSER is not set.
func OpenInBrowser(u string) (bool, error) {
	b := os.Getenv("BROWSER")
	if b == "" {
		return false, nil
	}
	return true, startBrowser(b, u)
}
