package hermes

// #include <stdlib.h>
// #include "callbacks.h"
import "C"

import (
	"encoding/json"
	"runtime"
	"sync"
	"unsafe"
)

// RuntimeOptions configures NewRuntime. A zero field keeps the library's default.
type RuntimeOptions struct {
	IOThreads   int   // Threads multiplexing the model calls of all turns: 1 (the default) to 4.
	ToolWorkers int   // Threads running tool handlers: 16 by default, 1 to 1024.
	StackBytes  int64 // Address space each running turn reserves: 1 MiB by default, 64 KiB to 64 MiB.
}

// RuntimeStats is what a runtime is doing, from Stats.
type RuntimeStats struct {
	TurnsRunning int64 `json:"turns_running"` // Turns started and not yet ended.
	Transfers    int64 `json:"transfers"`     // HTTP transfers in flight.
	ToolJobs     int64 `json:"tool_jobs"`     // Tool calls queued or running on the tool workers.
	TurnsStarted int64 `json:"turns_started"` // Since the runtime was created.
	IOThreads    int   `json:"io_threads"`
	ToolWorkers  int   `json:"tool_workers"`
	StackBytes   int64 `json:"stack_bytes"`
}

// Runtime is a set of threads that run many agents' turns at once: a turn started with
// Agent.RunTurnAsync runs on one of its I/O threads, which multiplex the model calls of
// all its turns, and its tools run on the runtime's tool workers. The synchronous calls
// (Chat, RunConversation) need no runtime.
//
// Safe for concurrent use by any number of agents and goroutines. The tool handlers and
// callbacks of a turn on the runtime run on its threads: keep them short, never wait in
// one for another turn of the same runtime, and never Close the runtime from one.
type Runtime struct {
	life sync.RWMutex // Held for reading by every call, for writing by Close.
	ptr  *C.hermes_runtime_t
}

// NewRuntime creates a runtime and starts its threads. InvalidArgument names a setting
// out of range; Unavailable when a thread cannot start.
func NewRuntime(opts RuntimeOptions) (*Runtime, error) {
	if err := ensureABICompatible(); err != nil {
		return nil, err
	}
	settings := map[string]int64{}
	for key, value := range map[string]int64{"io_threads": int64(opts.IOThreads),
		"tool_workers": int64(opts.ToolWorkers), "stack_bytes": opts.StackBytes} {
		if value != 0 {
			settings[key] = value
		}
	}
	document, err := json.Marshal(settings)
	if err != nil {
		return nil, &Error{Code: StatusInternal, Message: "options_json: " + err.Error()}
	}
	text := C.CString(string(document))
	defer C.free(unsafe.Pointer(text))
	r := &Runtime{}
	var cerr *C.hermes_error_t
	if err := errorFrom(C.hermes_runtime_new(text, &r.ptr, &cerr), cerr); err != nil {
		return nil, err
	}
	runtime.SetFinalizer(r, (*Runtime).Close)
	return r, nil
}

// Close interrupts the turns still running (their channels receive a result with
// Interrupted set), waits for them and for running tool handlers, then stops the
// threads. Closing twice is harmless; calls after Close fail with FailedPrecondition.
func (r *Runtime) Close() error {
	r.life.Lock()
	defer r.life.Unlock()
	C.hermes_runtime_freep(&r.ptr)
	runtime.SetFinalizer(r, nil)
	return nil
}

// Stats reports what the runtime is doing.
func (r *Runtime) Stats() (RuntimeStats, error) {
	var stats RuntimeStats
	r.life.RLock()
	defer r.life.RUnlock()
	if r.ptr == nil {
		return stats, errClosed("runtime")
	}
	var text *C.char
	var cerr *C.hermes_error_t
	if err := errorFrom(C.hermes_runtime_stats_json(r.ptr, &text, &cerr), cerr); err != nil {
		return stats, err
	}
	if err := json.Unmarshal([]byte(takeString(text)), &stats); err != nil {
		return stats, &Error{Code: StatusInternal, Message: "runtime stats: " + err.Error()}
	}
	return stats, nil
}

// asyncTurn is the user_data of a turn started with RunTurnAsync. Through its handle it
// keeps the agent and the runtime reachable (their finalizers away) while the turn runs.
type asyncTurn struct {
	agent   *Agent
	runtime *Runtime
	results chan *ConversationResult
}

// RunTurnAsync starts a turn on rt and returns at once. The channel receives the turn's
// result when it ends, also when it failed or was interrupted (Completed false, and
// Interrupted or Error saying why), and is then closed. The turn behaves as
// RunConversation with the same options, with the agent's callbacks and tool handlers
// on the runtime's threads.
//
// A refusal is the error, with no channel: InvalidArgument for a bad argument,
// FailedPrecondition ("agent_busy") when the agent runs a turn, or when the agent or the
// runtime is closed. Agent.Interrupt ends the turn early, and so do Agent.Close and
// Runtime.Close, which wait for it.
func (a *Agent) RunTurnAsync(rt *Runtime, message string, opts ...RunOption) (<-chan *ConversationResult, error) {
	if rt == nil {
		return nil, &Error{Code: StatusInvalidArgument, Message: "runtime: nil"}
	}
	document, err := turnDocument(message, opts)
	if err != nil {
		return nil, err
	}
	text := C.CString(document)
	defer C.free(unsafe.Pointer(text))
	// A synchronous turn holds the lock for all its length: refused, not waited for.
	if !a.turn.TryLock() {
		return nil, errBusy()
	}
	defer a.turn.Unlock()
	a.life.RLock()
	defer a.life.RUnlock()
	if a.ptr == nil {
		return nil, errClosed("agent")
	}
	rt.life.RLock()
	defer rt.life.RUnlock()
	if rt.ptr == nil {
		return nil, errClosed("runtime")
	}
	if !a.asyncRunning.CompareAndSwap(false, true) {
		return nil, errBusy()
	}
	turn := &asyncTurn{agent: a, runtime: rt, results: make(chan *ConversationResult, 1)}
	userData := newUserData(turn)
	var cerr *C.hermes_error_t
	status := C.hermes_agent_run_turn_async(a.ptr, rt.ptr, text,
		C.hermes_turn_done_fn(C.hermes_go_turn_done), userData, &cerr)
	if err := errorFrom(status, cerr); err != nil {
		// Refused: the library never calls back, so the handle is ours to release.
		a.asyncRunning.Store(false)
		releaseUserData(userData)
		return nil, err
	}
	return turn.results, nil
}

// turnDocument is the turn_json of hermes_agent_run_turn_async.
func turnDocument(message string, opts []RunOption) (string, error) {
	var cfg runConfig
	for _, opt := range opts {
		opt(&cfg)
	}
	for _, field := range []struct{ name, value string }{{"message", message},
		{"system_message", cfg.system}, {"history_json", cfg.history}, {"task_id", cfg.taskID}} {
		if err := checkText(field.name, field.value); err != nil {
			return "", err
		}
	}
	turn := struct {
		UserMessage   string          `json:"user_message"`
		SystemMessage string          `json:"system_message,omitempty"`
		History       json.RawMessage `json:"history,omitempty"`
		TaskID        string          `json:"task_id,omitempty"`
	}{UserMessage: message, SystemMessage: cfg.system, TaskID: cfg.taskID}
	if cfg.history != "" {
		if !json.Valid([]byte(cfg.history)) {
			return "", &Error{Code: StatusInvalidArgument, Message: "history_json: not valid JSON"}
		}
		turn.History = json.RawMessage(cfg.history)
	}
	document, err := json.Marshal(turn)
	if err != nil {
		return "", &Error{Code: StatusInvalidArgument, Message: "turn: " + err.Error()}
	}
	return string(document), nil
}

// deliver hands the result of the turn to its channel; it never blocks, the channel
// having room for the one result.
func (t *asyncTurn) deliver(raw string) {
	// Cleared first, so that a receiver may start the agent's next turn at once.
	t.agent.asyncRunning.Store(false)
	result, err := parseResult(raw)
	if err != nil {
		result = &ConversationResult{Raw: json.RawMessage(raw), Error: err.Error()}
	}
	t.results <- result
	close(t.results)
}

//export hermesGoTurnDone
func hermesGoTurnDone(resultJSON *C.char, userData unsafe.Pointer) {
	defer func() { _ = recover() }()
	turn := userDataValue(userData).(*asyncTurn)
	releaseUserData(userData) // The library calls done once and keeps nothing.
	turn.deliver(C.GoString(resultJSON))
}
