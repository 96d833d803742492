// The modes of bench_agent (see bench_agent_main.cpp for their options). Each takes the
// command line's --key value pairs and prints its results as JSON lines.
#pragma once

#include <map>
#include <string>

#include "hermes/status.hpp"

namespace hermes::bench {

using Args = std::map<std::string, std::string>;

Status write_workload(const Args& args);
Status run_sequential_mode(const Args& args);
Status run_concurrent_mode(const Args& args);
Status run_idle_mode(const Args& args);
Status run_parse_mode(const Args& args);
Status run_encode_mode(const Args& args);
Status run_tiny_mode(const Args& args);

}  // namespace hermes::bench
