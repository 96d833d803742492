package hermes

// #include <stdlib.h>
// #include "hermes_c.h"
import "C"

import (
	"runtime"
	"sync"
)

// MCPServers are the MCP servers of a configuration document, connected, with their
// tools registered in a ToolRegistry as mcp_<server>_<tool>. Close disconnects them and
// removes their tools. Safe for concurrent use.
type MCPServers struct {
	mu  sync.Mutex
	ptr *C.hermes_mcp_servers_t
}

// ConnectMCPServers connects the servers of configJSON, the mcp.json format:
// {"mcpServers": {"<name>": {"command": ..., "args": [...]} or {"url": ...,
// "headers": {...}}}}, and registers their tools in tools. A server that fails to
// connect is retried in the background and StatusJSON says why; only a bad document is
// an error (InvalidArgument naming the key).
func ConnectMCPServers(configJSON string, tools *ToolRegistry) (*MCPServers, error) {
	if err := ensureABICompatible(); err != nil {
		return nil, err
	}
	if tools == nil {
		return nil, &Error{Code: StatusInvalidArgument, Message: "tools: nil"}
	}
	var strs cStrings
	defer strs.free()
	config, err := strs.add("configJSON", configJSON, false)
	if err != nil {
		return nil, err
	}
	servers := &MCPServers{}
	err = tools.use(func(registry *C.hermes_tool_registry_t) error {
		var cerr *C.hermes_error_t
		status := C.hermes_mcp_servers_connect(config, registry, &servers.ptr, &cerr)
		return errorFrom(status, cerr)
	})
	if err != nil {
		return nil, err
	}
	runtime.SetFinalizer(servers, (*MCPServers).Close)
	return servers, nil
}

// StatusJSON is a JSON list with one object per server: name, connected,
// protocol_version, server_name, server_version, tools, skipped_tools, restarts,
// last_error.
func (s *MCPServers) StatusJSON() (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ptr == nil {
		return "", errClosed("MCP servers")
	}
	var out *C.char
	var cerr *C.hermes_error_t
	if err := errorFrom(C.hermes_mcp_servers_status(s.ptr, &out, &cerr), cerr); err != nil {
		return "", err
	}
	return takeString(out), nil
}

// Close disconnects the servers and removes their tools. Closing twice is harmless.
func (s *MCPServers) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	C.hermes_mcp_servers_freep(&s.ptr)
	runtime.SetFinalizer(s, nil)
	return nil
}
