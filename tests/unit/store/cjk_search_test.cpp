// Chinese and Japanese have no spaces between words: the word index sees a whole run of
// characters as one token, so CJK search goes through the trigram index (three or more
// characters per word) or a substring scan (shorter words).
#include <doctest/doctest.h>

#include "support/store_capabilities.hpp"
#include "unit/store/store_backends.hpp"

using hermes::Message;
using hermes::testing::create;
using hermes::testing::search_of;

namespace {

void seed_cjk(hermes::SessionStore& store) {
  create(store, "zh");
  create(store, "ja");
  REQUIRE(store
              .append_messages("zh", {Message::user("我喜欢机器学习和自然语言处理"),
                                      Message::assistant("我的计算机很快")})
              .ok());
  REQUIRE(store
              .append_messages("ja", {Message::user("東京で美味しいラーメンを食べました"),
                                      Message::assistant("日本語を勉強しています")})
              .ok());
}

std::vector<std::string> sessions_found(hermes::SessionStore& store, const std::string& query) {
  auto hits = search_of(store).search(query);
  REQUIRE_MESSAGE(hits.ok(), hits.status().to_string());
  std::vector<std::string> ids;
  for (const auto& hit : *hits) ids.push_back(hit.session_id);
  return ids;
}

}  // namespace

TEST_CASE_TEMPLATE("Chinese words of two, three and four characters are found inside sentences", B,
                   STORE_BACKENDS) {
  STORE_BACKEND(B, backend);
  seed_cjk(*backend.store);
  CHECK(sessions_found(*backend.store, "机器学习") == std::vector<std::string>{"zh"});
  CHECK(sessions_found(*backend.store, "计算机") == std::vector<std::string>{"zh"});
  CHECK(sessions_found(*backend.store, "学习") == std::vector<std::string>{"zh"});
  CHECK(sessions_found(*backend.store, "火车").empty());
}

TEST_CASE_TEMPLATE("Japanese words of two, three and four characters are found inside sentences", B,
                   STORE_BACKENDS) {
  STORE_BACKEND(B, backend);
  seed_cjk(*backend.store);
  CHECK(sessions_found(*backend.store, "ラーメン") == std::vector<std::string>{"ja"});
  CHECK(sessions_found(*backend.store, "日本語") == std::vector<std::string>{"ja"});
  CHECK(sessions_found(*backend.store, "東京") == std::vector<std::string>{"ja"});
  CHECK(sessions_found(*backend.store, "大阪").empty());
}

TEST_CASE_TEMPLATE("a CJK hit's snippet marks the match", B, STORE_BACKENDS) {
  STORE_BACKEND(B, backend);
  seed_cjk(*backend.store);
  auto long_word = search_of(backend.store).search("自然语言");
  REQUIRE(long_word.ok());
  REQUIRE(long_word->size() == 1);
  CHECK(long_word->front().snippet.find(">>>") != std::string::npos);
  auto short_word = search_of(backend.store).search("東京");
  REQUIRE(short_word.ok());
  REQUIRE(short_word->size() == 1);
  CHECK(short_word->front().snippet.find(">>>東京<<<") != std::string::npos);
}

TEST_CASE_TEMPLATE("short CJK words of an OR query each find their rows", B, STORE_BACKENDS) {
  STORE_BACKEND(B, backend);
  seed_cjk(*backend.store);
  auto found = sessions_found(*backend.store, "学习 OR 東京");
  std::sort(found.begin(), found.end());
  CHECK(found == std::vector<std::string>{"ja", "zh"});
}

TEST_CASE("a CJK word of three characters is answered by the trigram index") {
  hermes::testing::SqliteTrigramBackend backend;
  seed_cjk(*backend.store);
  auto hits = search_of(backend.store).search("计算机");
  REQUIRE(hits.ok());
  REQUIRE(hits->size() == 1);
  CHECK(hits->front().rank < 0);  // bm25 of an index, not the 0 of a scan.
  auto scan = search_of(backend.store).search("学习");
  REQUIRE(scan.ok());
  REQUIRE(scan->size() == 1);
  CHECK(scan->front().rank == 0);
}

TEST_CASE_TEMPLATE("a Latin word glued to CJK text is found as a substring", B,
                   hermes::testing::SqliteTrigramBackend, hermes::testing::MemoryBackend) {
  STORE_BACKEND(B, backend);
  create(*backend.store, "s1");
  REQUIRE(backend.store->append_messages("s1", {Message::user("请修改youer服务端的配置")}).ok());
  auto hits = search_of(backend.store).search("youer");
  REQUIRE(hits.ok());
  CHECK(hits->size() == 1);
}
