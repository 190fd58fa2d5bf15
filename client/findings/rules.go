package findings

import "strings"

// Severity is how bad a finding is: an error breaks a MUST of the spec, a
// warning a SHOULD.
type Severity int

// The severities. The zero value is Warning: a rule that forgot to say is
// not taken for a MUST.
const (
	Warning Severity = iota
	Error
)

func (s Severity) String() string {
	if s == Error {
		return "error"
	}
	return "warning"
}

// MarshalText writes the severity as its name.
func (s Severity) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// UnmarshalText reads "error" or "warning".
func (s *Severity) UnmarshalText(b []byte) error {
	*s = Warning
	if strings.EqualFold(string(b), "error") {
		*s = Error
	}
	return nil
}

// Rule is one entry of the catalogue: what the spec asks of a server.
type Rule struct {
	ID       string
	Severity Severity
	// Versions are the spec versions whose text the rule cites.
	Versions []string
	// Section is the page and heading of the spec text, as
	// modelcontextprotocol.io/specification/<version>/<Section> has it.
	Section string
	// Title says what the server did, in a few words.
	Title string
	// Fix is one line on how to fix the server.
	Fix string
}

// The versions rules cite.
const (
	v1125 = "2025-11-25"
	v0728 = "2026-07-28"
)

var both = []string{v1125, v0728}

// The rule ids. They are stable: scripts and CI match on them.
const (
	ElicitSchemaSubset      = "elicitation-schema-subset"
	ElicitFormSecret        = "elicitation-form-secret"
	ElicitParams            = "elicitation-params"
	ElicitUnrelated         = "elicitation-unrelated"
	CapabilityUndeclared    = "capability-undeclared"
	ServerRequestStateless  = "server-request-stateless"
	BeforeInitialized       = "lifecycle-before-initialized"
	OutputSchema            = "tools-output-schema"
	OutputMissing           = "tools-structured-content-missing"
	ToolNameDuplicate       = "tools-name-duplicate"
	ToolNameInvalid         = "tools-name-invalid"
	MembersRequired         = "members-required"
	ResultMalformed         = "result-malformed"
	TaskTransition          = "tasks-status-transition"
	TaskCancelNotCancelled  = "tasks-cancel-not-cancelled"
	TaskCancelIgnored       = "tasks-cancel-ignored"
	UnknownResponseID       = "jsonrpc-unknown-response-id"
	DuplicateResponse       = "jsonrpc-duplicate-response"
	DuplicateRequestID      = "jsonrpc-duplicate-request-id"
	JSONRPCShape            = "jsonrpc-shape"
	RepeatedCursor          = "pagination-repeated-cursor"
	ProgressUnknownToken    = "progress-unknown-token"
	ListChangedUndeclared   = "capability-list-changed"
	LoggingUndeclared       = "capability-logging"
	SubscribeUndeclared     = "capability-resources-subscribe"
	ResultTypeMissing       = "result-type-missing"
	ResultTypeInvalid       = "result-type-invalid"
	InputRequiredMethod     = "mrtr-method"
	RequestStateType        = "mrtr-request-state"
	DiscoverResult          = "discover-result"
	HeaderAnnotation        = "headers-x-mcp-header"
	CancelledStateless      = "cancelled-stateless"
	SubscriptionUnrequested = "subscription-unrequested"

	// The host's, between a host and a server (elicit proxy; Party host).
	HostAnswerUnasked    = "host-answer-unasked"
	HostElicitUndeclared = "host-elicitation-undeclared"
	HostReplyShape       = "host-reply-shape"
)

// Rules returns the catalogue, in the order docs/findings.md lists it. It
// is built on each call: the package keeps no state.
func Rules() []Rule {
	return []Rule{
		{ElicitSchemaSubset, Error, both, "client/elicitation#requested-schema",
			"elicitation requestedSchema outside the elicitation subset",
			"Keep requestedSchema a flat object of string, number, integer, boolean and enum properties: no nesting, $ref, combinators or keywords the subset lacks."},
		{ElicitFormSecret, Error, both, "client/elicitation#safe-url-mode-elicitation-requests",
			"form-mode elicitation asks for a secret (password, token, API key, payment credential)",
			"Ask for credentials through URL mode (mode \"url\"), where the person types them into your own page, never into a form field."},
		{ElicitParams, Error, both, "client/elicitation#protocol-messages",
			"malformed elicitation params",
			"Send params with a message, mode \"form\" (with requestedSchema) or \"url\" (with an absolute url), as the schema defines ElicitRequestParams."},
		{ElicitUnrelated, Warning, []string{v1125}, "basic/transports#sending-messages-to-the-server",
			"elicitation/create not tied to any request of the client",
			"Ask only while handling a client request (on its response stream, or with related-task _meta for a task); SEP-2260 forbids standalone server requests."},
		{CapabilityUndeclared, Error, both, "basic/lifecycle#capability-negotiation",
			"server request for a client capability the client did not declare",
			"Read the client's capabilities (initialize params, or _meta clientCapabilities in 2026-07-28) and send sampling, roots or an elicitation mode only when declared."},
		{ServerRequestStateless, Error, []string{v0728}, "basic/transports/stdio",
			"server sent a JSON-RPC request in 2026-07-28",
			"In 2026-07-28 servers send no requests: return an InputRequiredResult (resultType \"input_required\") with inputRequests instead."},
		{BeforeInitialized, Warning, []string{v1125}, "basic/lifecycle#initialization",
			"server message before initialization completed",
			"Before notifications/initialized arrives, send nothing but the initialize response, pings and log messages."},
		{OutputSchema, Error, both, "server/tools#output-schema",
			"tool result does not conform to its outputSchema",
			"Make structuredContent validate against the tool's outputSchema, or change the schema to what the tool returns."},
		{OutputMissing, Error, both, "server/tools#output-schema",
			"tool with an outputSchema returned no structuredContent",
			"A tool that declares outputSchema must return structuredContent on every successful result."},
		{ToolNameDuplicate, Warning, both, "server/tools#tool-names",
			"two tools share a name",
			"Give each tool a name unique within the server; clients call tools by name."},
		{ToolNameInvalid, Warning, both, "server/tools#tool-names",
			"tool name outside 1-128 characters of A-Z a-z 0-9 _ - .",
			"Use 1 to 128 characters of letters, digits, underscore, hyphen and dot, without spaces."},
		{MembersRequired, Error, both, "basic#messages",
			"a required member is missing",
			"Send every member the schema marks required (see schema.ts for the message named)."},
		{ResultMalformed, Error, both, "basic#responses",
			"a result member has the wrong type",
			"Send each result member with the type schema.ts gives it."},
		{TaskTransition, Error, []string{v1125, "io.modelcontextprotocol/tasks"}, "basic/utilities/tasks#task-status-lifecycle",
			"task status changed in a way the spec does not allow",
			"A terminal task (completed, failed, cancelled) must never change status again."},
		{TaskCancelNotCancelled, Error, []string{v1125}, "basic/utilities/tasks#cancelling-tasks",
			"task not cancelled after a successful tasks/cancel",
			"Move the task to cancelled before answering tasks/cancel, and keep it cancelled even if the work finishes."},
		{TaskCancelIgnored, Warning, []string{"io.modelcontextprotocol/tasks"}, "extensions/tasks#cancellation",
			"task still working long after tasks/cancel",
			"Stop the work on tasks/cancel and move the task to cancelled (or to its real end) soon after."},
		{UnknownResponseID, Error, both, "basic#responses",
			"response to an id the client never sent",
			"Answer each request with its own id, exactly once; never invent response ids."},
		{DuplicateResponse, Error, both, "basic#responses",
			"a second response to a request already answered",
			"Send exactly one response per request."},
		{DuplicateRequestID, Error, both, "basic#requests",
			"request id reused while the first request is still open",
			"Give every request an id the server has not used for a request still in flight (in 2025-11-25: never reused in the session)."},
		{JSONRPCShape, Error, both, "basic#messages",
			"frame is not a valid JSON-RPC 2.0 message",
			"Write one JSON object per message with \"jsonrpc\":\"2.0\", a string or integer id (never null) on requests and responses, and either result or error."},
		{RepeatedCursor, Warning, both, "server/utilities/pagination#pagination-model",
			"pagination returned a cursor it had returned before",
			"Give each page a fresh nextCursor and omit it on the last page; a repeated cursor makes clients loop."},
		{ProgressUnknownToken, Error, both, "basic/utilities/progress#progress-flow",
			"progress for a token the client never sent",
			"Send notifications/progress only with the progressToken of an active request of the client."},
		{ListChangedUndeclared, Error, both, "basic/lifecycle#capability-negotiation",
			"list_changed notification without the listChanged capability",
			"Declare listChanged for tools, resources or prompts before sending their list_changed notifications."},
		{LoggingUndeclared, Error, both, "server/utilities/logging#capabilities",
			"notifications/message without the logging capability",
			"Declare \"logging\": {} in the server's capabilities before sending log messages."},
		{SubscribeUndeclared, Error, []string{v1125}, "server/resources#subscriptions",
			"notifications/resources/updated without the subscribe capability",
			"Declare resources.subscribe, and send resources/updated only for resources the client subscribed to."},
		{ResultTypeMissing, Error, []string{v0728}, "basic#result-type",
			"2026-07-28 result without resultType",
			"Put \"resultType\" (\"complete\", \"input_required\" or, with the tasks extension, \"task\") on every result."},
		{ResultTypeInvalid, Error, []string{v0728}, "basic#result-type",
			"resultType the request does not allow",
			"Use \"complete\" or \"input_required\", and \"task\" only on tools/call to a client that declared the tasks extension."},
		{InputRequiredMethod, Error, []string{v0728}, "basic/patterns/mrtr",
			"input_required on a method that may not return it",
			"Return InputRequiredResult only to tools/call, prompts/get and resources/read."},
		{RequestStateType, Error, []string{v0728}, "basic/patterns/mrtr",
			"requestState is not a string",
			"Send requestState as an opaque string (the client echoes it byte for byte); put structure inside it, encoded."},
		{DiscoverResult, Error, []string{v0728}, "server/discover",
			"server/discover result is incomplete",
			"Answer server/discover with resultType, supportedVersions (listing the versions you speak) and capabilities."},
		{HeaderAnnotation, Error, []string{v0728}, "basic/transports/streamable-http#custom-headers-from-tool-parameters",
			"invalid x-mcp-header annotation in a tool's inputSchema",
			"Put x-mcp-header only on top-level primitive properties, with a header-safe name unique within the tool."},
		{CancelledStateless, Error, []string{v0728}, "basic/patterns/cancellation",
			"notifications/cancelled from the server for something but a subscription",
			"In 2026-07-28 a server sends notifications/cancelled only to end a subscriptions/listen stream."},
		{SubscriptionUnrequested, Error, []string{v0728}, "basic/patterns/subscriptions",
			"notification the subscription did not ask for",
			"Send on a subscriptions/listen stream only the notification types the client asked for and the acknowledgement agreed to."},
		{HostAnswerUnasked, Error, both, "basic#responses",
			"the host answered a request the server never sent it",
			"(The host's.) Answer only the requests you were sent, each once, under its own id."},
		{HostElicitUndeclared, Error, []string{v1125}, "client/elicitation#capabilities",
			"the host answered an elicitation of a mode it did not declare",
			"(The host's.) Declare elicitation, with each mode you support (form, url), in initialize's capabilities; refuse a mode you did not declare with -32602."},
		{HostReplyShape, Error, both, "client/elicitation#response-actions",
			"the host's answer to an elicitation is malformed",
			"(The host's.) Answer elicitation/create with action \"accept\", \"decline\" or \"cancel\", and content (an object) only with accept."},
	}
}

// Lookup returns the rule with id.
func Lookup(id string) (Rule, bool) {
	for _, r := range Rules() {
		if r.ID == id {
			return r, true
		}
	}
	return Rule{}, false
}
