// Direct access to a store's SQLite file for tests that inspect what is on disk.
#pragma once

#include <doctest/doctest.h>

#include <fstream>
#include <memory>
#include <sstream>
#include <string>

#include "hermes/json.hpp"
#include "store/sqlite_connection.hpp"

namespace hermes::testing {

inline std::unique_ptr<store::Connection> raw_connection(const std::string& path) {
  auto c = store::Connection::open(path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
  REQUIRE_MESSAGE(c.ok(), c.status().to_string());
  return std::move(*c);
}

// The first column of the first row of `sql`, "" when NULL or no row.
inline std::string query(store::Connection& c, const std::string& sql) {
  auto value = c.query_text(sql);
  REQUIRE_MESSAGE(value.ok(), value.status().to_string() << " in " << sql);
  return value->value_or("");
}

inline void exec(store::Connection& c, const std::string& sql) {
  const Status status = c.exec(sql);
  REQUIRE_MESSAGE(status.ok(), status.to_string());
}

inline std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

inline void write_file(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary);
  out << bytes;
}

// A JSON fixture of tests/fixtures/store.
inline Json load_store_fixture(const std::string& name) {
  const std::string text = read_file(std::string(HERMES_FIXTURES_DIR) + "/store/" + name);
  REQUIRE_MESSAGE(!text.empty(), "missing fixture " << name);
  return Json::parse(text);
}

// Creates a database at `path` from a SQL fixture of tests/fixtures/store.
inline void create_from_fixture(const std::string& path, const std::string& fixture) {
  const std::string sql = read_file(std::string(HERMES_FIXTURES_DIR) + "/store/" + fixture);
  REQUIRE_MESSAGE(!sql.empty(), "missing fixture " << fixture);
  auto c = raw_connection(path);
  exec(*c, sql);
}

}  // namespace hermes::testing
