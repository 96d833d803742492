#include "providers/chat_chunk.hpp"

#include <optional>
#include <utility>

#include "common/text_utils.hpp"
#include "providers/ondemand_json.hpp"

namespace hermes::internal {
namespace {

using namespace ondemand;

// Errors inside an object or array are remembered and end the read.
class Reading : public FieldWalker {
 public:
  explicit Reading(ChatChunk& out) : out_(out) {}

  void usage(od::value& value);
  void payload(od::value& value, bool is_completion);
  void tool_calls(od::value& value, bool is_completion);
  void tool_call(od::value& value, int position, bool is_completion);
  void content(od::value& value);
  void choices(od::value& value, bool is_completion);

 private:
  ChatChunk& out_;
};

void Reading::usage(od::value& value) {
  od::object object;
  if (!is(value, json_type::object) || (error = value.get_object().get(object))) return;
  Usage& usage = out_.usage;
  usage = Usage{};
  usage.reported = true;
  out_.has_usage = true;
  int64_t cached = 0;
  std::optional<int64_t> cache_hits;  // DeepSeek's own field wins over cached_tokens.
  each_field(object, [&](std::string_view key, od::value field) {
    if (key == "prompt_tokens") {
      usage.input_tokens = count_of(field);
    } else if (key == "completion_tokens") {
      usage.output_tokens = count_of(field);
    } else if (key == "prompt_cache_hit_tokens") {
      cache_hits = count_of(field);
    } else if (key == "prompt_tokens_details" || key == "completion_tokens_details") {
      od::object details;
      if (!is(field, json_type::object) || (error = field.get_object().get(details))) return;
      each_field(details, [&](std::string_view name, od::value count) {
        if (name == "cached_tokens") cached = count_of(count);
        if (name == "cache_write_tokens") usage.cache_write_tokens = count_of(count);
        if (name == "reasoning_tokens") usage.reasoning_tokens = count_of(count);
      });
    }
  });
  usage.cache_read_tokens = cache_hits.value_or(cached);
}

void Reading::content(od::value& value) {
  if (is(value, json_type::string)) {
    out_.content = string_of(value);
    return;
  }
  // Some servers send content as a list of parts; keep the text of each.
  od::array parts;
  if (!is(value, json_type::array) || (error = value.get_array().get(parts))) return;
  std::string& text = out_.content_storage;
  for (auto part : parts) {
    od::value element;
    if ((error = std::move(part).get(element))) return;
    if (!is(element, json_type::object)) continue;
    od::object object;
    if ((error = element.get_object().get(object))) return;
    each_field(object, [&](std::string_view key, od::value field) {
      if (key == "text") text.append(string_of(field));
    });
  }
  out_.content = text;
}

void Reading::tool_call(od::value& value, int position, bool is_completion) {
  od::object object;
  if (!is(value, json_type::object) || (error = value.get_object().get(object))) return;
  ToolCallDelta call;
  each_field(object, [&](std::string_view key, od::value field) {
    if (key == "index") {
      call.has_index = is(field, json_type::number);
      call.index = static_cast<int>(count_of(field));
    } else if (key == "id") {
      if (is(field, json_type::number)) {
        call.id = trim_ascii(field.raw_json_token());
      } else {
        call.id = string_of(field);
      }
    } else if (key == "extra_content") {
      call.extra_content = raw_json_of(field);
    } else if (key == "function") {
      od::object function;
      if (!is(field, json_type::object) || (error = field.get_object().get(function))) return;
      each_field(function, [&](std::string_view name, od::value member) {
        if (name == "name") call.name = string_of(member);
        if (name != "arguments") return;
        // A few servers send the arguments as an object rather than as JSON text.
        call.arguments = is(member, json_type::string) ? string_of(member) : raw_json_of(member);
      });
    }
  });
  // A whole response lists its calls in order, without indexes.
  if (is_completion && !call.has_index) {
    call.index = position;
    call.has_index = true;
  }
  out_.tool_calls.push_back(std::move(call));
}

void Reading::tool_calls(od::value& value, bool is_completion) {
  od::array calls;
  if (!is(value, json_type::array) || (error = value.get_array().get(calls))) return;
  int position = 0;
  for (auto entry : calls) {
    od::value element;
    if ((error = std::move(entry).get(element))) return;
    tool_call(element, position++, is_completion);
    if (error) return;
  }
}

void Reading::payload(od::value& value, bool is_completion) {
  od::object object;
  if (!is(value, json_type::object) || (error = value.get_object().get(object))) return;
  std::string_view reasoning_content, reasoning;
  each_field(object, [&](std::string_view key, od::value field) {
    if (key == "content") {
      content(field);
    } else if (key == "reasoning_content") {
      reasoning_content = string_of(field);
    } else if (key == "reasoning") {
      reasoning = string_of(field);
    } else if (key == "reasoning_details") {
      out_.reasoning_details = raw_json_of(field);
    } else if (key == "tool_calls") {
      tool_calls(field, is_completion);
    }
  });
  out_.reasoning = reasoning_content.empty() ? reasoning : reasoning_content;
}

void Reading::choices(od::value& value, bool is_completion) {
  od::array list;
  if (!is(value, json_type::array) || (error = value.get_array().get(list))) return;
  // Only the first choice matters: hermes never asks for more than one.
  for (auto entry : list) {
    od::value element;
    if ((error = std::move(entry).get(element))) return;
    if (out_.has_choice || !is(element, json_type::object)) continue;
    out_.has_choice = true;
    od::object choice;
    if ((error = element.get_object().get(choice))) return;
    each_field(choice, [&](std::string_view key, od::value field) {
      if (key == (is_completion ? "message" : "delta")) {
        payload(field, is_completion);
      } else if (key == "finish_reason") {
        out_.finish_reason = string_of(field);
      }
    });
    if (error) return;
  }
}

}  // namespace

struct ChatChunkReader::Parser : ondemand::Parser {};

ChatChunkReader::ChatChunkReader() : parser_(std::make_unique<Parser>()) {}
ChatChunkReader::~ChatChunkReader() = default;

void ChatChunk::clear() {
  id = model = content = reasoning = reasoning_details = finish_reason = {};
  has_choice = has_usage = is_error = false;
  tool_calls.clear();
  usage = Usage{};
  content_storage.clear();
}

bool ChatChunkReader::read(std::string_view json, bool is_completion, ChatChunk& out,
                           std::string& error) {
  out.clear();
  od::document document;
  od::object root;
  Reading reading(out);
  reading.error = parser_->parse(json, document);
  if (!reading.error) reading.error = document.get_object().get(root);
  if (!reading.error) {
    reading.each_field(root, [&](std::string_view key, od::value field) {
      if (key == "id") {
        out.id = string_of(field);
      } else if (key == "model") {
        out.model = string_of(field);
      } else if (key == "choices") {
        reading.choices(field, is_completion);
      } else if (key == "usage") {
        reading.usage(field);
      } else if (key == "error") {
        out.is_error = out.is_error || truthy(field);
      } else if (key == "object") {
        out.is_error = out.is_error || string_of(field) == "error";
      } else if (key == "error_type" || key == "error_message") {
        out.is_error = out.is_error || truthy(field);
      }
    });
  }
  if (reading.error) {
    error = simdjson::error_message(reading.error);
    return false;
  }
  return true;
}

}  // namespace hermes::internal
