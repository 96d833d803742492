#include "store/fts_maintenance.hpp"

#include <fmt/format.h>

#include "safety/log.hpp"

namespace hermes::store {

bool FtsMaintenance::lower_usermerge(Connection& db, const std::string& table) {
  Status status = db.exec(fmt::format("INSERT INTO {0}({0}, rank) VALUES('usermerge', 2)", table));
  if (!status.ok()) HERMES_LOG_WARN("FTS usermerge for {}: {}", table, status.message());
  return status.ok();
}

int FtsMaintenance::run(Connection& db) {
  int executed = 0;
  for (const std::string& table : tables_) {
    if (!usermerge_lowered_ && !lower_usermerge(db, table)) return executed;
    const std::string merge =
        fmt::format("INSERT INTO {0}({0}, rank) VALUES('merge', {1})", table, pages_);
    for (int i = 0; i < commands_; ++i) {
      const int before = sqlite3_total_changes(db.handle());
      Status status = db.exec(merge);
      if (!status.ok()) {
        HERMES_LOG_WARN("FTS merge of {}: {}", table, status.message());
        return executed;
      }
      ++executed;
      // The command's own row is one change; a merge that wrote nothing adds no more.
      if (sqlite3_total_changes(db.handle()) - before < 2) break;
    }
  }
  usermerge_lowered_ = true;
  return executed;
}

}  // namespace hermes::store
