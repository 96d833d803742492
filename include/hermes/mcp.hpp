// hermes/mcp.hpp — tools from Model Context Protocol servers, offered to the model like
// any other tool.
//
// A configured server is either a child process speaking JSON-RPC over its stdin and
// stdout, or a remote endpoint reached over Streamable HTTP (a url). Its tools are
// registered into a ToolRegistry under the toolset "mcp-<server>" with names "mcp_<server>_<tool>",
// and stay in step with the server: a tools/list_changed notification re-lists them, and a server
// that dies is restarted with backoff while its tools are reported unavailable.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "hermes/export.hpp"
#include "hermes/json.hpp"
#include "hermes/status.hpp"
#include "hermes/tool.hpp"

namespace hermes {

// A server asking the user for input while it works (elicitation/create, form mode).
struct McpElicitation {
  std::string server;     // The configured name of the server asking.
  std::string message;    // What to show the user.
  Json requested_schema;  // A JSON Schema of a flat object: the fields to fill in.
};

// The user's answer to an McpElicitation.
struct McpElicitationResult {
  // "accept" (with `content`), "decline" (the user said no) or "cancel" (dismissed).
  std::string action = "decline";
  Json content = Json::object();  // The filled-in object, sent only when accepted.
};

// Answers an McpElicitation. Runs on the thread that receives the server's messages, and
// the call that led to the question waits for it (its timeout still runs). May throw:
// the server is then told the request failed.
using McpElicitationHandler = std::function<McpElicitationResult(const McpElicitation&)>;

// The step of an OAuth authorization that needs the user, which a library cannot take:
// show `authorization_url` (normally by opening it in a browser), wait until the
// authorization server sends the browser to the configured redirect URI, and return the
// URL it landed on (its "code" and "state" parameters are read from it) or the bare
// authorization code. An error ends the attempt, and the server's connection fails with
// it. Runs on a connection thread while the request that needed authorization waits, so
// the user's time counts against that request's timeout (connect_timeout for the
// handshake). May be called again later: for more scopes, or when a token is revoked;
// calls for different servers may overlap. May throw: the attempt fails with the message.
using McpAuthorizationHandler =
    std::function<Result<std::string>(const std::string& authorization_url)>;

// OAuth 2.1 authorization of a remote server, as MCP specifies it (2025-03-26 to
// 2025-11-25). When the server answers 401, hermes discovers its authorization server
// (Protected Resource Metadata, then Authorization Server Metadata), identifies itself
// (the pre-registered client below, else a Client ID Metadata Document URL when the
// server accepts one, else Dynamic Client Registration), and obtains a token with the
// authorization code grant and PKCE through `on_authorize`. Tokens are refreshed when
// they expire, and a 403 asking for more scope is answered by authorizing again (twice
// at most per request).
struct McpOAuthConfig {
  // False: a 401 is an error like any other. An Authorization header among the
  // configured headers has the same effect: those credentials are sent as they are.
  bool enabled = true;

  // A client registered with the authorization server beforehand (its client_secret is
  // empty for a public client).
  std::string client_id;
  std::string client_secret;
  // An https URL where this client's metadata document is published, offered as the
  // client_id to servers that support Client ID Metadata Documents.
  std::string client_metadata_url;
  // Registering dynamically: the client_name to register under.
  std::string client_name = "hermes";

  // The scopes to ask for, space-separated. Empty: those the server's challenge names,
  // else all it advertises, else none (plus offline_access when the authorization
  // server offers it, for a refresh token).
  std::string scope;

  // "authorization_code" (a user authorizes through `on_authorize`) or
  // "client_credentials" (a machine client: client_id and client_secret, no user).
  std::string grant_type = "authorization_code";

  // Where the authorization server sends the browser back to: a listener of the
  // application's, which `on_authorize` waits on.
  std::string redirect_uri = "http://127.0.0.1:8976/callback";
  McpAuthorizationHandler on_authorize;

  // Tokens and the registered client are kept in "<token_dir>/<server>.json" and
  // "<server>.client.json" (mode 0600) and reused by the next connection. An empty
  // token_dir is "<home>/mcp-tokens". False: kept in memory only.
  bool persist_tokens = true;
  std::string token_dir;
};

// How to reach one MCP server and which of its tools to offer.
struct McpServerConfig {
  // Names the server in tool names, the toolset and log lines. Required.
  std::string name;

  // A local server: the program to run (looked up in PATH when it has no slash), its
  // arguments, extra environment variables (added to this process's environment) and
  // working directory (empty: this process's). The server does not inherit this
  // process's secrets (variables named like *_API_KEY, *_TOKEN, *SECRET*, *PASSWORD*,
  // AWS_*_KEY*, AZURE_*, GOOGLE_APPLICATION_CREDENTIALS; TerminalOptions says which):
  // give it what it needs in `env` ("${VAR}" takes it from this process's environment),
  // or name inherited variables to keep in `env_passthrough`.
  std::string command;
  std::vector<std::string> args;
  std::map<std::string, std::string> env;
  std::string cwd;
  std::vector<std::string> env_passthrough;

  // A remote server (Streamable HTTP, protocol 2025-03-26 and later), used when `command`
  // is empty: the endpoint URL (http or https) and extra headers sent with every request
  // (e.g. Authorization). An endpoint that forgets the session (HTTP 404) or cannot be
  // reached is reconnected like a local server that died.
  std::string url;
  std::map<std::string, std::string> headers;
  // Authorization when the endpoint asks for it (HTTP 401). `on_authorize` is not part
  // of the configuration file.
  McpOAuthConfig oauth;

  bool enabled = true;

  // Tool filters by the server's own tool names. A non-empty include list offers only
  // those tools; otherwise every tool not in the exclude list is offered.
  std::vector<std::string> include_tools;
  std::vector<std::string> exclude_tools;

  // Limits: connecting (start-up and handshake), one tools/call (every progress
  // notification from the server restarts this clock), other requests (tools/list, ping).
  std::chrono::milliseconds connect_timeout{60'000};
  std::chrono::milliseconds call_timeout{300'000};
  std::chrono::milliseconds request_timeout{60'000};

  // Tools the server annotates destructiveHint: true ask Callbacks::on_approval before
  // each call (denied when the agent has no approval callback). False trusts the server.
  bool destructive_needs_approval = true;

  // Whether the server's tools may run at the same time as other tools of a batch. Off
  // by default: a server's tools often share state (files, a graph) the model does not see.
  bool parallel_calls = false;

  // Restarting a server that exits or breaks its connection: the first wait, doubled
  // after each failed attempt up to the maximum; after `max_restarts` consecutive failed
  // attempts the server stays down until McpServers::reconnect().
  std::chrono::milliseconds restart_backoff{1'000};
  std::chrono::milliseconds max_restart_backoff{60'000};
  int max_restarts = 5;

  // The largest JSON-RPC message accepted from the server; a larger one disconnects it.
  std::size_t max_message_bytes = 16u << 20;

  // Set: the client offers the elicitation capability and this answers the server's
  // questions. Empty: the capability is not offered, and a server that asks anyway is
  // told the method does not exist. Not part of the configuration file.
  McpElicitationHandler on_elicitation;
};

// Parses an MCP configuration document:
//
//   {"mcpServers": {"<name>": {"command": "npx", "args": ["-y", "pkg"],
//                              "env": {"K": "V"}, "cwd": "/dir",
//                              "env_passthrough": ["GITHUB_TOKEN"],
//                              "url": "https://...", "headers": {"K": "V"},
//                              "oauth": {"client_id": "...", "client_secret": "...",
//                                        "client_metadata_url": "https://...",
//                                        "scope": "a b", "redirect_uri": "http://...",
//                                        "grant_type": "authorization_code",
//                                        "persist_tokens": true, "enabled": true},
//                              "enabled": true, "disabled": false,
//                              "tools": {"include": [...], "exclude": [...]},
//                              "timeout": 300, "connect_timeout": 60,
//                              "destructive_needs_approval": true, "parallel": false}}}
//
// Timeouts are in seconds. "${VAR}" inside strings is replaced by the environment
// variable VAR when it is set. Unknown keys are logged and ignored. InvalidArgument names
// the offending key, e.g. "mcpServers.files.args[1]: expected a string".
HERMES_API Result<std::vector<McpServerConfig>> parse_mcp_config(std::string_view json_text);

// Reads and parses the configuration file at `path` (normally "<home>/mcp.json").
// NotFound when the file does not exist.
HERMES_API Result<std::vector<McpServerConfig>> load_mcp_config(const std::string& path);

// "<home>/mcp.json".
HERMES_API std::string default_mcp_config_path(const std::string& home);

// A snapshot of one server's connection.
struct McpServerStatus {
  std::string name;
  bool connected = false;
  std::string protocol_version;  // Agreed in the handshake.
  std::string server_name;       // serverInfo.name as the server reports it.
  std::string server_version;
  std::vector<std::string> tools;          // Registered hermes tool names, sorted.
  std::vector<std::string> skipped_tools;  // "<tool>: <reason>" for tools not registered.
  int restarts = 0;                        // Successful reconnects since the first connection.
  Status last_error;                       // Why the server is (or last was) disconnected.
};

// The MCP servers of a process (or of one agent) and the tools they registered.
//
// Thread-safety: every method may be called from any thread. The registered tool
// handlers may run concurrently; calls to one server are multiplexed over its single
// connection. Destroying the object disconnects every server and unregisters its tools.
class HERMES_API McpServers {
 public:
  // Connects every enabled server in `configs` (at the same time) and registers its tools
  // in `registry`. A server that fails to connect does not fail the others: its error is
  // in status(), and it is retried in the background like a server that died, unless
  // retrying cannot help: credentials the server refuses (HTTP 401 or 403, a failed
  // authorization) wait for reconnect(). Only a bad configuration (empty or duplicate
  // names, neither command nor url) is an error here.
  static Result<std::unique_ptr<McpServers>> connect(std::vector<McpServerConfig> configs,
                                                     std::shared_ptr<ToolRegistry> registry);

  ~McpServers();
  McpServers(const McpServers&) = delete;
  McpServers& operator=(const McpServers&) = delete;

  // One entry per configured server (disabled servers omitted), in configuration order.
  std::vector<McpServerStatus> status() const;

  // Sends a ping to `server`; ok when it answers within its request timeout.
  Status ping(std::string_view server);

  // Drops the connection to `server` (if any) and connects again now, resetting the
  // restart budget. Blocks until connected or failed.
  Status reconnect(std::string_view server);

 private:
  struct Impl;
  explicit McpServers(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace hermes
