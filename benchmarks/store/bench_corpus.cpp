#include "bench_corpus.hpp"

#include <sqlite3.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <stdexcept>

#include "bench_sizes.hpp"
#include "hermes/session_store.hpp"

namespace hermes::bench {
namespace {

constexpr std::size_t kVocabulary = 30'000;
constexpr std::size_t kMessagesPerSession = 100;
constexpr std::size_t kMessagesPerTransaction = 20'000;
constexpr const char* kSyllables[] = {"ka", "to", "ri", "me", "su", "lo", "na",  "pe", "vi",
                                      "do", "zu", "ra", "ki", "mo", "te", "shi", "ba", "ne"};

std::string make_word(std::size_t n) {
  std::string word;
  const std::size_t base = sizeof kSyllables / sizeof *kSyllables;
  do {
    word += kSyllables[n % base];
    n /= base;
  } while (n > 0);
  return word + (word.size() < 4 ? "x" : "");
}

void check(int rc, sqlite3* db, const char* what) {
  if (rc == SQLITE_OK || rc == SQLITE_DONE || rc == SQLITE_ROW) return;
  throw std::runtime_error(std::string(what) + ": " + sqlite3_errmsg(db));
}

bool corpus_complete(const std::string& path) {
  if (access(path.c_str(), F_OK) != 0) return false;
  sqlite3* db = nullptr;
  bool complete = false;
  if (sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK) {
    sqlite3_stmt* stmt = nullptr;
    if (sqlite3_prepare_v2(db, "SELECT 1 FROM state_meta WHERE key = 'bench_corpus_complete'", -1,
                           &stmt, nullptr) == SQLITE_OK) {
      complete = sqlite3_step(stmt) == SQLITE_ROW;
    }
    sqlite3_finalize(stmt);
  }
  sqlite3_close(db);
  return complete;
}

// Fills the store's tables directly: the store API would take minutes for a million rows,
// and what is measured is searching them, not writing them.
void fill(const std::string& path, std::size_t messages) {
  sqlite3* db = nullptr;
  check(sqlite3_open(path.c_str(), &db), db, "open");
  check(sqlite3_exec(db, "PRAGMA synchronous=OFF", nullptr, nullptr, nullptr), db, "pragma");
  sqlite3_stmt* session = nullptr;
  sqlite3_stmt* message = nullptr;
  check(sqlite3_prepare_v2(db, "INSERT INTO sessions (id, source, started_at) VALUES (?, 'cli', ?)",
                           -1, &session, nullptr),
        db, "prepare");
  check(sqlite3_prepare_v2(db,
                           "INSERT INTO messages (session_id, role, content, timestamp) "
                           "VALUES (?, ?, ?, ?)",
                           -1, &message, nullptr),
        db, "prepare");
  TextGenerator text;
  const double base = 1'750'000'000.0;
  for (std::size_t i = 0; i < messages; ++i) {
    if (i % kMessagesPerTransaction == 0) {
      if (i > 0) check(sqlite3_exec(db, "COMMIT", nullptr, nullptr, nullptr), db, "commit");
      check(sqlite3_exec(db, "BEGIN", nullptr, nullptr, nullptr), db, "begin");
    }
    const std::string id = "bench_" + std::to_string(i / kMessagesPerSession);
    if (i % kMessagesPerSession == 0) {
      sqlite3_bind_text(session, 1, id.c_str(), -1, SQLITE_TRANSIENT);
      sqlite3_bind_double(session, 2, base + static_cast<double>(i));
      check(sqlite3_step(session), db, "session");
      sqlite3_reset(session);
    }
    const std::string content = text.sentence(8 + static_cast<int>(i % 33));
    sqlite3_bind_text(message, 1, id.c_str(), -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(message, 2, i % 2 == 0 ? "user" : "assistant", -1, SQLITE_STATIC);
    sqlite3_bind_text(message, 3, content.c_str(), -1, SQLITE_TRANSIENT);
    sqlite3_bind_double(message, 4, base + static_cast<double>(i));
    check(sqlite3_step(message), db, "message");
    sqlite3_reset(message);
  }
  check(sqlite3_exec(db,
                     "INSERT INTO state_meta (key, value) VALUES ('bench_corpus_complete', '1'); "
                     "COMMIT; INSERT INTO messages_fts(messages_fts) VALUES ('optimize');",
                     nullptr, nullptr, nullptr),
        db, "finish");
  sqlite3_finalize(session);
  sqlite3_finalize(message);
  sqlite3_close(db);
}

}  // namespace

TextGenerator::TextGenerator(uint32_t seed) : rng_(seed) {
  double sum = 0;
  for (std::size_t rank = 0; rank < kVocabulary; ++rank) {
    vocabulary_.push_back(make_word(rank * 7919 % kVocabulary));
    sum += 1.0 / static_cast<double>(rank + 1);
    cumulative_.push_back(sum);
  }
}

std::string TextGenerator::sentence(int words) {
  std::uniform_real_distribution<double> pick(0, cumulative_.back());
  std::string out;
  for (int i = 0; i < words; ++i) {
    const auto it = std::lower_bound(cumulative_.begin(), cumulative_.end(), pick(rng_));
    if (i > 0) out += ' ';
    out += vocabulary_[static_cast<std::size_t>(it - cumulative_.begin())];
  }
  return out;
}

std::vector<Message> TextGenerator::turn(std::size_t count) {
  std::vector<Message> messages;
  for (std::size_t i = 0; i < count; ++i) {
    const int words = 8 + static_cast<int>(rng_() % 33);
    messages.push_back(i % 2 == 0 ? Message::user(sentence(words))
                                  : Message::assistant(sentence(words)));
  }
  return messages;
}

std::string search_corpus(std::size_t messages) {
  const std::string path = cache_dir() + "/search-corpus-" + std::to_string(messages) + ".db";
  if (corpus_complete(path)) return path;
  for (const char* suffix : {"", "-wal", "-shm"}) std::remove((path + suffix).c_str());
  {
    auto store = open_sqlite_store(path);  // Creates the schema, FTS triggers included.
    if (!store.ok()) throw std::runtime_error(store.status().to_string());
  }
  fill(path, messages);
  return path;
}

std::vector<std::string> search_queries(const TextGenerator& text, std::size_t count) {
  std::vector<std::string> queries;
  for (std::size_t i = 0; queries.size() < count; ++i) {
    const std::size_t common = i % 20;
    const std::size_t mid = 200 + (i * 37) % 2000;
    const std::size_t rare = 5000 + (i * 131) % 20000;
    switch (i % 7) {
      case 0:
        queries.push_back(text.word(common));
        break;
      case 1:
        queries.push_back(text.word(mid));
        break;
      case 2:
        queries.push_back(text.word(rare));
        break;
      case 3:
        queries.push_back(text.word(mid) + " " + text.word(common));
        break;
      case 4:
        queries.push_back("\"" + text.word(common) + " " + text.word(common + 1) + "\"");
        break;
      case 5:
        queries.push_back(text.word(mid).substr(0, 4) + "*");
        break;
      default:
        queries.push_back(text.word(rare) + " OR " + text.word(mid));
        break;
    }
  }
  return queries;
}

}  // namespace hermes::bench
