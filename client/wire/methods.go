package wire

// The MCP methods elicit sends or serves, by era where it matters. Requests
// and notifications are told apart by their prefix on the wire; here by name.
const (
	// Lifecycle (2025-11-25 and older; 2026-07-28 has no handshake).
	MethodInitialize = "initialize"
	MethodPing       = "ping"
	// MethodDiscover is 2026-07-28's server/discover (also our era probe).
	MethodDiscover = "server/discover"

	MethodToolsList              = "tools/list"
	MethodToolsCall              = "tools/call"
	MethodResourcesList          = "resources/list"
	MethodResourcesRead          = "resources/read"
	MethodResourcesTemplatesList = "resources/templates/list"
	MethodResourcesSubscribe     = "resources/subscribe"
	MethodResourcesUnsubscribe   = "resources/unsubscribe"
	MethodPromptsList            = "prompts/list"
	MethodPromptsGet             = "prompts/get"
	MethodLoggingSetLevel        = "logging/setLevel"
	MethodSubscriptionsListen    = "subscriptions/listen"
	MethodCompletionComplete     = "completion/complete"
	// The skills extension's (SEP-2640): resources/directory/read only
	// when the server declared directoryRead: true.
	MethodSkillsList             = "skills/list"
	MethodSkillsGet              = "skills/get"
	MethodResourcesDirectoryRead = "resources/directory/read"

	// Tasks: 2025-11-25 core tasks and the 2026-07-28 extension
	// (tasks/update is the extension's only).
	MethodTasksGet    = "tasks/get"
	MethodTasksResult = "tasks/result"
	MethodTasksList   = "tasks/list"
	MethodTasksCancel = "tasks/cancel"
	MethodTasksUpdate = "tasks/update"

	// Requests a server sends the client.
	MethodElicit        = "elicitation/create"
	MethodCreateMessage = "sampling/createMessage"
	MethodRootsList     = "roots/list"
)

// Notifications.
const (
	// NotifyRootsListChanged is ours to send (stateful era only).
	NotifyRootsListChanged = "notifications/roots/list_changed"

	NotifyInitialized               = "notifications/initialized"
	NotifyCancelled                 = "notifications/cancelled"
	NotifyProgress                  = "notifications/progress"
	NotifyMessage                   = "notifications/message"
	NotifyToolsListChanged          = "notifications/tools/list_changed"
	NotifyResourcesListChanged      = "notifications/resources/list_changed"
	NotifyPromptsListChanged        = "notifications/prompts/list_changed"
	NotifyResourcesUpdated          = "notifications/resources/updated"
	NotifySubscriptionsAcknowledged = "notifications/subscriptions/acknowledged"
	// NotifyTaskStatus is 2025-11-25's; NotifyTasks the extension's (on a
	// subscriptions/listen stream).
	NotifyTaskStatus = "notifications/tasks/status"
	NotifyTasks      = "notifications/tasks"
	// NotifyElicitationComplete is 2025-11-25's word that a URL
	// elicitation finished out of band (removed in 2026-07-28).
	NotifyElicitationComplete = "notifications/elicitation/complete"
)
