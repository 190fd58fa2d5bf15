package jsonrpc

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
)

// Version is the only JSON-RPC version MCP uses.
const Version = "2.0"

// Kind tells what a Message is.
type Kind int

// The kinds of message.
const (
	KindInvalid Kind = iota
	KindRequest
	KindNotification
	KindResponse
)

func (k Kind) String() string {
	switch k {
	case KindRequest:
		return "request"
	case KindNotification:
		return "notification"
	case KindResponse:
		return "response"
	default:
		return "invalid"
	}
}

// Message is one JSON-RPC 2.0 message. Which fields are set decides its
// Kind: Method with ID is a request, Method without ID a notification, and
// Result or Error with ID a response. Params and Result are kept as raw
// bytes so that what we forward or log is exactly what crossed the wire.
// It holds only what is on the wire; what a transport knows beside it
// travels in transport.Inbound and transport.WriteOptions.
type Message struct {
	ID     ID
	Method string
	Params json.RawMessage
	Result json.RawMessage
	Error  *Error
}

// Kind classifies the message.
func (m *Message) Kind() Kind {
	switch {
	case m.Method != "" && m.ID.IsValid():
		return KindRequest
	case m.Method != "":
		return KindNotification
	case m.ID.IsValid() && (m.Result != nil || m.Error != nil):
		return KindResponse
	default:
		return KindInvalid
	}
}

// NewRequest builds a request; params are marshalled unless already raw.
// Test and library API: the engine builds its requests itself.
func NewRequest(id ID, method string, params any) (*Message, error) {
	p, err := marshalParams(params)
	if err != nil {
		return nil, fmt.Errorf("jsonrpc: params of %s: %w", method, err)
	}
	return &Message{ID: id, Method: method, Params: p}, nil
}

// NewNotification builds a notification.
func NewNotification(method string, params any) (*Message, error) {
	p, err := marshalParams(params)
	if err != nil {
		return nil, fmt.Errorf("jsonrpc: params of %s: %w", method, err)
	}
	return &Message{Method: method, Params: p}, nil
}

// NewResponse builds a successful response. Test and library API: the
// engine writes its responses itself.
func NewResponse(id ID, result any) (*Message, error) {
	var r json.RawMessage
	switch v := result.(type) {
	case json.RawMessage:
		r = v
	case nil:
		r = json.RawMessage("{}")
	default:
		b, err := json.Marshal(v)
		if err != nil {
			return nil, fmt.Errorf("jsonrpc: result for id %s: %w", id, err)
		}
		r = b
	}
	return &Message{ID: id, Result: r}, nil
}

// NewErrorResponse builds an error response.
func NewErrorResponse(id ID, e *Error) *Message { return &Message{ID: id, Error: e} }

func marshalParams(params any) (json.RawMessage, error) {
	switch v := params.(type) {
	case nil:
		return nil, nil
	case json.RawMessage:
		return v, nil
	default:
		return json.Marshal(v)
	}
}

// wire is the on-the-wire shape used by Encode and Decode.
type wire struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      *ID             `json:"id,omitempty"`
	Method  string          `json:"method,omitempty"`
	Params  json.RawMessage `json:"params,omitempty"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   *Error          `json:"error,omitempty"`
}

// Encode renders m as one line of compact JSON with no trailing newline.
func Encode(m *Message) ([]byte, error) {
	w := wire{JSONRPC: Version, Method: m.Method, Params: m.Params, Result: m.Result, Error: m.Error}
	if m.ID.IsValid() {
		id := m.ID
		w.ID = &id
	}
	if m.Kind() == KindInvalid {
		return nil, errors.New("jsonrpc: encode: message is neither request, notification nor response")
	}
	// No HTML escaping: raw members (params, result) go out byte for byte
	// as the caller built them, which MRTR's requestState echo relies on.
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(w); err != nil {
		return nil, fmt.Errorf("jsonrpc: encode: %w", err)
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// DecodeError is returned by Decode for a frame that is not one valid
// JSON-RPC 2.0 message. A session logs it and goes on; when the frame was
// meant as a response (Kind) and its ID could be recovered, the transports
// also end the call it answers (see transport.Conn).
type DecodeError struct {
	Reason string
	// ID is the request id if one could be recovered, so a reply can name it.
	ID ID
	// Kind is what the frame seems meant as, judged by its members (method:
	// a request or notification; result or error without method: a
	// response), KindInvalid when that cannot be told. For malformed JSON
	// it is judged from the members read before the fault.
	Kind Kind
}

func (e *DecodeError) Error() string { return "jsonrpc: " + e.Reason }

// Decode parses one message. It refuses batches (DecodeFrame splits them), a wrong or missing
// "jsonrpc" member, null ids, and messages that are none of the three kinds.
// Space around the frame and a leading UTF-8 BOM are ignored. A request's
// id is kept exactly (see ID); a response's is read by value
// (ID.Canonical), and refused if it is a number that is no int64.
//
// The message's Params and Result are slices of b, not copies (a result
// may be megabytes, and the frame is kept as it came anyway): b must not
// change afterwards. Their capacity ends with them, so appending to one
// never writes into b.
func Decode(b []byte) (*Message, error) {
	b = trimFrame(b)
	if len(b) == 0 {
		return nil, &DecodeError{Reason: "empty frame"}
	}
	if b[0] == '[' {
		return nil, &DecodeError{Reason: "a batch where one message was expected"}
	}
	if b[0] != '{' {
		return nil, &DecodeError{Reason: "frame is not a JSON object"}
	}
	var raw struct {
		JSONRPC *string         `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Method  *string         `json:"method"`
		Params  rawRef          `json:"params"`
		Result  rawRef          `json:"result"`
		Error   json.RawMessage `json:"error"`
	}
	if err := json.Unmarshal(b, &raw); err != nil {
		id, kind := salvage(b)
		return nil, &DecodeError{Reason: "malformed JSON: " + err.Error(), ID: id, Kind: kind}
	}
	m := &Message{Params: raw.Params.b, Result: raw.Result.b}
	var idErr error
	if raw.ID != nil {
		idErr = m.ID.UnmarshalJSON(raw.ID)
	}
	hasResult := raw.Result.b != nil || raw.Error != nil
	if idErr == nil && raw.Method == nil && hasResult {
		m.ID, idErr = responseID(m.ID)
	}
	kind := memberKind(raw.Method != nil, m.ID.IsValid(), hasResult)
	fail := func(reason string) (*Message, error) {
		return nil, &DecodeError{Reason: reason, ID: m.ID, Kind: kind}
	}
	if raw.JSONRPC == nil || *raw.JSONRPC != Version {
		return fail(`missing or wrong "jsonrpc" member (want "2.0")`)
	}
	if idErr != nil {
		return nil, &DecodeError{Reason: idErr.Error(), Kind: kind}
	}
	if raw.Method != nil {
		if *raw.Method == "" {
			return fail("empty method")
		}
		m.Method = *raw.Method
	}
	if raw.Error != nil && !bytes.Equal(bytes.TrimSpace(raw.Error), []byte("null")) {
		var e Error
		if err := json.Unmarshal(raw.Error, &e); err != nil {
			return fail("malformed error object: " + err.Error())
		}
		m.Error = &e
	}
	if m.Method != "" && (m.Result != nil || m.Error != nil) {
		return fail("message has both method and result/error")
	}
	if m.Method == "" && m.Result != nil && m.Error != nil {
		return fail("response has both result and error")
	}
	if m.Kind() == KindInvalid {
		return fail("message is neither request, notification nor response")
	}
	return m, nil
}

// rawRef is a member's value as a slice of the frame: what json.RawMessage
// is without its copy. json.Unmarshal hands an Unmarshaler a slice of its
// input, which Decode's caller does not change (see Decode).
type rawRef struct{ b json.RawMessage }

// UnmarshalJSON implements json.Unmarshaler.
func (r *rawRef) UnmarshalJSON(data []byte) error {
	r.b = data[:len(data):len(data)]
	return nil
}

// responseID reads a response's id by value (see ID.Canonical): it answers
// one of our requests, so a number that is no int64 is refused.
func responseID(id ID) (ID, error) {
	c, ok := id.Canonical()
	if !ok {
		return ID{}, fmt.Errorf("jsonrpc: response id %s is not an integer, so it answers no request of ours", truncate([]byte(id.String()), 40))
	}
	return c, nil
}

// utf8BOM is the byte order mark some writers (PowerShell, .NET) put
// before what they print; JSON forbids it, but RFC 8259 lets a parser
// ignore it, and a frame refused for it would leave its call waiting.
const utf8BOM = "\xEF\xBB\xBF"

// trimFrame drops the space around a frame and one leading BOM.
func trimFrame(b []byte) []byte {
	b = bytes.TrimSpace(b)
	if bytes.HasPrefix(b, []byte(utf8BOM)) {
		b = bytes.TrimSpace(b[len(utf8BOM):])
	}
	return b
}

// memberKind judges what a frame is meant as from which members it has.
func memberKind(method, id, resultOrError bool) Kind {
	switch {
	case method && id:
		return KindRequest
	case method:
		return KindNotification
	case resultOrError:
		return KindResponse
	}
	return KindInvalid
}

// salvage reads the top-level members of a frame that is not valid JSON
// (or nests deeper than encoding/json allows) up to its first fault, for
// its id and what it seems meant as. It stops as soon as both are known,
// so that the usual order (jsonrpc, id, result) costs a few tokens
// whatever follows; the tokenizer has no nesting limit.
func salvage(b []byte) (ID, Kind) {
	var id ID
	var method, result bool
	dec := json.NewDecoder(bytes.NewReader(b))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return id, KindInvalid
	}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			break
		}
		switch key, _ := t.(string); key {
		case "id":
			var raw json.RawMessage
			if dec.Decode(&raw) != nil {
				return id, memberKind(method, false, result)
			}
			_ = id.UnmarshalJSON(raw) // an invalid id stays unset
			continue
		case "method":
			method = true
		case "result", "error":
			result = true
		}
		if id.IsValid() && (method || result) {
			break // known: the value need not be read
		}
		if skipValue(dec) != nil {
			break
		}
	}
	if !method && result {
		id, _ = responseID(id) // an id no request of ours had stays unset
	}
	return id, memberKind(method, id.IsValid(), result)
}

// skipValue consumes one value of any depth from dec.
func skipValue(dec *json.Decoder) error {
	depth := 0
	for {
		t, err := dec.Token()
		if err != nil {
			return err
		}
		switch t {
		case json.Delim('{'), json.Delim('['):
			depth++
		case json.Delim('}'), json.Delim(']'):
			depth--
		}
		if depth == 0 {
			return nil
		}
	}
}
