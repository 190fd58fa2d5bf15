package demo

import (
	"context"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The reflow tools are long jobs run as tasks (tasks_*.go): they move a
// fortnight's bookings one at a time, report each move in statusMessage,
// and look for a cancel only between moves, never in the middle of one.

// reflowPlaceKey is the inputRequests key of reflow_month's one question;
// it stays the same across polls.
const reflowPlaceKey = "placement"

// The question reflow_month asks, and its answers.
const (
	reflowQuestion = "The Thursday 14:00 workshop (18 people) fits nowhere in the fortnight. What should happen?"
	reflowWorkshop = "Thursday 14:00 workshop"
	reflowUnplaced = 7 // the workshop's place in the plan, 1-based
)

// booking is one move of the plan.
type booking struct{ what, room string }

// reflowPlan is the fortnight: twelve bookings, the seventh of which fits
// no room.
func reflowPlan() []booking {
	return []booking{
		{"Monday standup", "Room A"}, {"Budget sync", "Room C"}, {"Hiring panel", "Room D"},
		{"Customer call", "Room A"}, {"Design review", "Room B"}, {"Sprint planning", "Room C"},
		{reflowWorkshop, ""}, {"Security briefing", "Room D"}, {"Board prep", "Room B"},
		{"Retrospective", "Room A"}, {"Onboarding", "Room C"}, {"All-hands rehearsal", "Room D"},
	}
}

// reflowChoice is one answer to the question: its value, its title, and
// what the move then says.
type reflowChoice struct{ value, title, done string }

func reflowChoices() []reflowChoice {
	return []reflowChoice{
		{"move_atrium", "Move to the atrium", "→ Atrium"},
		{"split_rooms", "Split across two rooms", "→ Rooms B and C, split"},
		{"cancel_notify", "Cancel and notify", "cancelled, attendees notified"},
	}
}

func reflowSchema() map[string]any {
	options := []any{}
	for _, c := range reflowChoices() {
		options = append(options, map[string]any{"const": c.value, "title": c.title})
	}
	return objectSchema(map[string]any{
		"choice": map[string]any{"type": "string", "title": "What should happen?", "oneOf": options},
	}, "choice")
}

// noArgs is the input schema of tools without arguments.
func noArgs() map[string]any { return map[string]any{"type": "object"} }

func addReflow(srv *mcp.Server, tasks *taskStore) {
	tasks.addTaskTool(srv, &mcp.Tool{
		Name:  "reflow_month",
		Title: "Reflow the month's bookings (task)",
		Description: "Moves a fortnight's twelve bookings into free rooms, one at a time, as a task " +
			"(execution.taskSupport required). One booking fits nowhere: the task asks what to do " +
			"(input_required), then finishes. Can be cancelled between moves.",
		InputSchema: noArgs(),
		Annotations: &mcp.ToolAnnotations{OpenWorldHint: ptr(false)},
	}, taskRequired, reflowMonth)
	tasks.addTaskTool(srv, &mcp.Tool{
		Name:        "reflow_fail",
		Title:       "A reflow that fails (task)",
		Description: "Moves three bookings, then fails with a JSON-RPC error: the task ends failed.",
		InputSchema: noArgs(),
		Annotations: &mcp.ToolAnnotations{OpenWorldHint: ptr(false)},
	}, taskOptional, reflowFail)
	tasks.addTaskTool(srv, &mcp.Tool{
		Name:  "reflow_iserror",
		Title: "A reflow that ends in a tool error (task)",
		Description: "Moves three bookings, then returns a tool result with isError: the task ends " +
			"failed in 2025-11-25 and completed (with that result) in 2026-07-28.",
		InputSchema: noArgs(),
		Annotations: &mcp.ToolAnnotations{OpenWorldHint: ptr(false)},
	}, taskOptional, reflowIsError)
	tasks.addTaskTool(srv, &mcp.Tool{
		Name:  "reflow_stubborn",
		Title: "A reflow that ignores cancellation (task)",
		Description: "Moves all twelve bookings and ignores tasks/cancel. In 2025-11-25 the task still " +
			"reads cancelled (the spec requires it) while the server works on; in 2026-07-28 cancel is " +
			"only a request and the task ends completed.",
		InputSchema: noArgs(),
		Annotations: &mcp.ToolAnnotations{OpenWorldHint: ptr(false)},
	}, taskOptional, reflowStubborn)
}

// move makes one move: a checkpoint for cancellation, one unit of work,
// then the report.
func move(ctx context.Context, w *work, n int, b booking) error {
	if err := w.checkpoint(ctx); err != nil {
		return err
	}
	if err := w.unit(ctx); err != nil {
		return err
	}
	w.report("Moved booking %d of %d (%s → %s)", n, len(reflowPlan()), b.what, b.room)
	return nil
}

func reflowMonth(ctx context.Context, w *work) (*mcp.CallToolResult, error) {
	plan := reflowPlan()
	var outcome string
	for i, b := range plan {
		n := i + 1
		if n != reflowUnplaced {
			if err := move(ctx, w, n, b); err != nil {
				return nil, err
			}
			continue
		}
		if err := w.checkpoint(ctx); err != nil {
			return nil, err
		}
		res, err := w.ask(ctx, reflowPlaceKey, form(reflowQuestion, reflowSchema()))
		if err != nil {
			return nil, err
		}
		if outcome, err = reflowDecide(w, n, len(plan), res); err != nil {
			return nil, err
		}
	}
	return text("Reflowed the fortnight: %d bookings moved. %s", len(plan)-1, outcome), nil
}

// reflowDecide applies the answer to the question and returns the part of
// the summary that names it.
func reflowDecide(w *work, n, total int, res *mcp.ElicitResult) (string, error) {
	switch res.Action {
	case actionAccept:
		choice := stringField(res.Content, "choice")
		for _, c := range reflowChoices() {
			if c.value == choice {
				w.report("Placed booking %d of %d (%s %s)", n, total, reflowWorkshop, c.done)
				return fmt.Sprintf("The %s: %s (%s).", reflowWorkshop, c.title, c.value), nil
			}
		}
		return "", &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf("the answer chose %q, which is not one of the options", choice)}
	case actionDecline, actionCancel:
		w.report("Left booking %d of %d (%s) unplaced", n, total, reflowWorkshop)
		how := "declined"
		if res.Action == actionCancel {
			how = "dismissed"
		}
		return fmt.Sprintf("The %s was left unplaced (the question was %s); it needs a decision later.", reflowWorkshop, how), nil
	default:
		return "", unknownAction(res.Action)
	}
}

func reflowFail(ctx context.Context, w *work) (*mcp.CallToolResult, error) {
	plan := reflowPlan()
	for i, b := range plan[:3] {
		if err := move(ctx, w, i+1, b); err != nil {
			return nil, err
		}
	}
	return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: fmt.Sprintf(
		"the calendar service refused to move booking 4 of %d (%s): %s is locked for maintenance", len(plan), plan[3].what, plan[3].room)}
}

func reflowIsError(ctx context.Context, w *work) (*mcp.CallToolResult, error) {
	plan := reflowPlan()
	for i, b := range plan[:3] {
		if err := move(ctx, w, i+1, b); err != nil {
			return nil, err
		}
	}
	res := text("Reflow stopped: booking 4 of %d (%s) overlaps the Friday fire drill; the first 3 bookings were moved.", len(plan), plan[3].what)
	res.IsError = true
	return res, nil
}

// reflowStubborn never looks at its cancel flag: it only notices it, to
// say so in the log.
func reflowStubborn(ctx context.Context, w *work) (*mcp.CallToolResult, error) {
	plan := reflowPlan()
	ignored := false
	for i, b := range plan {
		if b.room == "" {
			b.room = "Atrium"
		}
		if err := w.unit(ctx); err != nil {
			return nil, err // shutdown or ttl: those it cannot ignore
		}
		w.report("Moved booking %d of %d (%s → %s)", i+1, len(plan), b.what, b.room)
		if !ignored && w.cancelRequested() {
			ignored = true
			w.store.logger.Info("demo: reflow_stubborn: cancel requested; ignoring it and working on", "task", w.task.id)
		}
	}
	if ignored {
		return text("Reflowed all %d bookings; the cancel request was ignored.", len(plan)), nil
	}
	return text("Reflowed all %d bookings.", len(plan)), nil
}
