package hermes

import (
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// Turns started on a Runtime, over HTTP against the loopback mock model server, which
// plays tests/fixtures/scripts/two_step_add.json (add(2, 40), then "The sum is 42.") on
// the paths of conversationURL(key), each key on its own, and answers any other model
// call only after a minute (slow_model.json): a turn sent there is in flight until
// something ends it.

const question = "What is 2 + 40?"

func startRuntimeServer(t *testing.T) *mockServer {
	t.Helper()
	return startMockConversations(t, "two_step_add.json", "slow_model.json")
}

func newTestRuntime(t *testing.T) *Runtime {
	t.Helper()
	rt, err := NewRuntime(RuntimeOptions{IOThreads: 1, ToolWorkers: 4})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rt.Close() })
	return rt
}

// conversationAgent is an agent with the add tool on conversation key of server.
func conversationAgent(t *testing.T, server *mockServer, key string, handler ToolHandler) *Agent {
	t.Helper()
	return newMockAgent(t, server, handler, WithBaseURL(server.conversationURL(key)))
}

// eventually waits up to five seconds for condition to hold.
func eventually(condition func() bool) bool {
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); {
		if condition() {
			return true
		}
		time.Sleep(10 * time.Millisecond)
	}
	return false
}

func modelCallInFlight(rt *Runtime) bool {
	return eventually(func() bool {
		stats, err := rt.Stats()
		return err == nil && stats.Transfers > 0
	})
}

func runtimeIdle(rt *Runtime) bool {
	return eventually(func() bool {
		stats, err := rt.Stats()
		return err == nil && stats.TurnsRunning == 0
	})
}

// receive waits for the result of a turn.
func receive(t *testing.T, results <-chan *ConversationResult) *ConversationResult {
	t.Helper()
	select {
	case result := <-results:
		if result == nil {
			t.Fatal("the channel was closed without a result")
		}
		return result
	case <-time.After(60 * time.Second):
		t.Fatal("the turn did not end")
		return nil
	}
}

func checkAnswered(t *testing.T, result *ConversationResult) {
	t.Helper()
	if !result.Completed || result.FinalResponse != "The sum is 42." || result.APICalls != 2 {
		t.Errorf("result: %s", result.Raw)
	}
}

func TestRuntimeOptionsOutOfRangeAreRefusedNamingTheOption(t *testing.T) {
	for name, opts := range map[string]RuntimeOptions{
		"io_threads":   {IOThreads: 5},
		"tool_workers": {ToolWorkers: -1},
		"stack_bytes":  {StackBytes: 16},
	} {
		rt, err := NewRuntime(opts)
		if !errors.Is(err, ErrInvalidArgument) || !strings.Contains(err.Error(), name) {
			t.Errorf("%+v: %v", opts, err)
		}
		if rt != nil {
			t.Errorf("%+v: a runtime despite the error", opts)
		}
	}
	stats, err := newTestRuntime(t).Stats()
	if err != nil || stats.IOThreads != 1 || stats.ToolWorkers != 4 || stats.TurnsStarted != 0 {
		t.Errorf("stats %+v, %v", stats, err)
	}
	rt, err := NewRuntime(RuntimeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if stats, err := rt.Stats(); err != nil || stats.ToolWorkers != 16 || stats.StackBytes != 1<<20 {
		t.Errorf("defaults %+v, %v", stats, err)
	}
	rt.Close()
	rt.Close() // Harmless.
	if _, err := rt.Stats(); !errors.Is(err, ErrFailedPrecondition) {
		t.Errorf("Stats after Close: %v", err)
	}
}

func TestFiftyConversationsOnOneRuntimeAllReachTheAnswer(t *testing.T) {
	const conversations = 50
	before := atomic.LoadInt64(&liveUserData)
	server := startRuntimeServer(t)
	rt := newTestRuntime(t)
	var calls int32
	counted := func(call *ToolCall) (string, error) {
		atomic.AddInt32(&calls, 1)
		return add(call)
	}
	agents := make([]*Agent, conversations)
	for i := range agents {
		agents[i] = conversationAgent(t, server, fmt.Sprintf("go-%d", i), counted)
	}
	channels := make([]<-chan *ConversationResult, conversations)
	for i, agent := range agents {
		results, err := agent.RunTurnAsync(rt, question)
		if err != nil {
			t.Fatal(err)
		}
		channels[i] = results
	}
	for _, results := range channels {
		checkAnswered(t, receive(t, results))
		if _, open := <-results; open {
			t.Error("a second value on a turn's channel")
		}
	}
	if calls != conversations {
		t.Errorf("the tool ran %d times", calls)
	}
	if stats, err := rt.Stats(); err != nil || stats.TurnsStarted != conversations {
		t.Errorf("stats %+v, %v", stats, err)
	}
	for _, agent := range agents {
		agent.Close()
	}
	if live := atomic.LoadInt64(&liveUserData); live != before {
		t.Errorf("%d Go values still held after the turns and Close", live-before)
	}
}

func TestAnAsynchronousTurnReturnsWhatTheSynchronousCallReturns(t *testing.T) {
	server := startRuntimeServer(t)
	rt := newTestRuntime(t)
	opts := []RunOption{WithSystemMessage("Answer in one \"short\" sentence.\n"), WithTaskID("task-1")}
	expected, err := conversationAgent(t, server, "sync", add).RunConversation(question, opts...)
	if err != nil {
		t.Fatal(err)
	}
	results, err := conversationAgent(t, server, "async", add).RunTurnAsync(rt, question, opts...)
	if err != nil {
		t.Fatal(err)
	}
	got := receive(t, results)
	checkAnswered(t, got)
	if got.FinalResponse != expected.FinalResponse || got.Completed != expected.Completed ||
		got.ExitReason != expected.ExitReason || got.APICalls != expected.APICalls ||
		got.Interrupted || got.Error != "" {
		t.Errorf("asynchronous %s\nsynchronous %s", got.Raw, expected.Raw)
	}
	if len(got.Messages) != len(expected.Messages) || toolMessage(t, got) != toolMessage(t, expected) {
		t.Errorf("messages differ:\n%s\n%s", got.Raw, expected.Raw)
	}
}

func TestABusyAgentIsRefused(t *testing.T) {
	before := atomic.LoadInt64(&liveUserData)
	server := startRuntimeServer(t)
	rt := newTestRuntime(t)
	agent := newMockAgent(t, server, add) // On the slow model.
	results, err := agent.RunTurnAsync(rt, question)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := agent.RunTurnAsync(rt, question); !errors.Is(err, ErrFailedPrecondition) ||
		!strings.Contains(err.Error(), "agent_busy") {
		t.Errorf("a second start: %v", err)
	}
	if _, err := agent.Chat("Me too."); !errors.Is(err, ErrFailedPrecondition) {
		t.Errorf("Chat: %v", err)
	}
	if _, err := agent.SessionID(); !errors.Is(err, ErrFailedPrecondition) {
		t.Errorf("SessionID: %v", err)
	}
	if !modelCallInFlight(rt) {
		t.Fatal("no model call in flight")
	}
	agent.Interrupt("enough")
	if result := receive(t, results); !result.Interrupted || result.Completed {
		t.Errorf("result: %s", result.Raw)
	}
	// The turn over, the agent takes calls again.
	if id, err := agent.SessionID(); err != nil || id == "" {
		t.Errorf("SessionID after the turn: %q, %v", id, err)
	}
	agent.Close()
	if live := atomic.LoadInt64(&liveUserData); live != before {
		t.Errorf("%d Go values still held after the refusal and Close", live-before)
	}
}

func TestBadArgumentsAndClosedHandlesAreRefused(t *testing.T) {
	before := atomic.LoadInt64(&liveUserData)
	server := startRuntimeServer(t)
	rt := newTestRuntime(t)
	agent := conversationAgent(t, server, "bad", add)
	for _, opts := range [][]RunOption{{WithHistoryJSON(`[], "user_message": "other"`)},
		{WithHistoryJSON(`[{"role":"robot"}]`)}} {
		if _, err := agent.RunTurnAsync(rt, question, opts...); !errors.Is(err, ErrInvalidArgument) ||
			!strings.Contains(err.Error(), "history") {
			t.Errorf("history: %v", err)
		}
	}
	if _, err := agent.RunTurnAsync(rt, "a\x00b"); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("a NUL byte: %v", err)
	}
	closed, err := NewRuntime(RuntimeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	closed.Close()
	if _, err := agent.RunTurnAsync(closed, question); !errors.Is(err, ErrFailedPrecondition) {
		t.Errorf("a closed runtime: %v", err)
	}
	if stats, err := rt.Stats(); err != nil || stats.TurnsStarted != 0 {
		t.Errorf("stats %+v, %v", stats, err)
	}
	// Refusals leave the agent free.
	results, err := agent.RunTurnAsync(rt, question)
	if err != nil {
		t.Fatal(err)
	}
	checkAnswered(t, receive(t, results))
	agent.Close()
	if _, err := agent.RunTurnAsync(rt, question); !errors.Is(err, ErrFailedPrecondition) {
		t.Errorf("a closed agent: %v", err)
	}
	if live := atomic.LoadInt64(&liveUserData); live != before {
		t.Errorf("%d Go values still held after the refusals", live-before)
	}
}

func TestAnInterruptEndsASlowTurn(t *testing.T) {
	server := startRuntimeServer(t)
	rt := newTestRuntime(t)
	agent := newMockAgent(t, server, add)
	started := time.Now()
	results, err := agent.RunTurnAsync(rt, question)
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		if modelCallInFlight(rt) {
			agent.Interrupt("stop")
		}
	}()
	if result := receive(t, results); !result.Interrupted {
		t.Errorf("result: %s", result.Raw)
	}
	if elapsed := time.Since(started); elapsed > 30*time.Second {
		t.Errorf("the interrupted turn took %v", elapsed)
	}
}

func TestClosingTheRuntimeEndsATurnInFlightWithAnInterruptedResult(t *testing.T) {
	server := startRuntimeServer(t)
	rt, err := NewRuntime(RuntimeOptions{ToolWorkers: 2})
	if err != nil {
		t.Fatal(err)
	}
	agent := newMockAgent(t, server, add)
	results, err := agent.RunTurnAsync(rt, question)
	if err != nil {
		t.Fatal(err)
	}
	if !modelCallInFlight(rt) {
		t.Fatal("no model call in flight")
	}
	rt.Close()
	// The result is there by the time Close returns.
	select {
	case result := <-results:
		if !result.Interrupted || result.Completed {
			t.Errorf("result: %s", result.Raw)
		}
	default:
		t.Fatal("Close returned before the turn's result")
	}
	// The agent outlives its runtime and is free again.
	if id, err := agent.SessionID(); err != nil || id == "" {
		t.Errorf("SessionID: %q, %v", id, err)
	}
}

func TestClosingAnAgentMidTurnWaitsForItsResult(t *testing.T) {
	server := startRuntimeServer(t)
	rt := newTestRuntime(t)
	agent := newMockAgent(t, server, add)
	results, err := agent.RunTurnAsync(rt, question)
	if err != nil {
		t.Fatal(err)
	}
	if !modelCallInFlight(rt) {
		t.Fatal("no model call in flight")
	}
	agent.Close()
	select {
	case result := <-results:
		if !result.Interrupted {
			t.Errorf("result: %s", result.Raw)
		}
	default:
		t.Fatal("Close returned before the turn's result")
	}
	if !runtimeIdle(rt) {
		t.Error("the runtime still runs a turn")
	}
}

func TestAReceiverMayStartTheNextTurnAtOnce(t *testing.T) {
	server := startRuntimeServer(t)
	rt := newTestRuntime(t)
	agent := conversationAgent(t, server, "chain", add)
	for turn := 0; turn < 3; turn++ { // The conversation script starts over each turn.
		results, err := agent.RunTurnAsync(rt, question)
		if err != nil {
			t.Fatalf("turn %d: %v", turn, err)
		}
		checkAnswered(t, receive(t, results))
	}
}
