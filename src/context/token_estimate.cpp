#include "hermes/token_estimate.hpp"

#include <array>
#include <string_view>

#include "common/byte_scan.hpp"
#include "common/json_text.hpp"
#include "common/utf8.hpp"
#include "context/message_budget.hpp"
#include "context/message_parts.hpp"
#include "context/message_token_count.hpp"

namespace hermes {
namespace {

// Scripts a tokenizer spends about one token per character on: Hangul Jamo, CJK radicals
// through unified ideographs (with kana and CJK punctuation), Hangul Jamo extended,
// Hangul syllables, CJK compatibility ideographs, and full- and half-width forms.
bool is_token_dense(char32_t cp) {
  return (cp >= 0x1100 && cp <= 0x11FF) || (cp >= 0x2E80 && cp <= 0x9FFF) ||
         (cp >= 0xA960 && cp <= 0xA97F) || (cp >= 0xAC00 && cp <= 0xD7AF) ||
         (cp >= 0xF900 && cp <= 0xFAFF) || (cp >= 0xFF00 && cp <= 0xFFEF);
}

// Keys that are stored with a message but never sent to a provider.
constexpr std::array<std::string_view, 4> kStorageOnlyKeys = {"timestamp", "display_kind",
                                                              "finish_reason", "api_content"};

// The message as it goes on the wire, with image parts removed (counted separately):
// api_content replaces content, and private and storage-only keys are dropped.
Json wire_form_without_images(const Message& m, int64_t& images) {
  Json j = message_to_json(m);
  if (!m.api_content.empty()) j["content"] = m.api_content;
  for (auto key : kStorageOnlyKeys) j.erase(std::string(key));
  for (auto it = j.begin(); it != j.end();) {
    it = it.key().rfind('_', 0) == 0 ? j.erase(it) : std::next(it);
  }
  auto content = j.find("content");
  if (content != j.end() && content->is_array()) {
    Json kept = Json::array();
    for (const auto& part : *content) {
      if (internal::is_image_part(part)) {
        ++images;
      } else {
        kept.push_back(part);
      }
    }
    *content = std::move(kept);
  }
  return j;
}

// Token-dense characters and other bytes of a text, the two quantities the estimate is
// made of.
struct TextCount {
  int64_t dense = 0;
  int64_t other_bytes = 0;

  int64_t tokens() const { return dense + (other_bytes + 3) / 4; }

  void add_text(std::string_view text) {
    for (std::size_t i = 0; i < text.size();) {
      const auto b = static_cast<unsigned char>(text[i]);
      if (b < 0x80) {  // The common case, kept tight.
        ++other_bytes;
        ++i;
        continue;
      }
      const internal::Utf8Char c = internal::decode_utf8_at(text, i);
      if (c.valid() && is_token_dense(c.cp)) {
        ++dense;
      } else {
        other_bytes += static_cast<int64_t>(c.length);  // An invalid byte counts as one.
      }
      i += c.length;
    }
  }

  // A string as the JSON serialiser writes it (quoted, escaped), without writing it: one
  // pass that counts, escapes and checks the UTF-8 at once.
  void add_json_string(const std::string& text) {
    TextCount here;
    here.other_bytes = 2;  // The quotes.
    const auto* p = reinterpret_cast<const unsigned char*>(text.data());
    const std::size_t n = text.size();
    for (std::size_t i = 0; i < n;) {
      const std::size_t plain = internal::json_plain_prefix(text.data() + i, n - i);
      here.other_bytes += static_cast<int64_t>(plain);
      i += plain;
      if (i == n) break;
      const unsigned char b = p[i];
      if (b == '"' || b == '\\') {
        here.other_bytes += 2;
        ++i;
        continue;
      }
      if (b < 0x20) {
        const bool short_form = b == '\b' || b == '\f' || b == '\n' || b == '\r' || b == '\t';
        here.other_bytes += short_form ? 2 : 6;  // "\n", or "\u00XX".
        ++i;
        continue;
      }
      const internal::Utf8Char c = internal::decode_utf8_at(text, i);
      if (!c.valid()) {  // Rare: let the serialiser replace what is broken.
        add_text(internal::dump_json(Json(text)));
        return;
      }
      if (is_token_dense(c.cp)) {
        ++here.dense;
      } else {
        here.other_bytes += static_cast<int64_t>(c.length);
      }
      i += c.length;
    }
    dense += here.dense;
    other_bytes += here.other_bytes;
  }

  // `value` as dump_json would write it, counted directly: serialising the whole
  // transcript on every estimate cost more than the request itself.
  void add_json(const Json& value) {
    switch (value.type()) {
      case Json::value_t::string:
        add_json_string(value.get_ref<const std::string&>());
        break;
      case Json::value_t::object: {
        other_bytes += 2;  // Braces.
        bool first = true;
        for (auto it = value.begin(); it != value.end(); ++it) {
          other_bytes += first ? 1 : 2;  // The colon, and a comma before all but the first.
          first = false;
          add_json_string(it.key());
          add_json(it.value());
        }
        break;
      }
      case Json::value_t::array: {
        other_bytes += 2;                                                           // Brackets.
        if (!value.empty()) other_bytes += static_cast<int64_t>(value.size()) - 1;  // Commas.
        for (const auto& element : value) add_json(element);
        break;
      }
      default:  // Numbers, booleans, null: short, written by the serialiser.
        add_text(internal::dump_json(value));
        break;
    }
  }
};

}  // namespace

int64_t estimate_tokens_rough(std::string_view text) {
  TextCount count;
  count.add_text(text);
  return count.tokens();
}

int64_t estimate_messages_tokens_rough(const std::vector<Message>& messages) {
  internal::MessageTokenCount sum;
  for (const auto& m : messages) sum += internal::count_message_tokens(m);
  return internal::list_tokens(sum, messages.size());
}

int64_t estimate_messages_tokens_rough(const Json& messages) {
  auto parsed = messages_from_json(messages);
  if (parsed.ok()) return estimate_messages_tokens_rough(*parsed);
  return estimate_tokens_rough(internal::dump_json(messages));
}

int64_t estimate_tools_tokens_rough(const Json& tools) {
  int64_t chars = 0;
  if (!tools.is_array()) return 0;
  for (const auto& tool : tools) {
    if (!tool.is_object()) continue;
    const Json& fn = tool.contains("function") ? tool["function"] : tool;
    if (!fn.is_object()) continue;
    if (auto n = fn.find("name"); n != fn.end() && n->is_string())
      chars += static_cast<int64_t>(n->get_ref<const std::string&>().size());
    if (auto d = fn.find("description"); d != fn.end() && d->is_string())
      chars += static_cast<int64_t>(d->get_ref<const std::string&>().size());
    if (auto p = fn.find("parameters"); p != fn.end())
      chars += static_cast<int64_t>(internal::dump_json(*p).size());
  }
  return chars / 4;
}

}  // namespace hermes

namespace hermes::internal {

MessageTokenCount count_message_tokens(const Message& message) {
  MessageTokenCount out;
  TextCount count;
  count.add_json(wire_form_without_images(message, out.images));
  out.dense = count.dense;
  out.other_bytes = count.other_bytes;
  return out;
}

int64_t list_tokens(const MessageTokenCount& sum, std::size_t messages) {
  TextCount count;
  count.dense = sum.dense;
  // The list's brackets and commas, as in the serialised list.
  count.other_bytes = sum.other_bytes + 2 + (messages > 0 ? static_cast<int64_t>(messages) - 1 : 0);
  return count.tokens() + sum.images * kImageTokens;
}

}  // namespace hermes::internal
