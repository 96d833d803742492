package hermes

import (
	"bufio"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// mockServer is a running hermes-mock-server (path from HERMES_MOCK_SERVER), stopped
// when the test ends.
type mockServer struct {
	port    int
	baseURL string
}

func startMockServer(t *testing.T, script string) *mockServer {
	t.Helper()
	return startMockServerWith(t, "--script", script)
}

// startMockConversations starts a server with two scripts of tests/fixtures/scripts:
// conversation serves the paths of conversationURL, each key walking it on its own;
// script serves every other model call.
func startMockConversations(t *testing.T, conversation, script string) *mockServer {
	t.Helper()
	return startMockServerWith(t, "--conversation-script", conversation, "--script", script)
}

// conversationURL is the base URL of conversation key (see startMockConversations).
func (m *mockServer) conversationURL(key string) string {
	return fmt.Sprintf("http://127.0.0.1:%d/c/%s/v1", m.port, key)
}

// startMockServerWith takes pairs of a flag and a script name.
func startMockServerWith(t *testing.T, options ...string) *mockServer {
	t.Helper()
	path := os.Getenv("HERMES_MOCK_SERVER")
	if path == "" {
		t.Fatal("HERMES_MOCK_SERVER must name the hermes-mock-server executable")
	}
	args := []string{"--quiet"}
	for i := 0; i+1 < len(options); i += 2 {
		args = append(args, options[i], filepath.Join(fixturesDir(), "scripts", options[i+1]))
	}
	cmd := exec.Command(path, args...)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatalf("cannot start %s: %v", path, err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil || !strings.HasPrefix(line, "PORT=") {
		t.Fatalf("the mock server printed %q (%v) instead of PORT=<n>", line, err)
	}
	var port int
	if _, err := fmt.Sscanf(line, "PORT=%d", &port); err != nil {
		t.Fatal(err)
	}
	return &mockServer{port: port, baseURL: fmt.Sprintf("http://127.0.0.1:%d/v1", port)}
}

// requestsJSON is what the server received: [{"method","path","headers","body"}, ...].
func (m *mockServer) requestsJSON(t *testing.T) string {
	t.Helper()
	resp, err := http.Get(fmt.Sprintf("http://127.0.0.1:%d/_mock/requests", m.port))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return string(body)
}

func fixturesDir() string {
	if dir := os.Getenv("HERMES_FIXTURES_DIR"); dir != "" {
		return dir
	}
	return filepath.Join("..", "..", "..", "tests", "fixtures")
}
