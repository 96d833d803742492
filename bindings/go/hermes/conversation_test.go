package hermes

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// Conversations over real HTTP against the loopback mock model server, which plays the
// model of tests/fixtures/scripts/two_step_add.json: it asks for add(2, 40), then
// answers "The sum is 42.".

var addTool = Tool{
	Name:        "add",
	Description: "Add two numbers.",
	Parameters: `{"type":"object","properties":{"a":{"type":"number"},"b":{"type":"number"}},
	              "required":["a","b"]}`,
	ParallelSafe: true,
}

func add(call *ToolCall) (string, error) {
	var args struct{ A, B *float64 }
	if err := json.Unmarshal([]byte(call.Arguments()), &args); err != nil || args.A == nil || args.B == nil {
		return "", errors.New("a and b are required")
	}
	return fmt.Sprintf(`{"sum":%g}`, *args.A+*args.B), nil
}

func newMockAgent(t *testing.T, server *mockServer, handler ToolHandler, extra ...Option) *Agent {
	t.Helper()
	tools, err := NewToolRegistry()
	if err != nil {
		t.Fatal(err)
	}
	defer tools.Close() // The agent keeps its share.
	if err := tools.Add(addTool, handler); err != nil {
		t.Fatal(err)
	}
	opts := append([]Option{WithModel("mock-model"), WithBaseURL(server.baseURL),
		WithAPIKey("sk-test"), WithPersistSessions(false), WithTools(tools)}, extra...)
	agent, err := NewAgent(opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { agent.Close() })
	return agent
}

// toolMessage is the content of the first tool message of a result.
func toolMessage(t *testing.T, result *ConversationResult) string {
	t.Helper()
	for _, m := range result.Messages {
		if m["role"] == "tool" {
			content, _ := m["content"].(string)
			return content
		}
	}
	t.Fatalf("no tool message in %s", result.Raw)
	return ""
}

func TestATwoStepToolConversationFeedsTheToolResultBackToTheModel(t *testing.T) {
	before := atomic.LoadInt64(&liveUserData)
	server := startMockServer(t, "two_step_add.json")
	var calls int32
	agent := newMockAgent(t, server, func(call *ToolCall) (string, error) {
		atomic.AddInt32(&calls, 1)
		if call.Name() != "add" || call.ID() != "call_add_1" {
			return "", fmt.Errorf("unexpected call %s %s", call.Name(), call.ID())
		}
		return add(call)
	})

	result, err := agent.RunConversation("What is 2 + 40?")
	if err != nil {
		t.Fatal(err)
	}
	if !result.Completed || result.FinalResponse != "The sum is 42." || result.APICalls != 2 {
		t.Errorf("result: %s", result.Raw)
	}
	if got := toolMessage(t, result); got != `{"sum":42}` {
		t.Errorf("tool message %q", got)
	}
	if calls != 1 {
		t.Errorf("the tool ran %d times", calls)
	}
	if requests := server.requestsJSON(t); !strings.Contains(requests, `{\\\"sum\\\":42}`) {
		t.Errorf("the tool result never reached the model: %s", requests)
	}
	agent.Close()
	if live := atomic.LoadInt64(&liveUserData); live != before {
		t.Errorf("%d Go values still held after Close", live-before)
	}
}

func TestChatReturnsTheAnswerAndReportsStreamedTextAndToolProgress(t *testing.T) {
	server := startMockServer(t, "two_step_add.json")
	var mu sync.Mutex
	var streamed strings.Builder
	var events []string
	agent := newMockAgent(t, server, add,
		WithStream(true),
		WithStreamCallback(func(delta string) {
			mu.Lock()
			defer mu.Unlock()
			streamed.WriteString(delta)
		}),
		WithToolProgressCallback(func(event string) {
			mu.Lock()
			defer mu.Unlock()
			events = append(events, event)
		}))

	answer, err := agent.Chat("What is 2 + 40?")
	if err != nil || answer != "The sum is 42." {
		t.Fatalf("Chat() = %q, %v", answer, err)
	}
	mu.Lock()
	defer mu.Unlock()
	if streamed.String() != "The sum is 42." {
		t.Errorf("streamed %q", streamed.String())
	}
	if len(events) != 2 || !strings.Contains(events[0], `"phase":"started"`) ||
		!strings.Contains(events[1], `"phase":"completed"`) || !strings.Contains(events[1], `"is_error":false`) {
		t.Errorf("events %q", events)
	}
}

func TestAPanickingToolBecomesAnErrorResultAndTheTurnGoesOn(t *testing.T) {
	server := startMockServer(t, "two_step_add.json")
	agent := newMockAgent(t, server, func(*ToolCall) (string, error) { panic("the abacus broke") })

	result, err := agent.RunConversation("What is 2 + 40?")
	if err != nil {
		t.Fatal(err)
	}
	if got := toolMessage(t, result); got != `{"error":"tool panicked: the abacus broke"}` {
		t.Errorf("tool message %q", got)
	}
	if result.FinalResponse != "The sum is 42." {
		t.Errorf("result: %s", result.Raw)
	}
}

func TestAToolErrorReachesTheModelAsAnErrorObject(t *testing.T) {
	server := startMockServer(t, "two_step_add.json")
	agent := newMockAgent(t, server, func(*ToolCall) (string, error) {
		return "", errors.New("the numbers are too large")
	})

	result, err := agent.RunConversation("What is 2 + 40?")
	if err != nil {
		t.Fatal(err)
	}
	if got := toolMessage(t, result); got != `{"error":"the numbers are too large"}` {
		t.Errorf("tool message %q", got)
	}
	if !result.Completed {
		t.Errorf("result: %s", result.Raw)
	}
}

func TestHistoryThatIsNotValidJSONOrMessagesIsRefused(t *testing.T) {
	server := startMockServer(t, "two_step_add.json")
	agent := newMockAgent(t, server, add)

	_, err := agent.RunConversation("hi", WithHistoryJSON(`[{"role":`))
	requireCode(t, err, ErrInvalidArgument, "history_json")
	_, err = agent.RunConversation("hi", WithHistoryJSON(`[{"role":"robot"}]`))
	requireCode(t, err, ErrInvalidArgument, "history_json")
	_, err = agent.Chat("a\x00b")
	requireCode(t, err, ErrInvalidArgument, "message")
	if requests := server.requestsJSON(t); requests != "[]" {
		t.Errorf("nothing may reach the model, got %s", requests)
	}
}

func TestAPanickingCallbackIsStoppedAtTheCBoundary(t *testing.T) {
	server := startMockServer(t, "two_step_add.json")
	agent := newMockAgent(t, server, add,
		WithStreamCallback(func(string) { panic("the screen is gone") }),
		WithToolProgressCallback(func(string) { panic("so is the log") }))

	answer, err := agent.Chat("What is 2 + 40?")
	if err != nil || answer != "The sum is 42." {
		t.Fatalf("Chat() = %q, %v", answer, err)
	}
}

func TestInterruptFromAnotherGoroutineStopsARunningTurn(t *testing.T) {
	server := startMockServer(t, "two_step_add.json")
	started := make(chan struct{}, 1)
	agent := newMockAgent(t, server, func(call *ToolCall) (string, error) {
		started <- struct{}{}
		// Waits for the interrupt; the bound only keeps a broken build from hanging.
		giveUp := time.Now().Add(time.Minute)
		for !call.Cancelled() && time.Now().Before(giveUp) {
			time.Sleep(5 * time.Millisecond)
		}
		return fmt.Sprintf(`{"cancelled":%v}`, call.Cancelled()), nil
	})

	type outcome struct {
		result *ConversationResult
		err    error
	}
	done := make(chan outcome)
	go func() {
		result, err := agent.RunConversation("What is 2 + 40?")
		done <- outcome{result, err}
	}()
	<-started
	agent.Interrupt("the user pressed stop")
	got := <-done
	if got.err != nil {
		t.Fatal(got.err)
	}
	if !got.result.Interrupted || toolMessage(t, got.result) != `{"cancelled":true}` ||
		got.result.FinalResponse == "The sum is 42." {
		t.Errorf("result: %s", got.result.Raw)
	}
}

func TestTheContextDirectorysAgentsFileReachesTheSystemPrompt(t *testing.T) {
	dir := t.TempDir()
	rules := "Answer every question about penguins in haiku."
	if err := os.WriteFile(filepath.Join(dir, "AGENTS.md"), []byte(rules), 0o644); err != nil {
		t.Fatal(err)
	}
	server := startMockServer(t, "two_step_add.json")
	agent := newMockAgent(t, server, add, WithContextDir(dir))
	if _, err := agent.RunConversation("What is 2 + 40?"); err != nil {
		t.Fatal(err)
	}
	if requests := server.requestsJSON(t); !strings.Contains(requests, rules) {
		t.Fatalf("the system prompt lacks AGENTS.md: %s", requests)
	}
}
