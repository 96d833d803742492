// clarify: ask the user a question (open, single choice or multiple choice) through
// Callbacks::on_clarify, or several independent questions at once.
#include <algorithm>

#include "common/json_text.hpp"
#include "common/text_utils.hpp"
#include "tools/builtin_toolsets.hpp"
#include "tools/tool_args.hpp"

namespace hermes::internal {
namespace {

constexpr std::size_t kMaxChoices = 4;
constexpr std::size_t kMaxQuestions = 5;
constexpr std::string_view kRecommended = "(Recommended)";
constexpr std::string_view kTimeoutResponse =
    "The user did not provide a response within the time limit. Use your best judgement to make "
    "the choice and proceed.";

constexpr const char* kClarifyDescription =
    "Ask the user when you need a clarification, feedback or a decision before going on. Offer "
    "up to 4 choices (the user can always type another answer; put the one you recommend first), "
    "set multi_select to let them pick several, or omit choices for a free-form answer. Several "
    "independent questions can go in one call through `questions`. Put options only in "
    "`choices`, never inside the question text. Do not use this to confirm dangerous commands "
    "(the terminal tool asks for those), and make low-stakes choices yourself.";

// Models sometimes send choices as objects ({"label": ...}) or as JSON text of one.
std::string flatten_choice(const Json& c) {
  if (c.is_string()) {
    const std::string text = strip(c.get<std::string>());
    if (text.size() > 1 && text.front() == '{' && text.back() == '}') {
      if (auto parsed = parse_json(text); parsed && parsed->is_object())
        return flatten_choice(*parsed);
    }
    return text;
  }
  if (c.is_object()) {
    for (const char* key : {"label", "description", "text", "title"}) {
      auto it = c.find(key);
      if (it != c.end() && it->is_string() && !strip(it->get<std::string>()).empty())
        return strip(it->get<std::string>());
    }
    return "";
  }
  if (c.is_array()) {
    std::string joined;
    for (const Json& part : c) joined += (joined.empty() ? "" : " ") + flatten_choice(part);
    return strip(joined);
  }
  return c.is_null() ? "" : strip(dump_json(c));
}

std::optional<std::vector<std::string>> normalize_choices(const Json& raw) {
  std::vector<std::string> out;
  for (const Json& c : raw) {
    if (std::string s = flatten_choice(c); !s.empty()) out.push_back(std::move(s));
  }
  if (out.size() > kMaxChoices) out.resize(kMaxChoices);
  if (out.empty()) return std::nullopt;
  return out;
}

bool ends_with_recommended(const std::string& s) {
  if (s.size() < kRecommended.size()) return false;
  return iequals(std::string_view(s).substr(s.size() - kRecommended.size()), kRecommended);
}

std::string strip_recommended(const std::string& text) {
  const std::string s = strip(text);
  return ends_with_recommended(s) ? strip(s.substr(0, s.size() - kRecommended.size())) : s;
}

// The first choice is labelled as the recommendation the user sees; the label is removed
// again from the answer the model gets.
std::vector<std::string> mark_recommended(std::vector<std::string> choices) {
  if (choices.size() >= 2 && !ends_with_recommended(choices[0]))
    choices[0] += " " + std::string(kRecommended);
  return choices;
}

// A multi-select answer: a JSON array, or comma-separated text.
Json parse_multi_select(const std::string& raw) {
  Json out = Json::array();
  const std::string text = strip(raw);
  if (!text.empty() && text[0] == '[') {
    if (auto parsed = parse_json(text); parsed && parsed->is_array()) {
      for (const Json& p : *parsed) {
        const std::string s =
            strip_recommended(p.is_string() ? p.get<std::string>() : dump_json(p));
        if (!s.empty()) out.push_back(s);
      }
      return out;
    }
  }
  for (std::size_t b = 0; b <= text.size();) {
    std::size_t e = text.find(',', b);
    if (e == std::string::npos) e = text.size();
    if (std::string s = strip_recommended(text.substr(b, e - b)); !s.empty()) out.push_back(s);
    b = e + 1;
  }
  return out;
}

struct Question {
  std::string id;
  std::string text;
  std::optional<std::vector<std::string>> choices;
  bool multi_select = false;
};

// Asks one question. nullopt: nobody answered in time.
Result<std::optional<std::string>> ask(const Callbacks& callbacks, const Question& q) {
  try {
    const std::vector<std::string> shown =
        q.choices ? mark_recommended(*q.choices) : std::vector<std::string>{};
    std::optional<std::string> answer = callbacks.on_clarify(q.text, shown);
    if (answer && strip(*answer) == kTimeoutResponse) return std::optional<std::string>();
    return answer;
  } catch (const std::exception& e) {
    return Status::unavailable(std::string("Failed to get user input: ") + e.what());
  }
}

Json response_value(const Question& q, const std::string& raw) {
  if (q.multi_select && q.choices) return parse_multi_select(raw);
  return strip_recommended(raw);
}

Json offered(const Question& q) {
  return q.choices ? Json(*q.choices) : Json();
}

Result<std::vector<Question>> parse_batch(const Json& raw) {
  if (!raw.is_array())
    return Status::invalid_argument("questions must be an array of question objects.");
  if (raw.size() > kMaxQuestions) {
    return Status::invalid_argument("questions supports at most " + std::to_string(kMaxQuestions) +
                                    " items.");
  }
  std::vector<Question> out;
  for (std::size_t i = 0; i < raw.size(); ++i) {
    const Json item = raw[i].is_string() ? Json{{"question", raw[i]}} : raw[i];
    const std::string at = "questions[" + std::to_string(i) + "]";
    if (!item.is_object())
      return Status::invalid_argument(at + " must be an object with a 'question'.");
    Question q;
    q.text = item.contains("question") && item["question"].is_string()
                 ? strip(item["question"].get<std::string>())
                 : "";
    if (q.text.empty()) return Status::invalid_argument(at + ".question must be non-empty text.");
    if (item.contains("choices") && !item["choices"].is_null()) {
      if (!item["choices"].is_array())
        return Status::invalid_argument(at + ".choices must be a list.");
      q.choices = normalize_choices(item["choices"]);
    }
    q.id =
        item.contains("id") && item["id"].is_string() ? strip(item["id"].get<std::string>()) : "";
    q.multi_select = item.value("multi_select", false) && q.choices.has_value();
    out.push_back(std::move(q));
  }
  return out;
}

// Questions are asked one at a time; when the user stops answering, the rest are skipped.
Result<std::string> run_batch(const Callbacks& callbacks, const std::vector<Question>& questions) {
  Json responses = Json::array();
  bool timed_out = false;
  for (const Question& q : questions) {
    Json row = {{"question", q.text}, {"choices_offered", offered(q)}, {"user_response", ""}};
    if (!q.id.empty()) row["id"] = q.id;
    if (!timed_out) {
      auto answer = ask(callbacks, q);
      if (!answer.ok()) return answer.status();
      if (!answer->has_value()) {
        timed_out = true;
      } else if (!strip(**answer).empty()) {
        row["user_response"] = response_value(q, **answer);
      }
    }
    responses.push_back(std::move(row));
  }
  Json result = {{"responses", std::move(responses)}};
  if (timed_out) result["timed_out"] = true;
  return dump_json(result);
}

Result<std::string> run_clarify(const Json& args, ToolContext& ctx) {
  const bool have_callback =
      ctx.callbacks != nullptr && static_cast<bool>(ctx.callbacks->on_clarify);
  if (args.is_object() && args.contains("questions") && !args["questions"].is_null()) {
    auto batch = parse_batch(args["questions"]);
    if (!batch.ok()) return batch.status();
    if (!batch->empty()) {
      if (!have_callback)
        return Status::unavailable("Clarify tool is not available in this execution context.");
      return run_batch(*ctx.callbacks, *batch);
    }
  }
  auto text = arg_optional_string(args, "question");
  if (!text.ok()) return text.status();
  Question q;
  q.text = strip(text->value_or(""));
  if (q.text.empty()) return Status::invalid_argument("Question text is required.");
  if (args.contains("choices") && !args["choices"].is_null()) {
    if (!args["choices"].is_array())
      return Status::invalid_argument("choices must be a list of strings.");
    q.choices = normalize_choices(args["choices"]);
  }
  auto multi = arg_bool(args, "multi_select", false);
  if (!multi.ok()) return multi.status();
  q.multi_select = *multi;
  if (!have_callback)
    return Status::unavailable("Clarify tool is not available in this execution context.");
  auto answer = ask(*ctx.callbacks, q);
  if (!answer.ok()) return answer.status();
  const std::string raw = answer->value_or(std::string(kTimeoutResponse));
  return dump_json({{"question", q.text},
                    {"choices_offered", offered(q)},
                    {"user_response", response_value(q, raw)}});
}

Json clarify_schema() {
  static const Json kSchema = Json::parse(R"({
    "type": "object",
    "properties": {
      "question": {"type": "string", "description": "The question only, without the options."},
      "choices": {
        "type": "array", "items": {"type": "string"}, "maxItems": 4,
        "description": "The options, one per element, recommended one first. Omit for a free-form answer."
      },
      "multi_select": {"type": "boolean", "description": "Let the user pick several choices; the answer is then a list."},
      "questions": {
        "type": "array", "maxItems": 5,
        "description": "2-5 independent questions asked together; each has its own choices. The result is {responses: [...]}.",
        "items": {
          "type": "object",
          "properties": {
            "id": {"type": "string"},
            "question": {"type": "string"},
            "choices": {"type": "array", "items": {"type": "string"}, "maxItems": 4},
            "multi_select": {"type": "boolean"}
          },
          "required": ["question"]
        }
      }
    },
    "required": ["question"]
  })");
  return kSchema;
}

}  // namespace

std::vector<ToolSpec> clarify_tools() {
  ToolSpec spec;
  spec.name = "clarify";
  spec.toolset = "clarify";
  spec.description = kClarifyDescription;
  spec.parameters = clarify_schema();
  spec.handler = run_clarify;
  spec.interactive = true;
  spec.parallel_safe = false;
  return {std::move(spec)};
}

}  // namespace hermes::internal
