// open_postgres_store() in a build without libpq.
#include "hermes/postgres_store.hpp"

namespace hermes {

Result<std::shared_ptr<SessionStore>> open_postgres_store(const std::string&,
                                                          const PostgresStoreOptions&) {
  return Status::unimplemented(
      "this build of hermes has no PostgreSQL support (configure with HERMES_WITH_POSTGRES=ON "
      "and libpq installed)");
}

}  // namespace hermes
