// Package record writes and reads elicit's session recordings: a JSONL
// file of every frame both ways, every call a person or a command made,
// every answer a person or a policy gave (with the question it
// answered), and the session's settings, with a version line first. A
// recording is a test a server author keeps in their repository
// (`elicit replay FILE`), so the format is documented (docs/record.md)
// and stable: lines are only ever added to, never changed in meaning.
//
// A Recorder streams: each line goes to the file as it happens, and all
// it keeps in memory are the calls and questions still open. Secrets
// never reach it: the settings carry header and environment variable
// names, never their values, and the caller masks URLs and arguments
// (Server is filled by cmd/elicit as its server view is).
package record
