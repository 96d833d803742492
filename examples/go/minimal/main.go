// hermes from Go: one tool, one question.
//
//	OPENAI_API_KEY=sk-... go run ./minimal "What is 2 + 40?"
//
// OPENAI_BASE_URL selects another OpenAI-compatible endpoint, HERMES_MODEL the model,
// HERMES_MCP_CONFIG an mcp.json file whose MCP servers add their tools.
package main

import (
	"encoding/json"
	"fmt"
	"log"
	"os"

	"github.com/hermes-runtime/hermes/bindings/go/hermes"
)

func main() {
	tools, err := hermes.NewToolRegistry()
	if err != nil {
		log.Fatal(err)
	}
	defer tools.Close()
	err = tools.Add(hermes.Tool{
		Name:        "add",
		Description: "Add two numbers.",
		Parameters: `{"type": "object", "required": ["a", "b"],
		              "properties": {"a": {"type": "number"}, "b": {"type": "number"}}}`,
	}, func(call *hermes.ToolCall) (string, error) {
		var args struct{ A, B float64 }
		if err := json.Unmarshal([]byte(call.Arguments()), &args); err != nil {
			return "", err
		}
		return fmt.Sprintf(`{"sum": %g}`, args.A+args.B), nil
	})
	if err != nil {
		log.Fatal(err)
	}
	if path := os.Getenv("HERMES_MCP_CONFIG"); path != "" {
		config, err := os.ReadFile(path) // {"mcpServers": {"files": {"command": ...}, ...}}
		if err != nil {
			log.Fatal(err)
		}
		servers, err := hermes.ConnectMCPServers(string(config), tools)
		if err != nil {
			log.Fatal(err)
		}
		defer servers.Close()
	}

	agent, err := hermes.NewAgent(
		hermes.WithModel(getenv("HERMES_MODEL", "gpt-4.1-mini")),
		hermes.WithBaseURL(getenv("OPENAI_BASE_URL", "https://api.openai.com/v1")),
		hermes.WithAPIKey(os.Getenv("OPENAI_API_KEY")),
		hermes.WithPersistSessions(false),
		hermes.WithTools(tools),
	)
	if err != nil {
		log.Fatal(err)
	}
	defer agent.Close()

	question := "What is 2 + 40? Use the add tool."
	if len(os.Args) > 1 {
		question = os.Args[1]
	}
	answer, err := agent.Chat(question)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(answer)
}

func getenv(name, fallback string) string {
	if value := os.Getenv(name); value != "" {
		return value
	}
	return fallback
}
