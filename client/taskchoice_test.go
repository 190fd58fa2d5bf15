package client_test

import (
	"testing"

	"github.com/elicit-dev/elicit/client"
)

func TestTaskChoice(t *testing.T) {
	t.Parallel()
	none := client.ServerCapabilities{}
	// Listing and cancelling tasks is not running tools as tasks.
	listOnly := client.ServerCapabilities{Tasks: true, TasksList: true, TasksCancel: true}
	core := client.ServerCapabilities{Tasks: true, TasksToolsCall: true}
	ext := client.ServerCapabilities{TasksExtension: true}
	for _, tc := range []struct {
		name      string
		support   string
		caps      client.ServerCapabilities
		can, must bool
	}{
		{"required, tools as tasks", client.TaskSupportRequired, core, true, true},
		{"required, undeclared: asked anyway", client.TaskSupportRequired, none, true, true},
		{"required, extension", client.TaskSupportRequired, ext, true, true},
		{"optional, tools as tasks", client.TaskSupportOptional, core, true, false},
		{"optional, extension", client.TaskSupportOptional, ext, true, false},
		{"optional, undeclared: never", client.TaskSupportOptional, none, false, false},
		{"optional, only tasks/list and cancel", client.TaskSupportOptional, listOnly, false, false},
		{"forbidden", client.TaskSupportForbidden, core, false, false},
		{"forbidden, extension", client.TaskSupportForbidden, ext, false, false},
		{"absent", "", core, false, false},
		{"unknown value", "sometimes", core, false, false},
		{"case matters", "Required", core, false, false},
	} {
		can, must := client.TaskChoice(tc.support, tc.caps)
		if can != tc.can || must != tc.must {
			t.Errorf("%s: TaskChoice(%q) = can %v, must %v; want %v, %v", tc.name, tc.support, can, must, tc.can, tc.must)
		}
	}
}
