package hermes

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

func TestAStdioMCPServerRegistersItsTools(t *testing.T) {
	tools, err := NewToolRegistry()
	if err != nil {
		t.Fatal(err)
	}
	defer tools.Close()
	script := filepath.Join(fixturesDir(), "mcp", "fake_server.py")
	config := fmt.Sprintf(`{"mcpServers": {"fake": {"command": "python3", "args": [%q]}}}`, script)
	servers, err := ConnectMCPServers(config, tools)
	if err != nil {
		t.Fatal(err)
	}
	defer servers.Close()
	status, err := servers.StatusJSON()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(status, `"connected":true`) || !strings.Contains(status, `"mcp_fake_echo"`) {
		t.Fatalf("status: %s", status)
	}
}

func TestABadMCPDocumentIsRefusedNamingTheKey(t *testing.T) {
	tools, err := NewToolRegistry()
	if err != nil {
		t.Fatal(err)
	}
	defer tools.Close()
	_, err = ConnectMCPServers(`{"mcpServers": {"a": {"command": 7}}}`, tools)
	if !errors.Is(err, ErrInvalidArgument) || !strings.Contains(err.Error(), "mcpServers.a.command") {
		t.Fatalf("err: %v", err)
	}
}
