//go:build !unix

package oauth

import "os"

// tryLock: without flock, the atomic rename still keeps every file whole;
// only concurrent refreshes from two processes may race.
func tryLock(*os.File) (bool, error) { return true, nil }

func unlock(*os.File) {}
