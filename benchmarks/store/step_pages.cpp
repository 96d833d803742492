// Where the pages of an agent step come from: drives a SQLite store through the commits
// an agent makes (a conversation of 10 prior messages, then 7 tool steps and an answer:
// each tool step commits its call with the usage, then its result; the answer commits
// once), reads each commit's frames back from the write-ahead log, and names the b-tree
// every written page belongs to (SQLite's dbstat table, read just after the commit).
//
//   bench_step_pages [--conversations N] [--dir DIR] [--owners 0|1] [--sql SQL]
//
// Prints, per b-tree, the pages a step writes on average, and the total, and the wall time
// of a step's commits. --owners 0 only times the commits (reading the log and the file after
// each commit disturbs the page cache the next commit sees); --sql runs SQL on the file after
// the store opened it (to try a schema variant).
#include <sqlite3.h>
#include <time.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <map>
#include <string>
#include <vector>

#include "hermes/session_store.hpp"

namespace {

using hermes::Message;

uint32_t big_endian(const std::vector<unsigned char>& bytes, std::size_t at) {
  return (uint32_t{bytes[at]} << 24) | (uint32_t{bytes[at + 1]} << 16) |
         (uint32_t{bytes[at + 2]} << 8) | uint32_t{bytes[at + 3]};
}

// Reads the frames appended to the log since the last call: their page numbers.
class WalReader {
 public:
  explicit WalReader(std::string path) : path_(std::move(path)) {}

  std::vector<uint32_t> new_frames() {
    std::vector<uint32_t> pages;
    std::ifstream file(path_, std::ios::binary);
    std::vector<unsigned char> header(kHeader);
    if (!file.read(reinterpret_cast<char*>(header.data()), kHeader)) return pages;
    const uint32_t page_size = big_endian(header, 8);
    const uint32_t salt1 = big_endian(header, 16);
    if (salt1 != salt_) offset_ = kHeader;  // The log restarted after a checkpoint.
    salt_ = salt1;
    std::vector<unsigned char> frame(kFrameHeader);
    for (;;) {
      file.seekg(static_cast<std::streamoff>(offset_));
      if (!file.read(reinterpret_cast<char*>(frame.data()), kFrameHeader)) break;
      if (big_endian(frame, 8) != salt1) break;
      file.seekg(page_size, std::ios::cur);
      if (!file || file.peek() == std::char_traits<char>::eof()) {
        // A frame cut short is still being written; a complete last frame ends the file.
        file.clear();
        file.seekg(0, std::ios::end);
        if (static_cast<std::size_t>(file.tellg()) < offset_ + kFrameHeader + page_size) break;
      }
      pages.push_back(big_endian(frame, 0));
      offset_ += kFrameHeader + page_size;
    }
    return pages;
  }

 private:
  static constexpr std::size_t kHeader = 32;
  static constexpr std::size_t kFrameHeader = 24;
  std::string path_;
  std::size_t offset_ = kHeader;
  uint32_t salt_ = 0;
};

// The b-tree of every page, read through a connection of its own.
std::map<uint32_t, std::string> page_owners(const std::string& db_path) {
  std::map<uint32_t, std::string> owners;
  sqlite3* db = nullptr;
  sqlite3_open_v2(db_path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr);
  sqlite3_stmt* stmt = nullptr;
  if (sqlite3_prepare_v2(db, "SELECT pageno, name FROM dbstat", -1, &stmt, nullptr) == SQLITE_OK) {
    while (sqlite3_step(stmt) == SQLITE_ROW) {
      owners[static_cast<uint32_t>(sqlite3_column_int64(stmt, 0))] =
          reinterpret_cast<const char*>(sqlite3_column_text(stmt, 1));
    }
  }
  sqlite3_finalize(stmt);
  sqlite3_close(db);
  return owners;
}

std::string words(unsigned& seed, int count) {
  static const char* const kWords[] = {"buffer", "tool",   "file",   "result", "method", "class",
                                       "module", "lock",   "queue",  "server", "stream", "config",
                                       "index",  "memory", "parser", "thread", "cache",  "session"};
  std::string text;
  for (int i = 0; i < count; ++i) {
    seed = seed * 1103515245u + 12345u;
    if (i > 0) text += ' ';
    text += kWords[(seed >> 16) % (sizeof(kWords) / sizeof(kWords[0]))];
  }
  return text;
}

// The prior conversation: five exchanges of a user turn or tool call and its answer.
std::vector<Message> history(unsigned& seed) {
  std::vector<Message> messages;
  for (int i = 0; i < 5; ++i) {
    if (i % 2 == 0) {
      messages.push_back(Message::user(words(seed, 30)));
      messages.push_back(Message::assistant(words(seed, 80)));
    } else {
      Message call = Message::assistant("");
      const std::string id = "call_h" + std::to_string(i);
      call.tool_calls.push_back({id, "read_file", R"({"path":"src/a.cpp","limit":200})", {}});
      messages.push_back(std::move(call));
      messages.push_back(Message::tool(id, "read_file", words(seed, 300)));
    }
  }
  return messages;
}

double cpu_seconds() {
  timespec now{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) * 1e-9;
}

struct Totals {
  std::map<std::string, double> pages;
  double frames = 0;
  double steps = 0;
  double commit_seconds = 0;
  double commit_cpu_seconds = 0;
  bool owners = true;
};

bool commit(hermes::SessionStore& store, const std::string& session,
            const std::vector<Message>& messages, const std::vector<hermes::UsageDelta>& usage,
            WalReader& wal, const std::string& db_path, Totals& totals, bool counted) {
  const auto start = std::chrono::steady_clock::now();
  const double cpu_start = cpu_seconds();
  if (!store.append_step(session, messages, usage).ok()) return false;
  const double cpu = cpu_seconds() - cpu_start;
  const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
  if (counted) {
    totals.commit_seconds += took.count();
    totals.commit_cpu_seconds += cpu;
  }
  if (!totals.owners) return true;
  const std::vector<uint32_t> frames = wal.new_frames();
  if (!counted) return true;
  totals.frames += static_cast<double>(frames.size());
  const std::map<uint32_t, std::string> owners = page_owners(db_path);
  for (uint32_t page : frames) {
    auto it = owners.find(page);
    totals.pages[it == owners.end() ? (page == 1 ? "(header)" : "(free)") : it->second] += 1;
  }
  return true;
}

bool conversation(hermes::SessionStore& store, int n, unsigned& seed, WalReader& wal,
                  const std::string& db_path, Totals& totals) {
  hermes::SessionInfo info;
  info.id = "bench-" + std::to_string(n);
  info.system_prompt = "You are a helpful assistant.";
  if (!store.create_session(info).ok()) return false;
  std::vector<Message> first = history(seed);
  first.push_back(Message::user("Add the numbers one by one."));
  if (!commit(store, info.id, first, {}, wal, db_path, totals, false)) return false;
  hermes::UsageDelta usage;
  usage.usage.input_tokens = 1200;
  usage.usage.output_tokens = 20;
  usage.usage.reported = true;
  usage.api_calls = 1;
  for (int step = 1; step <= 7; ++step) {
    Message call = Message::assistant("");
    const std::string id = "call_" + std::to_string(step);
    call.tool_calls.push_back(
        {id, "add", "{\"a\":" + std::to_string(step) + ",\"b\":1}", hermes::Json()});
    call.finish_reason = "tool_calls";
    if (!commit(store, info.id, {call}, {usage}, wal, db_path, totals, true)) return false;
    const Message result = Message::tool(id, "add", std::to_string(step + 1));
    if (!commit(store, info.id, {result}, {}, wal, db_path, totals, true)) return false;
    totals.steps += 1;
  }
  Message answer = Message::assistant("All the sums are done: the last one was 8.");
  answer.finish_reason = "stop";
  if (!commit(store, info.id, {answer}, {usage}, wal, db_path, totals, true)) return false;
  totals.steps += 1;
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  int conversations = 11;
  std::string dir = "/tmp";
  std::string sql;
  Totals totals;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (std::strcmp(argv[i], "--conversations") == 0) conversations = std::atoi(argv[i + 1]);
    if (std::strcmp(argv[i], "--dir") == 0) dir = argv[i + 1];
    if (std::strcmp(argv[i], "--owners") == 0) totals.owners = std::strcmp(argv[i + 1], "0") != 0;
    if (std::strcmp(argv[i], "--sql") == 0) sql = argv[i + 1];
  }
  const std::string db_path = dir + "/step-pages-" + std::to_string(getpid()) + ".db";
  bool ok = true;
  {
    hermes::SqliteStoreOptions options;
    options.durability = hermes::Durability::kNormal;
    auto store = hermes::open_sqlite_store(db_path, options);
    if (!store.ok()) {
      std::fprintf(stderr, "%s\n", store.status().to_string().c_str());
      return 1;
    }
    if (!sql.empty()) {
      sqlite3* db = nullptr;
      sqlite3_open(db_path.c_str(), &db);
      char* error = nullptr;
      if (sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &error) != SQLITE_OK) {
        std::fprintf(stderr, "--sql: %s\n", error != nullptr ? error : "failed");
        return 1;
      }
      sqlite3_close(db);
    }
    WalReader wal(db_path + "-wal");
    wal.new_frames();
    unsigned seed = 7;
    for (int n = 0; n < conversations && ok; ++n) {
      ok = conversation(**store, n, seed, wal, db_path, totals);
    }
  }
  for (const char* suffix : {"", "-wal", "-shm"}) std::remove((db_path + suffix).c_str());
  if (!ok || totals.steps == 0) {
    std::fprintf(stderr, "a commit failed\n");
    return 1;
  }
  for (const auto& [name, pages] : totals.pages) {
    std::printf("%-40s %6.2f pages per step\n", name.c_str(), pages / totals.steps);
  }
  if (totals.owners) {
    std::printf("%-40s %6.2f pages per step (%g steps)\n", "total", totals.frames / totals.steps,
                totals.steps);
  }
  std::printf("%-40s %6.0f us per step, %.0f us of CPU\n", "commits",
              1e6 * totals.commit_seconds / totals.steps,
              1e6 * totals.commit_cpu_seconds / totals.steps);
  return 0;
}
