#include "store/search_context.hpp"

#include "store/code_points.hpp"

namespace hermes::store {

SearchContextMessage context_message(int64_t id, const MessageRow& row) {
  SearchContextMessage context;
  context.message_id = id;
  context.role = row.role;
  if (auto m = decode_message(row)) {
    std::u32string text = to_code_points(m->content);
    if (text.size() > kContextChars) text.resize(kContextChars);
    context.content = to_utf8(text);
  }
  return context;
}

}  // namespace hermes::store
