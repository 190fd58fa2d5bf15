package wire

// LogLevels are the levels of logging/setLevel and notifications/message,
// RFC 5424's syslog severities, lowest first.
func LogLevels() []string {
	return []string{"debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"}
}
