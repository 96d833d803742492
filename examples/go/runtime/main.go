// hermes from Go: a turn on a Runtime, whose threads run many agents' turns at once.
// The turn runs while the program goes on; its result arrives on a channel.
//
//	OPENAI_API_KEY=sk-... go run ./runtime "What is 2 + 40?"
package main

import (
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
	err = tools.Add(hermes.Tool{Name: "add", Description: "Add two numbers."},
		func(call *hermes.ToolCall) (string, error) {
			fmt.Fprintf(os.Stderr, "[add called with %s]\n", call.Arguments())
			return `{"sum": 42}`, nil
		})
	if err != nil {
		log.Fatal(err)
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

	// One runtime serves every agent of the program; closing it ends their turns.
	rt, err := hermes.NewRuntime(hermes.RuntimeOptions{ToolWorkers: 4})
	if err != nil {
		log.Fatal(err)
	}
	defer rt.Close()
	results, err := agent.RunTurnAsync(rt, question)
	if err != nil {
		log.Fatal(err) // Refused: a bad argument, or the agent already runs a turn.
	}
	result := <-results // Or select on it beside other channels.
	if !result.Completed {
		log.Fatalf("the turn failed: %s", result.Raw)
	}
	fmt.Println(result.FinalResponse)
}

func getenv(name, fallback string) string {
	if value := os.Getenv(name); value != "" {
		return value
	}
	return fallback
}
