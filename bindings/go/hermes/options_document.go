package hermes

// #include <stdlib.h>
// #include "callbacks.h"
import "C"

import "unsafe"

// WithOptionsJSON sets the options an options document names, e.g.
// {"provider": {"model": "gpt-4.1-mini"}, "compression": {"threshold_percent": 0.7}}, nested as
// DescribeOptions lists them, durations in seconds. The whole document is checked
// first: an unknown key or a bad value makes NewAgent fail with an error naming the
// option. Options after it in NewAgent's list override what it sets.
func WithOptionsJSON(document string) Option {
	return func(o *options) error {
		text, err := cString("options", document)
		if err != nil {
			return err
		}
		defer C.free(unsafe.Pointer(text))
		var cerr *C.hermes_error_t
		return errorFrom(C.hermes_agent_options_set_json(o.ptr, text, &cerr), cerr)
	}
}

// OptionsJSON applies opts as NewAgent would and returns every option of the options
// document with the value they give it (API keys included: treat it as a secret).
func OptionsJSON(opts ...Option) (string, error) {
	if err := ensureABICompatible(); err != nil {
		return "", err
	}
	o := &options{ptr: C.hermes_agent_options_new()}
	if o.ptr == nil {
		return "", &Error{Code: StatusResourceExhausted, Message: "agent options: out of memory"}
	}
	defer C.hermes_agent_options_freep(&o.ptr)
	for _, opt := range opts {
		if err := opt(o); err != nil {
			return "", err
		}
	}
	var out *C.char
	var cerr *C.hermes_error_t
	if err := errorFrom(C.hermes_agent_options_get_json(o.ptr, &out, &cerr), cerr); err != nil {
		return "", err
	}
	return takeString(out), nil
}

// DescribeOptions returns every option the options document takes, as a JSON array of
// {"name": "compression.threshold_percent", "type": "number", "default": 0.5,
// "doc": "..."} (with "minimum", "maximum" and "values" where they apply).
func DescribeOptions() (string, error) {
	var out *C.char
	var cerr *C.hermes_error_t
	if err := errorFrom(C.hermes_agent_options_describe(&out, &cerr), cerr); err != nil {
		return "", err
	}
	return takeString(out), nil
}
