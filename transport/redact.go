package transport

import (
	"net/http"

	"github.com/elicit-dev/elicit/transport/redact"
)

// httpDo is client.Do with the error's URL redacted (net/http quotes the
// whole request URL, query and all): every request the transports make
// goes through it.
func httpDo(client *http.Client, req *http.Request) (*http.Response, error) {
	resp, err := client.Do(req)
	return resp, redact.Error(err)
}
