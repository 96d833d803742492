// hermes from Go: the answer streamed as it is generated, tool calls reported as they
// run, and the result of the turn as a struct.
//
//	OPENAI_API_KEY=sk-... go run ./streaming "What is 2 + 40?"
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
			log.Printf("add called with %s", call.Arguments())
			return `{"sum": 42}`, nil
		})
	if err != nil {
		log.Fatal(err)
	}

	opts := []hermes.Option{
		hermes.WithModel("gpt-4.1-mini"),
		hermes.WithAPIKey(os.Getenv("OPENAI_API_KEY")),
		hermes.WithPersistSessions(false),
		hermes.WithTools(tools),
		hermes.WithStreamCallback(func(delta string) { fmt.Print(delta) }),
		hermes.WithToolProgressCallback(func(event string) { log.Printf("tool %s", event) }),
	}
	if url := os.Getenv("OPENAI_BASE_URL"); url != "" {
		opts = append(opts, hermes.WithBaseURL(url))
	}
	agent, err := hermes.NewAgent(opts...)
	if err != nil {
		log.Fatal(err)
	}
	defer agent.Close()

	question := "What is 2 + 40?"
	if len(os.Args) > 1 {
		question = os.Args[1]
	}
	result, err := agent.RunConversation(question)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println()
	log.Printf("completed=%v api_calls=%d exit_reason=%s", result.Completed, result.APICalls, result.ExitReason)
}
