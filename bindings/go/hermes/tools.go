package hermes

// #include <stdlib.h>
// #include "callbacks.h"
import "C"

import (
	"runtime"
	"sync"
)

// Tool describes a tool the model may call.
type Tool struct {
	Name        string // Letters, digits, '_' and '-'.
	Toolset     string // "" puts the tool in the "custom" toolset.
	Description string // What the tool does, for the model.
	// The JSON Schema (an object) of the arguments, as JSON text; "" for none.
	Parameters string
	// The tool may run at the same time as other calls of the same model response, so
	// its handler may run on several goroutines at once.
	ParallelSafe bool
	// The tool needs the user: it always runs alone.
	Interactive bool
}

// ToolHandler runs one call of a tool. It returns the result text (normally JSON) for
// the model, or an error, which the model receives as {"error": <err.Error()>}. It runs
// on a thread of the library; a panic is recovered and becomes an error result.
type ToolHandler func(call *ToolCall) (string, error)

// ToolCall is one running call of a tool, valid only while its handler runs.
type ToolCall struct {
	call *C.hermes_tool_call_t
}

// Name is the tool's name.
func (c *ToolCall) Name() string { return C.GoString(C.hermes_tool_call_name(c.call)) }

// ID is the id the model gave this call.
func (c *ToolCall) ID() string { return C.GoString(C.hermes_tool_call_id(c.call)) }

// Arguments is the arguments as JSON text (an object).
func (c *ToolCall) Arguments() string { return C.GoString(C.hermes_tool_call_arguments(c.call)) }

// SessionID is the session the call belongs to.
func (c *ToolCall) SessionID() string { return C.GoString(C.hermes_tool_call_session_id(c.call)) }

// Cancelled reports whether the turn was interrupted: a long-running handler should stop.
func (c *ToolCall) Cancelled() bool { return C.hermes_tool_call_cancelled(c.call) != 0 }

// ToolRegistry is a set of tools to give agents (WithTools). Agents share it: it may be
// closed once given to NewAgent, and tools added later are seen by every agent using
// it. Handlers are released when the last user of the registry goes. Safe for
// concurrent use.
type ToolRegistry struct {
	mu  sync.Mutex
	ptr *C.hermes_tool_registry_t
}

// NewToolRegistry makes an empty registry.
func NewToolRegistry() (*ToolRegistry, error) {
	if err := ensureABICompatible(); err != nil {
		return nil, err
	}
	r := &ToolRegistry{ptr: C.hermes_tool_registry_new()}
	if r.ptr == nil {
		return nil, &Error{Code: StatusResourceExhausted, Message: "tool registry: out of memory"}
	}
	runtime.SetFinalizer(r, (*ToolRegistry).Close)
	return r, nil
}

// Add adds a tool; a tool of the same name in the same toolset is replaced.
// InvalidArgument names a bad name or a schema that is not a JSON object;
// AlreadyExists means another toolset holds the name.
func (r *ToolRegistry) Add(tool Tool, handler ToolHandler) error {
	if handler == nil {
		return &Error{Code: StatusInvalidArgument, Message: "handler: nil"}
	}
	var strs cStrings
	defer strs.free()
	name, err := strs.add("name", tool.Name, false)
	if err != nil {
		return err
	}
	toolset, err := strs.add("toolset", tool.Toolset, true)
	if err != nil {
		return err
	}
	description, err := strs.add("description", tool.Description, false)
	if err != nil {
		return err
	}
	parameters, err := strs.add("parameters", tool.Parameters, true)
	if err != nil {
		return err
	}
	var flags C.uint32_t
	if tool.ParallelSafe {
		flags |= C.HERMES_TOOL_PARALLEL_SAFE
	}
	if tool.Interactive {
		flags |= C.HERMES_TOOL_INTERACTIVE
	}

	r.mu.Lock()
	defer r.mu.Unlock()
	if r.ptr == nil {
		return errClosed("tool registry")
	}
	userData := newUserData(handler)
	var cerr *C.hermes_error_t
	status := C.hermes_tool_registry_add(r.ptr, name, toolset, description, parameters, flags,
		C.hermes_tool_handler_fn(C.hermes_go_run_tool), userData,
		C.hermes_destroy_fn(C.hermes_go_release), &cerr)
	if status != C.HERMES_OK {
		releaseUserData(userData) // Refused: the registry did not take it.
	}
	return errorFrom(status, cerr)
}

// Close releases the registry (agents and options using it keep their share). Closing
// twice is harmless.
func (r *ToolRegistry) Close() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	C.hermes_tool_registry_freep(&r.ptr)
	runtime.SetFinalizer(r, nil)
	return nil
}

// use runs f with the C registry while it cannot be closed.
func (r *ToolRegistry) use(f func(*C.hermes_tool_registry_t) error) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.ptr == nil {
		return errClosed("tool registry")
	}
	return f(r.ptr)
}

func errClosed(what string) error {
	return &Error{Code: StatusFailedPrecondition, Message: what + ": closed"}
}
