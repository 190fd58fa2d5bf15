package serverspec

import (
	"fmt"
	"io"
	"os"
	"syscall"
)

// configMaxBytes bounds what is read of a config file: a config is a few
// kilobytes, and a path that is a device (a link to /dev/zero) must not be
// read without end.
const configMaxBytes = 4 << 20

// readConfigFile reads a config file without waiting on it for ever. It
// opens without blocking: a FIFO nobody writes (a repository can ship
// .mcp.json as one, and elicit finds that by itself) would wait for a
// writer for ever. A pipe that has one (--config <(…)) is read as usual.
func readConfigFile(path string) ([]byte, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, configMaxBytes+1))
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	if len(b) > configMaxBytes {
		return nil, fmt.Errorf("%s is larger than %d bytes", path, configMaxBytes)
	}
	if st, err := f.Stat(); err == nil && !st.Mode().IsRegular() && len(b) == 0 {
		return nil, fmt.Errorf("%s is not a regular file, and nothing came from it", path)
	}
	return b, nil
}
