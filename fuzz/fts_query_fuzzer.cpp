// Full-text search queries: the FTS5 query sanitiser and its helpers on arbitrary text,
// then the same text searched in a small SQLite store (word, trigram and LIKE paths).
//
// Invariants: the helpers never throw and always produce valid UTF-8 without NUL (the
// sanitiser's phrase mark); the LIKE groups each hold a positive term; and, as
// SessionSearch::search promises, any text is a valid query: the store answers it (with
// hits or none) and never fails it as a syntax error.
#include <unistd.h>

#include <filesystem>
#include <memory>
#include <string>

#include "common/utf8.hpp"
#include "fuzz/fuzz_support.hpp"
#include "hermes/message.hpp"
#include "hermes/session_store.hpp"
#include "store/fts_query.hpp"

namespace {

using hermes::fuzz::require;
using hermes::internal::is_valid_utf8;

void check_text(std::string_view text, const char* what) {
  require(is_valid_utf8(text), what, text);
  require(text.find('\0') == std::string_view::npos, what, text);
}

// A store with a few rows for the queries to meet, shared by every run of the process.
hermes::SessionStore& store() {
  static const std::shared_ptr<hermes::SessionStore> instance = [] {
    const auto dir =
        std::filesystem::temp_directory_path() / ("hermes-fts-fuzz-" + std::to_string(::getpid()));
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    hermes::SqliteStoreOptions options;
    options.trigram_index = true;
    auto opened = hermes::open_sqlite_store((dir / "state.db").string(), options);
    if (!opened.ok()) hermes::fuzz::fail("cannot open the store", opened.status().to_string());
    hermes::SessionInfo info;
    info.id = "fuzz";
    require((*opened)->create_session(info).ok(), "cannot create the session");
    std::vector<hermes::Message> rows = {
        hermes::Message::user("deploy chat-send to P2.2 with my_app.config.ts"),
        hermes::Message::assistant("修改youer服务 然后 重启 the 서비스 server"),
        hermes::Message::tool("c1", "terminal", "error: \"quoted\" AND (grouped) OR NOT *star*")};
    require((*opened)->append_messages("fuzz", rows).ok(), "cannot append the rows");
    return *opened;
  }();
  return *instance;
}

void check_helpers(std::string_view query) {
  const std::string sanitized = hermes::store::sanitize_fts_query(query);
  check_text(sanitized, "the sanitised query is not clean UTF-8");
  check_text(hermes::store::quote_fts_tokens(sanitized), "quoted tokens are not clean UTF-8");
  (void)hermes::store::contains_cjk(sanitized);
  (void)hermes::store::trigram_can_answer_cjk(hermes::store::strip_quotes(sanitized));
  (void)hermes::store::trigram_can_answer_words(sanitized);
  (void)hermes::store::non_operator_tokens(sanitized);
  for (const auto& groups :
       {hermes::store::like_groups(sanitized), hermes::store::any_word_like_groups(sanitized)}) {
    for (const auto& group : groups) {
      bool positive = false;
      for (const auto& term : group) positive = positive || !term.negated;
      require(positive, "a LIKE group without a positive term");
    }
  }
  (void)hermes::store::escape_like(query);
  (void)hermes::store::mark_match("Some text to mark, with a term in it", query);
}

void check_search(const std::string& query, std::vector<std::string> roles) {
  hermes::SearchOptions options;
  options.roles = std::move(roles);
  options.include_context = true;
  const auto hits = store().search_capability()->search(query, options);
  require(hits.ok(), "the store failed a query", hits.status().to_string());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string query(hermes::fuzz::as_text(data, size));
  hermes::fuzz::no_throw("full-text query", [&] {
    check_helpers(query);
    check_search(query, {});
    check_search(query, {"tool"});
  });
  return 0;
}
