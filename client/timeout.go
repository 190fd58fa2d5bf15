package client

import (
	"errors"
	"fmt"
	"time"
)

// DefaultConnectTimeout is Options.ConnectTimeout's default.
const DefaultConnectTimeout = 30 * time.Second

// ErrTimeout is wrapped by the error of Connect when the server did not
// answer in time.
var ErrTimeout = errors.New("timed out")

// connectTimeout is the cause that ends Connect's context after d.
func connectTimeout(d time.Duration) error {
	return fmt.Errorf("%w: no answer within %v (the connect timeout)", ErrTimeout, d)
}
