package ui

import (
	"errors"
	"fmt"
	"os/exec"
	"runtime"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/elicit-dev/elicit/client/question"
)

// urlOpenedMsg reports the browser launch of a URL pane.
type urlOpenedMsg struct {
	id  int
	err error
}

// urlKey handles keys of an open URL-mode pane. The link is opened only on
// an explicit key and never fetched; accepting gives consent.
func urlKey(c *viewCtx, pn *pane, k tea.KeyPressMsg) tea.Cmd {
	switch {
	case key.Matches(k, c.keys.Consent):
		pn.answer(question.Outcome{Kind: question.Accept})
	case key.Matches(k, c.keys.OpenURL) && pn.url.ok:
		open, url, id := c.opts.OpenURL, pn.p.URL, pn.id
		pn.note = "opening in the browser…"
		return func() tea.Msg { return urlOpenedMsg{id: id, err: open(url)} }
	case key.Matches(k, c.keys.CopyURL) && pn.url.ok:
		pn.note = "copied to the clipboard (OSC 52; the terminal must allow it)"
		return tea.SetClipboard(pn.p.URL)
	}
	return nil
}

// openInBrowser hands url to the system browser. The URL is passed as one
// argument, never through a shell.
func openInBrowser(url string) error {
	var cmd *exec.Cmd
	switch runtime.GOOS {
	case "darwin":
		cmd = exec.Command("open", url)
	case "windows":
		cmd = exec.Command("rundll32", "url.dll,FileProtocolHandler", url)
	default:
		cmd = exec.Command("xdg-open", url)
	}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("starting %s: %w", cmd.Path, err)
	}
	if err := cmd.Wait(); err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return fmt.Errorf("%s exited with %d", cmd.Path, ee.ExitCode())
		}
		return fmt.Errorf("waiting for %s: %w", cmd.Path, err)
	}
	return nil
}
