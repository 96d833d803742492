// A memory provider implemented in C: a table of optional callbacks behind the
// hermes::MemoryProvider interface.
#include <algorithm>
#include <cstddef>
#include <cstring>

#include "c_internal.hpp"

using hermes::capi::report;

namespace {

using Table = hermes_memory_provider_callbacks_t;

// The size of the table's first version, the smallest accepted. Once callbacks are
// appended, a caller built against an older header passes a smaller struct_size and the
// callbacks past its end count as NULL.
constexpr std::size_t kFirstTableSize = offsetof(Table, shutdown) + sizeof(Table::shutdown);

// The caller's table up to its struct_size; what it does not have stays NULL.
Table copy_table(const Table& given) {
  Table table{};
  std::memcpy(&table, &given, std::min(given.struct_size, sizeof(Table)));
  table.struct_size = sizeof(Table);
  return table;
}

std::string transcript_json(const std::vector<hermes::Message>& messages) {
  return hermes::capi::to_json_text(hermes::messages_to_json(messages));
}

class CMemoryProvider final : public hermes::MemoryProvider {
 public:
  CMemoryProvider(std::string name, const Table& table,
                  std::shared_ptr<hermes::capi::UserData> data)
      : name_(std::move(name)), table_(table), data_(std::move(data)) {}

  // An agent shuts its provider down only when it is the last owner; options that outlive
  // every agent hold it too, so the provider closes itself when the options let it go.
  ~CMemoryProvider() override {
    if (initialized_ && !shut_down_) shutdown();
  }

  std::string name() const override { return name_; }

  void initialize(const std::string& session_id, const std::string& home) override {
    initialized_ = true;
    if (table_.initialize != nullptr)
      table_.initialize(session_id.c_str(), home.c_str(), user_data());
  }

  std::string system_prompt_block() override {
    if (table_.system_prompt_block == nullptr) return "";
    hermes_answer_t answer;
    table_.system_prompt_block(&answer, user_data());
    return answer.text.value_or("");
  }

  std::string prefetch(const std::string& query, const std::string& session_id) override {
    if (table_.prefetch == nullptr) return "";
    hermes_answer_t answer;
    table_.prefetch(query.c_str(), session_id.c_str(), &answer, user_data());
    return answer.text.value_or("");
  }

  void sync_turn(const std::string& user_content, const std::string& assistant_content,
                 const std::string& session_id,
                 const std::vector<hermes::Message>& messages) override {
    if (table_.sync_turn == nullptr) return;
    table_.sync_turn(user_content.c_str(), assistant_content.c_str(), session_id.c_str(),
                     transcript_json(messages).c_str(), user_data());
  }

  void on_session_switch(const hermes::MemorySessionSwitch& change) override {
    if (table_.on_session_switch == nullptr) return;
    const hermes::Json j{{"new_session_id", change.new_session_id},
                         {"parent_session_id", change.parent_session_id},
                         {"reset", change.reset}};
    table_.on_session_switch(hermes::capi::to_json_text(j).c_str(), user_data());
  }

  std::string on_compaction(const std::vector<hermes::Message>& discarded) override {
    if (table_.on_compaction == nullptr) return "";
    hermes_answer_t answer;
    table_.on_compaction(transcript_json(discarded).c_str(), &answer, user_data());
    return answer.text.value_or("");
  }

  void on_memory_write(const std::string& action, const std::string& target,
                       const std::string& content) override {
    if (table_.on_memory_write == nullptr) return;
    table_.on_memory_write(action.c_str(), target.c_str(), content.c_str(), user_data());
  }

  void on_session_end(const std::vector<hermes::Message>& messages) override {
    if (table_.on_session_end == nullptr) return;
    table_.on_session_end(transcript_json(messages).c_str(), user_data());
  }

  void shutdown() override {
    shut_down_ = true;
    if (table_.shutdown != nullptr) table_.shutdown(user_data());
  }

 private:
  void* user_data() const { return data_->get(); }

  const std::string name_;
  const Table table_;
  std::shared_ptr<hermes::capi::UserData> data_;
  bool initialized_ = false;
  bool shut_down_ = false;
};

}  // namespace

extern "C" {

hermes_status_t hermes_agent_options_set_memory_provider(
    hermes_agent_options_t* o, const char* name,
    const hermes_memory_provider_callbacks_t* callbacks, void* user_data, hermes_destroy_fn destroy,
    hermes_error_t** out_error) {
  if (o == nullptr) return report(HERMES_ERR_INVALID_ARGUMENT, "options: NULL", out_error);
  if (callbacks == nullptr) {
    o->options.memory_provider = nullptr;
    return HERMES_OK;
  }
  if (name == nullptr || *name == '\0') {
    return report(HERMES_ERR_INVALID_ARGUMENT, "memory_provider: name is required", out_error);
  }
  if (callbacks->struct_size < kFirstTableSize) {
    return report(HERMES_ERR_INVALID_ARGUMENT,
                  "memory_provider: struct_size must be sizeof(hermes_memory_provider_callbacks_t)",
                  out_error);
  }
  return hermes::capi::guarded(out_error, [&] {
    // Ownership of user_data passes only once nothing can fail any more.
    auto data = std::make_shared<hermes::capi::UserData>(user_data, nullptr);
    o->options.memory_provider =
        std::make_shared<CMemoryProvider>(name, copy_table(*callbacks), data);
    data->adopt(destroy);
    return HERMES_OK;
  });
}

}  // extern "C"
