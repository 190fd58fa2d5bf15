// Package jsontext says what is wrong with JSON a person typed or wrote
// (--args, a config file): where decoding stopped, as line and column
// (Where, Err), and what a value is (Kind), for a message that lets them
// find the slip.
package jsontext
