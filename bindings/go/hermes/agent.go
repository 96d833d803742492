package hermes

// #include <stdlib.h>
// #include "hermes_c.h"
import "C"

import (
	"encoding/json"
	"runtime"
	"sync"
	"sync/atomic"
	"unsafe"
)

// Agent is one conversation with a model and its tools.
//
// Safe for concurrent use: turns (Chat, RunConversation) run one at a time (a second
// caller waits), while Interrupt and Steer may be called from any goroutine during a
// turn. Close interrupts a running turn and waits for it to end. A tool handler or
// callback must not call Chat, RunConversation, SessionID or Close on the agent running
// it (ToolCall.SessionID has the session): that waits forever.
//
// A turn started with RunTurnAsync runs after the call has returned. Until it ends the
// agent takes only Interrupt, Steer and Close: another RunTurnAsync, Chat,
// RunConversation and SessionID fail at once with ErrFailedPrecondition ("agent_busy"),
// and so does RunTurnAsync while a synchronous turn runs.
type Agent struct {
	turn         sync.Mutex   // Serialises turns.
	life         sync.RWMutex // Held for reading by every call, for writing by Close.
	ptr          *C.hermes_agent_t
	asyncRunning atomic.Bool // Set while a turn started with RunTurnAsync runs.
}

// NewAgent creates an agent. InvalidArgument names a missing or malformed option.
func NewAgent(opts ...Option) (*Agent, error) {
	if err := ensureABICompatible(); err != nil {
		return nil, err
	}
	o := &options{ptr: C.hermes_agent_options_new()}
	if o.ptr == nil {
		return nil, &Error{Code: StatusResourceExhausted, Message: "agent options: out of memory"}
	}
	// The agent copies what it needs; callbacks stay alive through its share.
	defer C.hermes_agent_options_freep(&o.ptr)
	for _, opt := range opts {
		if err := opt(o); err != nil {
			return nil, err
		}
	}
	a := &Agent{}
	var cerr *C.hermes_error_t
	if err := errorFrom(C.hermes_agent_new(o.ptr, &a.ptr, &cerr), cerr); err != nil {
		return nil, err
	}
	runtime.SetFinalizer(a, (*Agent).Close)
	return a, nil
}

// Chat runs one turn and returns the model's final answer. A turn that could not
// complete (the provider failed, the turn was interrupted) is an error.
func (a *Agent) Chat(message string) (string, error) {
	text, err := cString("message", message)
	if err != nil {
		return "", err
	}
	defer C.free(unsafe.Pointer(text))
	var answer *C.char
	err = a.runTurn(func(agent *C.hermes_agent_t, cerr **C.hermes_error_t) C.hermes_status_t {
		return C.hermes_agent_chat(agent, text, &answer, cerr)
	})
	return takeString(answer), err
}

// ConversationResult is the outcome of RunConversation. Raw holds the whole object,
// with every key the library sets.
type ConversationResult struct {
	FinalResponse string           `json:"final_response"`
	Messages      []map[string]any `json:"messages"`
	APICalls      int              `json:"api_calls"`
	Completed     bool             `json:"completed"`
	Interrupted   bool             `json:"interrupted"`
	ExitReason    string           `json:"exit_reason"`
	SessionID     string           `json:"session_id"`
	InputTokens   int64            `json:"input_tokens"`
	OutputTokens  int64            `json:"output_tokens"`
	Error         string           `json:"error"`
	Raw           json.RawMessage  `json:"-"`
}

// RunOption configures RunConversation.
type RunOption func(*runConfig)

type runConfig struct {
	system, history, taskID string
}

// WithSystemMessage sets a system message for this turn.
func WithSystemMessage(text string) RunOption { return func(c *runConfig) { c.system = text } }

// WithHistoryJSON replaces the agent's history with a JSON list of messages.
func WithHistoryJSON(messages string) RunOption { return func(c *runConfig) { c.history = messages } }

// WithTaskID groups the turn's tool calls under an id (e.g. for sandboxes).
func WithTaskID(id string) RunOption { return func(c *runConfig) { c.taskID = id } }

// RunConversation runs one turn and returns its result. A turn that failed is not an
// error: the result says "completed": false and why. InvalidArgument names history
// JSON that does not parse.
func (a *Agent) RunConversation(message string, opts ...RunOption) (*ConversationResult, error) {
	var cfg runConfig
	for _, opt := range opts {
		opt(&cfg)
	}
	var strs cStrings
	defer strs.free()
	text, err := strs.add("message", message, false)
	if err != nil {
		return nil, err
	}
	system, err := strs.add("system_message", cfg.system, true)
	if err != nil {
		return nil, err
	}
	history, err := strs.add("history_json", cfg.history, true)
	if err != nil {
		return nil, err
	}
	taskID, err := strs.add("task_id", cfg.taskID, true)
	if err != nil {
		return nil, err
	}
	var resultJSON *C.char
	err = a.runTurn(func(agent *C.hermes_agent_t, cerr **C.hermes_error_t) C.hermes_status_t {
		return C.hermes_agent_run_conversation(agent, text, system, history, taskID, &resultJSON, cerr)
	})
	raw := takeString(resultJSON)
	if err != nil {
		return nil, err
	}
	return parseResult(raw)
}

// parseResult reads the result object of a turn.
func parseResult(raw string) (*ConversationResult, error) {
	result := &ConversationResult{Raw: json.RawMessage(raw)}
	if err := json.Unmarshal(result.Raw, result); err != nil {
		return nil, &Error{Code: StatusInternal, Message: "result: " + err.Error()}
	}
	return result, nil
}

// Interrupt asks the running turn (if any) to stop as soon as it can.
func (a *Agent) Interrupt(message string) {
	text := C.CString(sanitize(message))
	defer C.free(unsafe.Pointer(text))
	a.life.RLock()
	defer a.life.RUnlock()
	if a.ptr != nil {
		C.hermes_agent_interrupt(a.ptr, text)
	}
}

// Steer adds guidance the running turn picks up at its next step.
func (a *Agent) Steer(guidance string) error {
	text, err := cString("text", guidance)
	if err != nil {
		return err
	}
	defer C.free(unsafe.Pointer(text))
	a.life.RLock()
	defer a.life.RUnlock()
	if a.ptr == nil {
		return errClosed("agent")
	}
	var cerr *C.hermes_error_t
	return errorFrom(C.hermes_agent_steer(a.ptr, text, &cerr), cerr)
}

// SessionID is the id of the current session.
func (a *Agent) SessionID() (string, error) {
	var id *C.char
	err := a.runTurn(func(agent *C.hermes_agent_t, cerr **C.hermes_error_t) C.hermes_status_t {
		return C.hermes_agent_session_id(agent, &id, cerr)
	})
	return takeString(id), err
}

// Close interrupts a running turn, waits for it to end and releases the agent. Closing
// twice is harmless; calls after Close fail with FailedPrecondition.
func (a *Agent) Close() error {
	a.Interrupt("closed")
	a.life.Lock()
	defer a.life.Unlock()
	C.hermes_agent_freep(&a.ptr)
	runtime.SetFinalizer(a, nil)
	return nil
}

// runTurn runs one C call that must not overlap another turn.
func (a *Agent) runTurn(call func(*C.hermes_agent_t, **C.hermes_error_t) C.hermes_status_t) error {
	a.turn.Lock()
	defer a.turn.Unlock()
	a.life.RLock()
	defer a.life.RUnlock()
	if a.ptr == nil {
		return errClosed("agent")
	}
	if a.asyncRunning.Load() {
		return errBusy()
	}
	var cerr *C.hermes_error_t
	return errorFrom(call(a.ptr, &cerr), cerr)
}

func errBusy() error {
	return &Error{Code: StatusFailedPrecondition, Message: "agent_busy: the agent is running a turn"}
}

// takeString copies a string the library returned and frees it.
func takeString(p *C.char) string {
	if p == nil {
		return ""
	}
	defer C.hermes_free(unsafe.Pointer(p))
	return C.GoString(p)
}
