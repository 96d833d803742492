// The PostgreSQL schema: the SQLite store's logical tables, with a tsvector index for
// word search and a pg_trgm index for substring and CJK search.
#pragma once

#include <string>
#include <string_view>

#include "hermes/status.hpp"
#include "store/postgres_connection.hpp"

namespace hermes::store {

// The schema version this library writes into schema_version.
inline constexpr int kPostgresSchemaVersion = 1;

// What a message row is searched by (tool output limited to its first 8,192 characters),
// as an SQL expression over messages columns named with `prefix` ("m." for an alias).
// Queries must use exactly this expression for the indexes on it to apply.
std::string search_text_sql(std::string_view prefix);

// Creates the schema `schema` (when not empty) and the tables and indexes, once per
// database: concurrent openers serialise on an advisory lock. DataLoss when the database
// holds a newer hermes schema. Reports whether pg_trgm is available.
Result<bool> install_postgres_schema(PgPool& pool, const std::string& schema);

}  // namespace hermes::store
