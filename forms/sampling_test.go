package forms

import (
	"strings"
	"testing"
)

func weatherRequest(t *testing.T, choice string) *SamplingRequest {
	max, temp, speed := 64.0, 0.25, 0.8
	return &SamplingRequest{
		Messages: []SamplingMessage{
			{Role: "user", Blocks: []SamplingBlock{{Type: "text", Text: "Weather in Paris?\nline 2\nline 3\nline 4\nline 5"}, {Type: "image", MimeType: "image/png", Size: 4, SaveKey: "s"}}},
			{Role: "assistant", Blocks: []SamplingBlock{{Type: "tool_use", ID: "c1", Name: "get_weather", Input: `{"city":"Oslo"}`}}},
			{Role: "user", Blocks: []SamplingBlock{{Type: "tool_result", ToolUseID: "c1", Content: []SamplingBlock{{Type: "text", Text: "rain \x1b[31m"}}}}},
		},
		SystemPrompt: "You are terse.", MaxTokens: &max, Temperature: &temp, StopSequences: []string{"END"},
		ModelHints: []string{"claude"}, SpeedPriority: &speed,
		Tools:      []SamplingTool{{Name: "get_weather", Description: "weather for a city", Input: parseTool(t, `{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}`)}},
		ToolChoice: choice,
	}
}

// TestSamplingFormShowsTheRequest: every part of the request is on screen,
// sanitized, with long text cut.
func TestSamplingFormShowsTheRequest(t *testing.T) {
	t.Parallel()
	d := drive(t, NewSampling(weatherRequest(t, "auto"), "claude", Options{}), 100)
	d.mustShow("system: You are terse.", "user: Weather in Paris?", "(1 more lines)", "[image image/png, 4 B] s saves it",
		`[tool_use get_weather c1] {"city":"Oslo"}`, "[tool_result for c1]", "rain",
		"hints claude · speed 0.8", "maxTokens 64 · temperature 0.25", `stop at "END"`, "tools: get_weather (toolChoice auto)",
		"Reply", "Model", "Stop reason", "Use a tool")
	if strings.Contains(d.screen(), "\x1b[31m") || strings.Contains(d.f.View(), "\x1b[31m") {
		t.Error("a server's escape sequence reached the screen")
	}
}

// TestSamplingFormTextReply: a text reply, model and stop reason.
func TestSamplingFormTextReply(t *testing.T) {
	t.Parallel()
	f := NewSampling(weatherRequest(t, "auto"), "claude", Options{})
	d := drive(t, f, 100)
	d.typeText("Rainy.")
	d.key("enter") // reply -> model (pre-filled)
	d.key("enter") // model -> stop reason
	d.key("down")  // stopSequence
	d.key("enter") // -> tool
	d.key("enter") // (none): done
	if !f.Submitted() {
		t.Fatalf("not submitted; focus %q\n%s", d.focused(), d.screen())
	}
	c, err := f.Content()
	if err != nil {
		t.Fatal(err)
	}
	text, model, stop, tool, _ := SamplingAnswer(c)
	if text != "Rainy." || model != "claude" || stop != "stopSequence" || tool != "" {
		t.Errorf("answer %q %q %q %q", text, model, stop, tool)
	}
}

// TestSamplingFormToolUse: picking a tool opens its input page, built by
// the tool-argument fields and checked against its schema.
func TestSamplingFormToolUse(t *testing.T) {
	t.Parallel()
	f := NewSampling(weatherRequest(t, "required"), "claude", Options{})
	d := drive(t, f, 100)
	d.key("enter", "enter")       // no text; model kept
	d.key("down", "down", "down") // toolUse
	d.key("enter")
	d.key("down") // (choose one) -> get_weather
	d.key("enter")
	d.mustShow("Input for get_weather", "weather for a city", "city")
	if d.focused() != "city" {
		t.Fatalf("focus %q\n%s", d.focused(), d.screen())
	}
	d.typeText("Paris")
	d.key("enter")
	if !f.Submitted() {
		t.Fatalf("not submitted\n%s", d.screen())
	}
	c, _ := f.Content()
	text, _, stop, tool, input := SamplingAnswer(c)
	if text != "" || stop != "toolUse" || tool != "get_weather" || input["city"] != "Paris" {
		t.Errorf("answer %q %q %q %v", text, stop, tool, input)
	}
}

// TestSamplingFormRefusesEmpty: no text and no tool is not an answer.
func TestSamplingFormRefusesEmpty(t *testing.T) {
	t.Parallel()
	f := NewSampling(weatherRequest(t, "auto"), "claude", Options{})
	d := drive(t, f, 100)
	d.key("enter", "enter", "enter", "enter")
	if f.Submitted() {
		t.Fatal("an empty reply was submitted")
	}
	d.mustShow("Not sent: write a reply, or use a tool")
}
