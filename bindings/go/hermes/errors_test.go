package hermes

import (
	"errors"
	"math"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// Bad input gives an *Error naming the problem, never a panic or a crash. None of these
// needs a model server.

func TestTheLoadedLibraryMatchesThePackage(t *testing.T) {
	if Version() != "0.2.0" {
		t.Errorf("Version() = %q", Version())
	}
	if LibraryABIVersion() != ABIVersion || !ABICompatible() {
		t.Errorf("library ABI %d, package ABI %d", LibraryABIVersion(), ABIVersion)
	}
}

func requireCode(t *testing.T, err error, want error, messagePrefix string) {
	t.Helper()
	if !errors.Is(err, want) {
		t.Fatalf("error %v, want code %v", err, want.(*Error).Code)
	}
	var e *Error
	if !errors.As(err, &e) || !strings.HasPrefix(e.Message, messagePrefix) {
		t.Fatalf("message %q, want it to start with %q", e.Message, messagePrefix)
	}
}

func TestOptionsWithoutAModelAreRefusedNamingTheField(t *testing.T) {
	agent, err := NewAgent(WithPersistSessions(false))
	if agent != nil {
		t.Fatal("an agent without a model was created")
	}
	requireCode(t, err, ErrInvalidArgument, "provider.model")
	if !strings.HasPrefix(err.Error(), "hermes: invalid_argument: provider.model") {
		t.Errorf("Error() = %q", err.Error())
	}
}

func TestAMalformedBaseURLIsRefusedWhenTheAgentIsCreated(t *testing.T) {
	_, err := NewAgent(WithModel("m"), WithBaseURL("not a url"), WithPersistSessions(false))
	requireCode(t, err, ErrInvalidArgument, "")
	if !strings.Contains(err.Error(), "base_url") {
		t.Errorf("error %q does not name base_url", err)
	}
}

func TestNULBytesAndInvalidUTF8AreErrorsNotTruncations(t *testing.T) {
	_, err := NewAgent(WithModel("gpt\x00-4"))
	requireCode(t, err, ErrInvalidArgument, "model: contains a NUL byte at offset 3")
	_, err = NewAgent(WithModel("m"), WithAPIKey("\xff\xfe"))
	requireCode(t, err, ErrInvalidArgument, "api_key: not valid UTF-8")

	tools, err := NewToolRegistry()
	if err != nil {
		t.Fatal(err)
	}
	defer tools.Close()
	err = tools.Add(Tool{Name: "a\x00b"}, func(*ToolCall) (string, error) { return "", nil })
	requireCode(t, err, ErrInvalidArgument, "name:")
}

func TestOutOfRangeNumbersAreRefusedByTheSetters(t *testing.T) {
	for _, tc := range []struct {
		option Option
		field  string
	}{
		{WithMaxIterations(0), "max_iterations"},
		{WithMaxIterations(math.MaxInt32 + 1), "max_iterations"},
		{WithMaxRetries(0), "max_retries"},
		{WithMaxTokens(-1), "max_tokens"},
		{WithTemperature(math.NaN()), "temperature"},
		{WithTemperature(-0.5), "temperature"},
		{WithTimeout(TimeoutTotal, -time.Second), "timeout"},
		{WithTimeout(Timeout(99), time.Second), "timeout"},
		{WithRetryBackoff(BackoffBase, -time.Second), "retry_backoff"},
		{WithRetryBackoff(Backoff(99), time.Second), "retry_backoff"},
		{WithExtraAPIKey(""), "api_key"},
		{WithToolset(""), "toolset"},
		{WithTools(nil), "tools"},
	} {
		_, err := NewAgent(WithModel("m"), tc.option)
		requireCode(t, err, ErrInvalidArgument, tc.field)
	}
}

func TestASchemaThatIsNotJSONIsRefusedAndTheHandlerReleased(t *testing.T) {
	before := atomic.LoadInt64(&liveUserData)
	tools, err := NewToolRegistry()
	if err != nil {
		t.Fatal(err)
	}
	defer tools.Close()
	handler := func(*ToolCall) (string, error) { return "{}", nil }
	err = tools.Add(Tool{Name: "t", Parameters: "{not json"}, handler)
	requireCode(t, err, ErrInvalidArgument, "parameters_json")
	err = tools.Add(Tool{Name: "bad name!"}, handler)
	requireCode(t, err, ErrInvalidArgument, "")
	err = tools.Add(Tool{Name: "t"}, nil)
	requireCode(t, err, ErrInvalidArgument, "handler")
	if live := atomic.LoadInt64(&liveUserData); live != before {
		t.Errorf("%d handlers of refused tools are still held", live-before)
	}
}

func TestHandlersAndCallbacksAreReleasedWithTheirLastUser(t *testing.T) {
	before := atomic.LoadInt64(&liveUserData)
	tools, err := NewToolRegistry()
	if err != nil {
		t.Fatal(err)
	}
	err = tools.Add(Tool{Name: "t", Description: "d", ParallelSafe: true},
		func(*ToolCall) (string, error) { return "{}", nil })
	if err != nil {
		t.Fatal(err)
	}
	// The agent cannot be created without a model, but every option is applied first:
	// the registry's share and the callbacks must all be released anyway.
	_, err = NewAgent(WithTools(tools), WithStreamCallback(func(string) {}),
		WithStatusCallback(func(string) {}), WithStatusCallback(func(string) {}))
	requireCode(t, err, ErrInvalidArgument, "provider.model")
	if live := atomic.LoadInt64(&liveUserData); live != before+1 {
		t.Errorf("%d Go values held, want only the tool handler", live-before)
	}
	tools.Close()
	if live := atomic.LoadInt64(&liveUserData); live != before {
		t.Errorf("%d Go values still held after Close", live-before)
	}
}

func TestClosedHandlesRefuseCallsAndCloseTwiceIsHarmless(t *testing.T) {
	tools, err := NewToolRegistry()
	if err != nil {
		t.Fatal(err)
	}
	tools.Close()
	tools.Close()
	err = tools.Add(Tool{Name: "t"}, func(*ToolCall) (string, error) { return "", nil })
	requireCode(t, err, ErrFailedPrecondition, "tool registry: closed")
	_, err = NewAgent(WithModel("m"), WithTools(tools))
	requireCode(t, err, ErrFailedPrecondition, "tool registry: closed")

	var agent Agent // A zero Agent behaves as a closed one.
	_, err = agent.Chat("hi")
	requireCode(t, err, ErrFailedPrecondition, "agent: closed")
	agent.Interrupt("nothing runs")
	requireCode(t, agent.Steer("left"), ErrFailedPrecondition, "agent: closed")
	agent.Close()
	agent.Close()
}

func TestStatusCodesKeepTheirFrozenValuesAndNames(t *testing.T) {
	if StatusInvalidArgument != -1 || StatusInternal != -14 || StatusAPI != -8 {
		t.Error("status values changed")
	}
	if StatusInvalidArgument.String() != "invalid_argument" || Status(12345).String() != "unknown" {
		t.Errorf("names: %q %q", StatusInvalidArgument, Status(12345))
	}
	err := error(&Error{Code: StatusNotFound, Message: "no such session"})
	if !errors.Is(err, ErrNotFound) || errors.Is(err, ErrInvalidArgument) {
		t.Error("errors.Is must compare codes")
	}
}
