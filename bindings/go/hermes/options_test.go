package hermes

import (
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// Options whose effect shows on the wire, against the loopback mock model server.

const enforcementHeading = "# Act, do not narrate"

func newPlainAgent(t *testing.T, server *mockServer, model string, extra ...Option) *Agent {
	t.Helper()
	opts := append([]Option{WithModel(model), WithBaseURL(server.baseURL), WithAPIKey("sk-test"),
		WithPersistSessions(false)}, extra...)
	agent, err := NewAgent(opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { agent.Close() })
	return agent
}

func requestsWithEnforcement(t *testing.T, model string, mode ToolUseEnforcement) string {
	t.Helper()
	server := startMockServer(t, "one_answer.json")
	agent := newPlainAgent(t, server, model, WithToolUseEnforcement(mode))
	if answer, err := agent.Chat("hello"); err != nil || answer != "Hello from the mock model." {
		t.Fatalf("Chat() = %q, %v", answer, err)
	}
	return server.requestsJSON(t)
}

func TestToolUseEnforcementOverridesTheModelFamily(t *testing.T) {
	// Left to the family, a model of no narrating family gets no block ...
	if r := requestsWithEnforcement(t, "mock-model", ToolUseEnforcementAuto); strings.Contains(r, enforcementHeading) {
		t.Errorf("auto gave mock-model the block: %s", r)
	}
	// ... unless asked for it, and a GPT model, which would get it, can be spared it.
	if r := requestsWithEnforcement(t, "mock-model", ToolUseEnforcementOn); !strings.Contains(r, enforcementHeading) {
		t.Errorf("on left the block out: %s", r)
	}
	if r := requestsWithEnforcement(t, "gpt-mock", ToolUseEnforcementOff); strings.Contains(r, enforcementHeading) {
		t.Errorf("off kept the block: %s", r)
	}
}

func TestAnUnknownToolUseEnforcementModeIsRefused(t *testing.T) {
	_, err := NewAgent(WithModel("m"), WithToolUseEnforcement(ToolUseEnforcement(7)))
	if err == nil || !strings.Contains(err.Error(), "tool_use_enforcement") {
		t.Fatalf("NewAgent() error = %v", err)
	}
}

func TestTheAuthRefreshCallbackAnswersA401WithAFreshKey(t *testing.T) {
	before := atomic.LoadInt64(&liveUserData)
	server := startMockServer(t, "expired_token.json")
	var mu sync.Mutex
	var asked []string
	agent := newPlainAgent(t, server, "mock-model", WithAuthRefreshCallback(func(request string) (string, bool) {
		mu.Lock()
		defer mu.Unlock()
		asked = append(asked, request)
		return "sk-fresh", true
	}))

	if answer, err := agent.Chat("hello"); err != nil || answer != "Signed in." {
		t.Fatalf("Chat() = %q, %v", answer, err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(asked) != 1 || !strings.Contains(asked[0], `"http_status":401`) ||
		!strings.Contains(asked[0], `"model":"mock-model"`) {
		t.Errorf("asked %q", asked)
	}
	requests := server.requestsJSON(t)
	stale, fresh := strings.Index(requests, "Bearer sk-test"), strings.Index(requests, "Bearer sk-fresh")
	if stale < 0 || fresh < stale {
		t.Errorf("the retried call did not carry the fresh key: %s", requests)
	}
	agent.Close()
	if live := atomic.LoadInt64(&liveUserData); live != before {
		t.Errorf("%d Go values still held after Close", live-before)
	}
}

func TestAPanickingAuthRefreshCallbackCountsAsNoAnswer(t *testing.T) {
	server := startMockServer(t, "expired_token.json")
	agent := newPlainAgent(t, server, "mock-model", WithMaxRetries(1),
		WithAuthRefreshCallback(func(string) (string, bool) { panic("the token service is down") }))

	if _, err := agent.Chat("hello"); err == nil || !strings.Contains(err.Error(), "Token expired") {
		t.Fatalf("Chat() error = %v", err)
	}
	if strings.Contains(server.requestsJSON(t), "sk-fresh") {
		t.Error("a key was sent although the callback panicked")
	}
}

func TestDelegationLimitsOutOfRangeAreRefusedNamingTheField(t *testing.T) {
	for _, c := range []struct {
		iterations, children int
		field                string
	}{{0, 3, "delegation.max_iterations"}, {5, 0, "delegation.max_concurrent_children"}} {
		_, err := NewAgent(WithModel("m"), WithDelegation(c.iterations, c.children))
		if !errors.Is(err, ErrInvalidArgument) || !strings.Contains(err.Error(), c.field) {
			t.Errorf("WithDelegation(%d, %d): %v", c.iterations, c.children, err)
		}
	}
}

func TestTheDelegationLimitReachesTheAgent(t *testing.T) {
	// The model asks for two sub-agents at once; one at a time is allowed.
	server := startMockServer(t, "delegate_two_tasks.json")
	agent := newPlainAgent(t, server, "mock-model", WithToolset("delegation"), WithDelegation(5, 1))
	if answer, err := agent.Chat("Split the work."); err != nil || answer != "Done alone." {
		t.Fatalf("Chat() = %q, %v", answer, err)
	}
	if requests := server.requestsJSON(t); !strings.Contains(requests, "at most 1") {
		t.Errorf("the model was not told the limit: %s", requests)
	}
}

func TestTheSourcePicksAPlatformHintAndTheApplicationMayBringItsOwn(t *testing.T) {
	promptFor := func(extra ...Option) string {
		server := startMockServer(t, "one_answer.json")
		agent := newPlainAgent(t, server, "mock-model", extra...)
		if _, err := agent.Chat("hello"); err != nil {
			t.Fatal(err)
		}
		return server.requestsJSON(t)
	}
	if r := promptFor(WithSource("telegram")); !strings.Contains(r, "on Telegram") {
		t.Errorf("no Telegram hint: %s", r)
	}
	own := promptFor(WithSource("telegram"), WithPlatformHint("Answers go to a braille display."))
	if !strings.Contains(own, "Answers go to a braille display.") || strings.Contains(own, "on Telegram") {
		t.Errorf("the application's hint did not replace the source's: %s", own)
	}
}
