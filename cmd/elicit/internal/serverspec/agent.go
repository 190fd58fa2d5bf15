package serverspec

import "strings"

// Agent is an ACP agent the TUI runs: a command on stdio (elicit acp
// -- AGENT ARGS…, a config entry of "type": "acp", or the demo agent).
type Agent struct {
	Name    string
	Command string
	Args    []string
	Env     []string
	// Dir is where the agent runs and the session's cwd ("" is elicit's
	// working directory).
	Dir string
	// Broken, when set, is why this agent of a config is not started (a
	// variable it names is not set): it shows failed with it.
	Broken error
	// written is its command, args and cwd as its config wrote them, when
	// a ${VAR} was expanded in them (nil: they are what was written).
	written *writtenLaunch
	// secrets are as a Server's.
	secrets []string
}

// SecretValues are the agent's secrets for the run's set: its secret
// arguments and environment values, and its config's.
func (a Agent) SecretValues() []string {
	return append(append(ArgSecrets(a.Args), envSecrets(a.Env)...), a.secrets...)
}

// Shown is s as it may be shown or recorded (Server.Shown).
func (s Agent) Shown() Agent {
	l := shownLaunch(launch{Command: s.Command, Args: s.Args, Dir: s.Dir}, s.written)
	s.Command, s.Args, s.Dir = l.Command, l.Args, l.Dir
	return s
}

// Describe is the agent as a person is shown it: its command line as
// written.
func (s Agent) Describe() string {
	s = s.Shown()
	return strings.Join(append([]string{s.Command}, s.Args...), " ")
}
