package tui

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"sync"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/client/question"
	"github.com/elicit-dev/elicit/transport/redact"
)

// taskState keeps the ids of tasks that are still running in a small JSON
// file, so that a restarted elicit resumes polling them (the spec asks
// clients to persist task ids). A task leaves the file once it is terminal
// or lost. The file is rewritten whole (temp file + rename) on each change.
type taskState struct {
	path string

	// wmu orders the writes: each one snapshots entries while holding it,
	// so the last rename holds the newest list. Sessions observe from
	// their own dispatchers, at the same time. Taken before mu.
	wmu sync.Mutex

	mu      sync.Mutex
	entries map[taskKey]taskEntry
}

type taskKey struct{ Server, ID string }

type taskEntry struct {
	Server string `json:"server"`
	ID     string `json:"id"`
	Tool   string `json:"tool,omitempty"`
	Design string `json:"design,omitempty"`
}

// taskStatePath is $XDG_STATE_HOME/elicit/tasks.json (~/.local/state/…).
func taskStatePath(getenv func(string) string) string {
	dir := getenv("XDG_STATE_HOME")
	if dir == "" {
		home := getenv("HOME")
		if home == "" {
			return ""
		}
		dir = filepath.Join(home, ".local", "state")
	}
	return filepath.Join(dir, "elicit", "tasks.json")
}

// loadTaskState reads the file; a missing file is an empty state. A file
// that cannot be read is reported and replaced on the next change, never
// fatal: losing a resume is better than not starting.
func loadTaskState(path string) (*taskState, error) {
	st := &taskState{path: path, entries: map[taskKey]taskEntry{}}
	if path == "" {
		return st, nil
	}
	b, err := redact.ReadPrivate(path)
	if errors.Is(err, fs.ErrNotExist) {
		return st, nil
	}
	if err != nil {
		return st, fmt.Errorf("task state %s: %w", path, err)
	}
	var list []taskEntry
	if err := json.Unmarshal(b, &list); err != nil {
		return st, fmt.Errorf("task state %s is not a JSON list of tasks (it will be rewritten): %w", path, err)
	}
	for _, e := range list {
		if e.Server != "" && e.ID != "" {
			st.entries[taskKey{e.Server, e.ID}] = e
		}
	}
	return st, nil
}

// forServer lists the remembered tasks of one server.
func (st *taskState) forServer(name string) []taskEntry {
	st.mu.Lock()
	defer st.mu.Unlock()
	var out []taskEntry
	for _, e := range st.entries {
		if e.Server == name {
			out = append(out, e)
		}
	}
	slices.SortFunc(out, compareEntries)
	return out
}

// observe keeps the file in step with TaskChanged events.
func (st *taskState) observe(e client.Event) error {
	tc, ok := e.(client.TaskChanged)
	if !ok || tc.Task.Ours {
		return nil // ours live and die with their session: nothing to resume
	}
	t := tc.Task
	k := taskKey{t.Server, t.ID}
	st.mu.Lock()
	_, had := st.entries[k]
	// A task we merely stopped following (we quit, or the connection
	// died) is still running on the server: keep it for the next start.
	// Lost for any other reason means the server does not know it.
	stopped := errors.Is(t.Err, client.ErrClosed) || errors.Is(t.Err, question.ErrDisconnected)
	done := t.Status.Terminal() || t.Lost && !stopped
	switch {
	case done && had:
		delete(st.entries, k)
	case !done && !had:
		st.entries[k] = taskEntry{Server: t.Server, ID: t.ID, Tool: t.Tool, Design: string(t.Design)}
	default:
		st.mu.Unlock()
		return nil
	}
	st.mu.Unlock()
	return st.save()
}

// save writes the entries as they are now (see wmu).
func (st *taskState) save() error {
	st.wmu.Lock()
	defer st.wmu.Unlock()
	st.mu.Lock()
	list := make([]taskEntry, 0, len(st.entries))
	for _, e := range st.entries {
		list = append(list, e)
	}
	st.mu.Unlock()
	slices.SortFunc(list, compareEntries)
	return st.write(list)
}

func compareEntries(a, b taskEntry) int {
	return cmp.Or(cmp.Compare(a.Server, b.Server), cmp.Compare(a.ID, b.ID))
}

func (st *taskState) write(list []taskEntry) error {
	if st.path == "" {
		return nil
	}
	b, err := json.MarshalIndent(list, "", "  ")
	if err != nil {
		return fmt.Errorf("task state: %w", err)
	}
	// Private (0600 in a 0700 folder of the person's): a task id is a
	// handle on the server's work, which anyone holding it may fetch.
	if err := redact.WritePrivate(st.path, append(b, '\n')); err != nil {
		return fmt.Errorf("task state: %w", err)
	}
	return nil
}
