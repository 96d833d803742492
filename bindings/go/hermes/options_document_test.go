package hermes

import (
	"encoding/json"
	"errors"
	"os"
	"reflect"
	"strings"
	"testing"
)

// The options document: every option of tests/fixtures/options/every_option.json reaches
// the options through WithOptionsJSON, and a bad document is refused naming the option.

func decode(t *testing.T, text string) map[string]any {
	t.Helper()
	var value map[string]any
	if err := json.Unmarshal([]byte(text), &value); err != nil {
		t.Fatalf("%v: %s", err, text)
	}
	return value
}

func TestEveryOptionOfTheFixtureReadsBack(t *testing.T) {
	fixture, err := os.ReadFile("../../../tests/fixtures/options/every_option.json")
	if err != nil {
		t.Fatal(err)
	}
	back, err := OptionsJSON(WithOptionsJSON(string(fixture)))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(decode(t, back), decode(t, string(fixture))) {
		t.Fatalf("read back %s", back)
	}
}

func TestABadOptionsDocumentNamesTheOption(t *testing.T) {
	_, err := OptionsJSON(WithModel("kept"), WithOptionsJSON(`{"compression": {"threshold_percent": 2}}`))
	var herr *Error
	if !errors.As(err, &herr) || herr.Code != StatusInvalidArgument ||
		herr.Message != "compression.threshold_percent: must be at most 1" {
		t.Fatalf("got %v", err)
	}
	_, err = NewAgent(WithOptionsJSON(`{"modle": "x"}`))
	if err == nil || !strings.Contains(err.Error(), "modle: unknown option") {
		t.Fatalf("got %v", err)
	}
}

func TestSettersAndTheDocumentReachTheSameFields(t *testing.T) {
	// Options apply in order: the later one wins, whichever way it is given.
	back, err := OptionsJSON(WithOptionsJSON(`{"max_iterations": 7}`), WithMaxIterations(9))
	if err != nil || decode(t, back)["max_iterations"] != float64(9) {
		t.Fatalf("got %v %s", err, back)
	}
	back, err = OptionsJSON(WithMaxIterations(9), WithOptionsJSON(`{"max_iterations": 7}`))
	if err != nil || decode(t, back)["max_iterations"] != float64(7) {
		t.Fatalf("got %v %s", err, back)
	}
	described, err := DescribeOptions()
	if err != nil || !strings.Contains(described, `"name":"compression.threshold_percent"`) {
		t.Fatalf("got %v", err)
	}
}

func TestDurabilityIsFullNormalOrRefused(t *testing.T) {
	back, err := OptionsJSON(WithDurability("normal"))
	if err != nil || !strings.Contains(back, `"durability":"normal"`) {
		t.Fatalf("got %v %s", err, back)
	}
	var herr *Error
	if _, err := OptionsJSON(WithDurability("eventually")); !errors.As(err, &herr) ||
		herr.Code != StatusInvalidArgument {
		t.Fatalf("got %v", err)
	}
}
