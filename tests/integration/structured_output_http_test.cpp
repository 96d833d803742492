// Structured output over HTTP on the three wire formats: the schema goes on the request
// the way each format takes it, the answer is checked and parsed, an answer that does not
// match is sent back with what is wrong, and after the last repair the turn fails with the
// raw text.
#include "integration/loop_http_fixture.hpp"

using namespace hermes;
using namespace hermes::testing;

namespace {

const Json kCitySchema = Json::parse(R"({
  "type": "object",
  "properties": {
    "city": {"type": "string"},
    "population": {"type": "integer", "minimum": 0}
  },
  "required": ["city", "population"],
  "additionalProperties": false
})");

const char* const kGood = R"({"city": "Paris", "population": 2100000})";
const char* const kMissing = R"({"city": "Paris"})";

AgentOptions with_schema(LoopHttpFixture& f, const std::string& api_mode = "") {
  AgentOptions o = f.options();
  o.provider.api_mode = api_mode;
  o.output.schema = kCitySchema;
  o.output.name = "city_answer";
  return o;
}

// The text of the last user message of a request.
std::string last_user_text(const Json& body) {
  std::string text;
  for (const Json& m : body["messages"]) {
    if (m.value("role", "") != "user") continue;
    if (m["content"].is_string()) text = m["content"];
    if (m["content"].is_array()) {
      for (const Json& part : m["content"]) {
        if (part.value("type", "") == "text") text = part.value("text", "");
        if (part.value("type", "") == "tool_result") text = part["content"].dump();
      }
    }
  }
  return text;
}

}  // namespace

TEST_CASE("Chat Completions: response_format carries the schema, and one repair round") {
  LoopHttpFixture f;
  f.server.enqueue(chat::text(kMissing, true));
  f.server.enqueue(chat::text(kGood, true));
  auto agent = f.agent(with_schema(f));

  ConversationResult r = agent->run_conversation("Which city, and how many live there?");
  REQUIRE_MESSAGE(r.completed, r.error);
  REQUIRE(r.output.has_value());
  CHECK(*r.output == Json::parse(kGood));
  CHECK(r.to_json()["output"] == Json::parse(kGood));
  CHECK(r.final_response == kGood);

  auto requests = f.server.requests();
  REQUIRE(requests.size() == 2);
  CHECK(
      requests[0].json()["response_format"] ==
      Json{{"type", "json_schema"},
           {"json_schema", {{"name", "city_answer"}, {"schema", kCitySchema}, {"strict", true}}}});
  const std::string repair = last_user_text(requests[1].json());
  CHECK(repair.find("missing required property 'population'") != std::string::npos);
  CHECK(f.log.has_status("warning", "does not match the output schema"));
  // The rejected answer and the repair prompt are not kept in the transcript.
  CHECK(roles_of(r.messages) == "user assistant");
}

TEST_CASE("Responses: text.format carries the schema; a fenced JSON answer is read") {
  LoopHttpFixture f;
  f.server.enqueue(responses::text(std::string("```json\n") + kGood + "\n```", true));
  auto agent = f.agent(with_schema(f, "codex_responses"));

  ConversationResult r = agent->run_conversation("Which city?");
  REQUIRE_MESSAGE(r.completed, r.error);
  REQUIRE(r.output.has_value());
  CHECK((*r.output)["population"] == 2100000);
  const Json body = f.server.requests()[0].json();
  CHECK(body["text"]["format"] == Json{{"type", "json_schema"},
                                       {"name", "city_answer"},
                                       {"schema", kCitySchema},
                                       {"strict", true}});
}

TEST_CASE("Anthropic: the answer is a forced tool call, repaired once through its result") {
  LoopHttpFixture f;
  f.server.enqueue(anthropic::tool_calls({{"toolu_1", "city_answer", kMissing}}, true));
  f.server.enqueue(anthropic::tool_calls({{"toolu_2", "city_answer", kGood}}, true));
  AgentOptions o = with_schema(f, "anthropic_messages");
  o.provider.provider = "anthropic";
  auto agent = f.agent(o);

  ConversationResult r = agent->run_conversation("Which city?");
  REQUIRE_MESSAGE(r.completed, r.error);
  REQUIRE(r.output.has_value());
  CHECK(*r.output == Json::parse(kGood));
  CHECK(r.exit_reason == "structured_output(city_answer)");

  auto requests = f.server.requests();
  REQUIRE(requests.size() == 2);
  const Json first = requests[0].json();
  CHECK(first["tool_choice"] == Json{{"type", "any"}});
  bool offered = false;
  for (const Json& tool : first["tools"]) {
    if (tool.value("name", "") == "city_answer") offered = tool["input_schema"] == kCitySchema;
  }
  CHECK(offered);
  CHECK(last_user_text(requests[1].json()).find("missing required property 'population'") !=
        std::string::npos);
  // Every tool call of the transcript has its result, and the answer closes it.
  CHECK(roles_of(r.messages) == "user assistant tool assistant tool assistant");
  CHECK(Json::parse(r.messages.back().content) == Json::parse(kGood));
}

TEST_CASE("after the last repair the turn fails with the raw text and what was wrong") {
  LoopHttpFixture f;
  f.server.enqueue(chat::text(kMissing, true));
  f.server.enqueue(chat::text("Paris, about two million.", true));
  AgentOptions o = with_schema(f);
  o.output.max_repairs = 1;
  auto agent = f.agent(o);

  ConversationResult r = agent->run_conversation("Which city?");
  CHECK_FALSE(r.completed);
  CHECK(r.failed);
  CHECK(r.exit_reason == "output_schema_mismatch");
  CHECK(r.error == "output_schema_mismatch: the answer is not valid JSON");
  CHECK(r.final_response == "Paris, about two million.");
  CHECK_FALSE(r.output.has_value());
  CHECK(f.server.requests().size() == 2);
}

TEST_CASE("a schema that is not usable is refused before any call") {
  LoopHttpFixture f;
  AgentOptions o = f.options();
  o.output.schema = Json::parse(R"({"type": "string"})");
  auto refused = Agent::create(o);
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.status().message().find("output.schema: the answer must be a JSON object") == 0);

  o.output.schema = Json::parse(R"({"type": "object", "properties": {"a": {"type": "strin"}}})");
  refused = Agent::create(o);
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.status().message() == "output.schema.properties.a.type: unknown type \"strin\"");

  o.output.schema =
      Json::parse(R"({"type": "object", "properties": {"a": {"$ref": "#/$defs/x"}}})");
  refused = Agent::create(o);
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.status().message().find("does not resolve") != std::string::npos);

  o.output.schema = kCitySchema;
  o.output.name = "has space";
  CHECK_FALSE(Agent::create(o).ok());
  CHECK(f.server.request_count() == 0);
}

TEST_CASE("a per-turn schema applies to that turn only; a bad one fails it before any call") {
  LoopHttpFixture f;
  f.server.enqueue(chat::text(kGood, true));
  f.server.enqueue(chat::text("Plain words.", true));
  auto agent = f.agent(f.options());  // No schema on the agent.

  TurnOptions turn;
  turn.output = AgentOptions::Output{kCitySchema, "city_answer", 1};
  ConversationResult r = agent->run_conversation("Which city?", turn);
  REQUIRE_MESSAGE(r.completed, r.error);
  REQUIRE(r.output.has_value());
  CHECK(*r.output == Json::parse(kGood));

  ConversationResult plain = agent->run_conversation("And in words?");
  REQUIRE_MESSAGE(plain.completed, plain.error);
  CHECK_FALSE(plain.output.has_value());
  auto requests = f.server.requests();
  REQUIRE(requests.size() == 2);
  CHECK(requests[0].json()["response_format"]["json_schema"]["name"] == "city_answer");
  CHECK_FALSE(requests[1].json().contains("response_format"));

  TurnOptions bad;
  bad.output = AgentOptions::Output{Json::parse(R"({"type": "string"})"), "x", 1};
  ConversationResult refused = agent->run_conversation("Again?", bad);
  CHECK(refused.failed);
  CHECK(refused.exit_reason == "invalid_output_schema");
  CHECK(refused.error.find("output.schema") != std::string::npos);
  CHECK(f.server.requests().size() == 2);
  CHECK(agent->history().size() == 4);  // The refused turn added nothing.
}
