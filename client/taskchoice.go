package client

// TaskChoice says how a tools/call of a tool whose execution.taskSupport
// is support meets tasks on a server with capabilities caps. It is the
// rule CallTool follows (taskTable.prepare), for a UI that shows it and offers
// the choice without restating it:
//
//   - must: the call runs as a task whatever CallOptions.AsTask says. That
//     is a "required" tool: in 2025-11-25 the task is asked for even when
//     the server did not declare task-augmented tools/call (it refuses the
//     call without one); in the 2026-07-28 extension the server makes one.
//   - can: the call may run as a task. A "required" tool, or an "optional"
//     one where the server runs tools as tasks (tasks.requests.tools.call,
//     or the extension). For an optional tool CallOptions.AsTask then
//     chooses (nil: a task); in the extension the server decides alone.
//
// A "forbidden", absent or unknown support never runs as a task.
func TaskChoice(support string, caps ServerCapabilities) (can, must bool) {
	switch support {
	case TaskSupportRequired:
		return true, true
	case TaskSupportOptional:
		return caps.TasksToolsCall || caps.TasksExtension, false
	}
	return false, false
}
