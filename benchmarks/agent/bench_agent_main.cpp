// bench_agent: the C++ side of the agent benchmark. Each mode prints one JSON line per
// measured run on stdout; scripts/bench runs the modes and tabulates the lines.
//
//   bench_agent workload --out DIR --steps N          history-{10,100,1000}.json and the
//                                                     conversation scripts for the server
//   bench_agent floor|hermes --server URL --history FILE --steps N --stream 0|1
//               [--store 0|1] [--durability full|normal] [--tracing 0|1 [--otlp-endpoint URL]]
//               [--conversations C] [--runs R]
//   bench_agent concurrent --contender floor|hermes --server URL --history FILE
//               --steps N --stream 0|1 [--lanes 200] [--conversations C] [--runs R]
//   bench_agent idle --server URL --history FILE --steps N [--agents 1000]
//                                                     (a server answering in N steps)
//   bench_agent parse --streams DIR [--seconds S]
//   bench_agent encode [--history-size 1000] [--seconds S]
//                                                     request encoding CPU per call
//   bench_agent tiny --streams DIR                    every C++ contender once, tiny, on
//                                                     an in-process server (CTest)
#include <curl/curl.h>

#include <cstdio>
#include <functional>
#include <map>
#include <string>

#include "bench_modes.hpp"

namespace {

using hermes::Status;
using Args = std::map<std::string, std::string>;

bool parse_args(int argc, char** argv, Args& args) {
  for (int i = 2; i < argc; i += 2) {
    std::string key = argv[i];
    if (key.rfind("--", 0) != 0 || i + 1 >= argc) return false;
    args[key.substr(2)] = argv[i + 1];
  }
  return true;
}

constexpr const char* kUsage =
    "usage: bench_agent workload|floor|hermes|concurrent|idle|parse|encode|tiny [--option "
    "value]...\n"
    "(see the comment at the top of bench_agent_main.cpp)\n";

}  // namespace

int main(int argc, char** argv) {
  Args args;
  if (argc < 2 || !parse_args(argc, argv, args)) {
    std::fputs(kUsage, stderr);
    return 2;
  }
  curl_global_init(CURL_GLOBAL_DEFAULT);
  const std::map<std::string, std::function<Status(const Args&)>> modes = {
      {"workload", hermes::bench::write_workload},
      {"floor", hermes::bench::run_sequential_mode},
      {"hermes", hermes::bench::run_sequential_mode},
      {"concurrent", hermes::bench::run_concurrent_mode},
      {"idle", hermes::bench::run_idle_mode},
      {"parse", hermes::bench::run_parse_mode},
      {"encode", hermes::bench::run_encode_mode},
      {"tiny", hermes::bench::run_tiny_mode},
  };
  auto mode = modes.find(argv[1]);
  if (mode == modes.end()) {
    std::fputs(kUsage, stderr);
    return 2;
  }
  args["mode"] = argv[1];
  Status status = mode->second(args);
  if (!status.ok()) {
    std::fprintf(stderr, "bench_agent %s: %s\n", argv[1], status.to_string().c_str());
    return 1;
  }
  return 0;
}
