// The session task list behind the todo_list tool: an ordered list (position is
// priority) of items with a status, optionally nested under a parent, and a revision that
// changes only when the list does.
#pragma once

#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "hermes/json.hpp"

namespace hermes::internal {

struct TodoItem {
  std::string id;
  std::string content;
  std::string status;  // pending | in_progress | completed | cancelled
  std::string parent;  // Empty: a top-level item.

  bool operator==(const TodoItem& o) const {
    return id == o.id && content == o.content && status == o.status && parent == o.parent;
  }
};

// Thread-safety: internally synchronised.
class TodoStore {
 public:
  static constexpr std::size_t kMaxItems = 256;
  static constexpr std::size_t kMaxContentChars = 4000;

  // Replaces the list with `todos` (merge = false), or updates items by id and appends new
  // ones (merge = true). Returns the list afterwards.
  std::vector<TodoItem> write(const Json& todos, bool merge);
  std::vector<TodoItem> read() const;
  int64_t revision() const;

  // The active items (pending, in progress, and the ancestors of active items) under the
  // header line re-injected after context compression; nullopt when none is active.
  std::optional<std::string> format_for_injection() const;

 private:
  mutable std::mutex mu_;
  std::vector<TodoItem> items_;
  int64_t revision_ = 0;
};

// {"todos": [...], "revision": n, "summary": {...}} for `items`.
Json todo_result_json(const std::vector<TodoItem>& items, int64_t revision);

}  // namespace hermes::internal
