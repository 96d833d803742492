// Package hermes is the Go binding of hermes, the embeddable agent runtime: the
// tool-calling conversation loop with error recovery, context compression and a session
// store.
//
// It wraps the C ABI (hermes_c.h) with cgo. Agents and tool registries are handles with
// Close (a finalizer is only a safety net); failures are *Error values carrying the
// library's status code, comparable with errors.Is against ErrInvalidArgument and the
// other sentinels; tools and callbacks are Go functions, and a panic in one is recovered
// before it can cross into C (a panicking tool gives the model an error result).
//
// The library is found with pkg-config (module hermes_agent_c): set PKG_CONFIG_PATH to the
// installed lib/pkgconfig, or to <build>/pkgconfig for a CMake build tree. Build with
// -tags hermes_no_pkgconfig to pass CGO_CFLAGS and CGO_LDFLAGS yourself instead.
package hermes
