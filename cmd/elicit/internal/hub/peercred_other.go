//go:build !linux && !darwin

package hub

import (
	"errors"
	"net"
)

// peerUID: without SO_PEERCRED no peer is taken on trust; the folder's
// permissions are then the only guard, and the hub refuses everyone.
func peerUID(*net.UnixConn) (int, error) {
	return -1, errors.New("peer credentials: not supported on this system")
}
