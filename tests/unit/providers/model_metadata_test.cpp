// Context-length resolution: the default table, the cache file, each endpoint probe
// against the mock server, and the order of the chain.
#include "hermes/model_metadata.hpp"

#include <doctest/doctest.h>

#include <chrono>
#include <fstream>
#include <iterator>
#include <optional>
#include <sstream>
#include <string>

#include "hermes/json.hpp"
#include "providers/context_length_cache.hpp"
#include "providers/context_length_probes.hpp"
#include "providers/context_length_table.hpp"
#include "support/mock_responses.hpp"
#include "support/mock_server.hpp"
#include "support/temp_dir.hpp"
#include "unit/providers/fixture_files.hpp"

using namespace std::chrono_literals;
using hermes::ContextLengthOptions;
using hermes::get_model_context_length;
using hermes::Json;
using hermes::testing::MockResponse;
using hermes::testing::MockServer;
using hermes::testing::TempDir;
namespace metadata = hermes::testing::metadata;

namespace {

MockResponse at(std::string path, MockResponse response) {
  response.path_prefix = std::move(path);
  return response;
}

ContextLengthOptions options_in(const TempDir& home) {
  ContextLengthOptions options;
  options.home = home.path();
  options.probe_timeout = 5s;
  return options;
}

Json cache_file(const TempDir& home) {
  std::ifstream in(home.file("context_length_cache.json"));
  if (!in) return nullptr;
  std::ostringstream text;
  text << in.rdbuf();
  return Json::parse(text.str(), nullptr, false);
}

// A URL nothing listens on.
std::string closed_url() {
  MockServer gone;
  return gone.base_url();
}

}  // namespace

TEST_CASE("the default table matches the longest key, with dots read as dashes on both sides") {
  const Json cases =
      hermes::testing::read_json_fixture("model_metadata/default_context_lengths.json");
  REQUIRE(cases.size() >= 30);
  for (const Json& c : cases) {
    const std::string model = c.at("model").get<std::string>();
    CAPTURE(model);
    const std::optional<int64_t> found = hermes::default_context_length(model);
    if (c.at("tokens").is_null()) {
      CHECK_FALSE(found.has_value());
    } else {
      REQUIRE(found.has_value());
      CHECK(*found == c.at("tokens").get<int64_t>());
    }
  }
}

TEST_CASE("an explicit override wins before anything is looked up") {
  TempDir home;
  MockServer server;
  REQUIRE(hermes::save_context_length("m", server.base_url(), 32000, home.path()));
  CHECK(get_model_context_length("m", server.base_url(), "custom", 65536, options_in(home)) ==
        65536);
  CHECK(server.request_count() == 0);
  // Zero or less is no override.
  CHECK(get_model_context_length("m", server.base_url(), "custom", 0, options_in(home)) == 32000);
}

TEST_CASE("an OpenRouter-style list gives context_length, and the answer is cached") {
  TempDir home;
  MockServer server;
  server.enqueue(at("/v1/models", metadata::models(Json::parse(R"([
      {"id": "openai/gpt-4.1", "context_length": 1047576},
      {"id": "anthropic/claude-sonnet-4.5", "context_length": 1000000,
       "top_provider": {"context_length": 1000000, "max_completion_tokens": 64000}}])"))));
  // A routing variant shares its base model's window and its cache entry.
  const std::string model = "anthropic/claude-sonnet-4.5:nitro";
  CHECK(get_model_context_length(model, server.base_url() + "/", "openrouter", std::nullopt,
                                 options_in(home)) == 1000000);
  CHECK(server.requests().at(0).path == "/v1/models");
  const Json cache = cache_file(home);
  CHECK(cache.at("context_lengths").at("anthropic/claude-sonnet-4.5@" + server.base_url()) ==
        1000000);

  // The next lookup is answered from the file: the server has nothing left to say.
  CHECK(get_model_context_length(model, server.base_url(), "openrouter", std::nullopt,
                                 options_in(home)) == 1000000);
  CHECK(server.request_count() == 1);
}

TEST_CASE("vLLM's max_model_len and an id matched by its last path segment") {
  TempDir home;
  MockServer server;
  server.enqueue(at("/v1/models", metadata::models(Json::parse(R"([
      {"id": "Qwen/Qwen3-8B", "object": "model", "owned_by": "vllm", "max_model_len": 32768}])"))));
  CHECK(get_model_context_length("Qwen3-8B", server.base_url(), "custom", std::nullopt,
                                 options_in(home)) == 32768);
}

TEST_CASE("llama.cpp's running window from /props beats the training maximum") {
  TempDir home;
  MockServer server;
  server.enqueue(at("/v1/models", metadata::models(Json::parse(R"([
      {"id": "model.gguf", "owned_by": "llamacpp", "meta": {"n_ctx_train": 131072}}])"))));
  server.enqueue(at("/props", metadata::llamacpp_props(8192)));
  CHECK(get_model_context_length("model.gguf", server.base_url(), "custom", std::nullopt,
                                 options_in(home)) == 8192);
}

TEST_CASE("Ollama's num_ctx, else the model's own maximum, from /api/show") {
  for (const std::optional<int64_t> num_ctx :
       {std::optional<int64_t>(65536), std::optional<int64_t>()}) {
    TempDir home;
    MockServer server;
    // The OpenAI-compatible list knows the model but not its window; the server says it
    // is Ollama.
    server.enqueue(at("/v1/models", metadata::models(Json::parse(R"([{"id": "qwen3:8b"}])"))));
    MockResponse tags;
    tags.body = R"({"models": [{"name": "qwen3:8b"}]})";
    server.enqueue(at("/api/tags", tags));
    server.enqueue(at("/api/show", metadata::ollama_show("qwen3", 131072, num_ctx)));
    const int64_t expected = num_ctx.value_or(131072);
    CHECK(get_model_context_length("qwen3:8b", server.base_url(), "ollama", std::nullopt,
                                   options_in(home)) == expected);
    bool asked = false;
    for (const auto& request : server.requests()) {
      if (request.path != "/api/show") continue;
      asked = true;
      CHECK(request.method == "POST");
      CHECK(request.json().at("name") == "qwen3:8b");
    }
    CHECK(asked);
  }
}

TEST_CASE("a local Ollama's configured num_ctx beats its larger trained maximum") {
  TempDir home;
  MockServer server;
  MockResponse tags;
  tags.body = R"({"models": []})";
  server.enqueue(at("/api/tags", tags));
  server.enqueue(at("/api/show", metadata::ollama_show("llama", 131072, 32768)));
  CHECK(get_model_context_length("my-model", server.url(), "", std::nullopt, options_in(home)) ==
        32768);
  // Below the minimum an agent can work in: believed, never cached.
  CHECK(cache_file(home).is_null());
}

TEST_CASE("a local llama.cpp router's /props answers for a model it has not loaded") {
  TempDir home;
  MockServer server;
  MockResponse props = metadata::llamacpp_props(98304);
  server.enqueue(at("/v1/props", props));  // Detection.
  server.enqueue(at("/props?model=big.gguf", props));
  CHECK(get_model_context_length("big.gguf", server.base_url(), "custom", std::nullopt,
                                 options_in(home)) == 98304);
  CHECK(hermes::cached_context_length("big.gguf", server.base_url(), home.path()) == 98304);
}

TEST_CASE("a local server restarted with another window replaces the cached one") {
  TempDir home;
  MockServer server;
  REQUIRE(hermes::save_context_length("m", server.base_url(), 131072, home.path()));
  MockResponse detail;
  detail.body = R"({"id": "m", "max_model_len": 65536})";
  server.enqueue(at("/v1/models/m", detail));
  CHECK(get_model_context_length("m", server.base_url(), "custom", std::nullopt,
                                 options_in(home)) == 65536);
  CHECK(hermes::cached_context_length("m", server.base_url(), home.path()) == 65536);
}

TEST_CASE("Anthropic's model list gives max_input_tokens with the API key") {
  MockServer server;
  server.enqueue(at("/v1/models", metadata::models(Json::parse(R"([
      {"type": "model", "id": "claude-opus-4-6", "max_input_tokens": 1000000, "max_tokens": 128000},
      {"type": "model", "id": "claude-mock", "max_input_tokens": 500000, "max_tokens": 64000}])"))));
  hermes::internal::ContextProbe probe;
  probe.model = "claude-mock";
  probe.base_url = server.url();
  probe.api_key = "sk-ant-api03-k";
  CHECK(hermes::internal::anthropic_context_length(probe) == 500000);
  const auto request = server.requests().at(0);
  CHECK(request.path == "/v1/models?limit=1000");
  CHECK(request.header("x-api-key") == "sk-ant-api03-k");
  CHECK(request.header("anthropic-version") == "2023-06-01");
  // OAuth tokens are refused there: not even asked.
  probe.api_key = "sk-ant-oat01-k";
  CHECK_FALSE(hermes::internal::anthropic_context_length(probe).has_value());
  CHECK(server.request_count() == 1);
}

TEST_CASE("an unreachable endpoint falls through to the table, then to 256K, caching nothing") {
  TempDir home;
  const std::string url = closed_url();
  CHECK(get_model_context_length("claude-sonnet-4-5", url, "custom", std::nullopt,
                                 options_in(home)) == 200000);
  CHECK(get_model_context_length("my-finetune", url, "custom", std::nullopt, options_in(home)) ==
        hermes::kDefaultContextLength);
  CHECK(cache_file(home).is_null());
}

TEST_CASE("a refused key stops the list probe; no probes when they are turned off") {
  TempDir home;
  MockServer server;
  MockResponse denied;
  denied.status = 401;
  denied.body = R"({"error":{"message":"bad key"}})";
  denied.path_prefix = "/";  // Every path, the metadata probes included.
  server.set_default(denied);
  CHECK(get_model_context_length("gpt-4o", server.base_url(), "openai", std::nullopt,
                                 options_in(home)) == 128000);
  for (const auto& request : server.requests()) CHECK(request.path != "/models");
  const std::size_t asked = server.request_count();
  CHECK(asked >= 1);

  ContextLengthOptions offline = options_in(home);
  offline.probe_endpoint = false;
  CHECK(get_model_context_length("gpt-4o", server.base_url(), "openai", std::nullopt, offline) ==
        128000);
  CHECK(server.request_count() == asked);
}

TEST_CASE("the cache file keys by endpoint and distrusts known under-reports") {
  TempDir home;
  CHECK_FALSE(hermes::save_context_length("m", "http://a/v1", 0, home.path()));
  REQUIRE(hermes::save_context_length("m", "http://a/v1/", 100000, home.path()));
  REQUIRE(hermes::save_context_length("m", "http://b/v1", 8192, home.path()));
  CHECK(hermes::cached_context_length("m", "http://a/v1", home.path()) == 100000);
  CHECK(hermes::cached_context_length("m", "http://b/v1/", home.path()) == 8192);
  CHECK_FALSE(hermes::cached_context_length("m", "http://c/v1", home.path()).has_value());
  // Kimi and MiniMax endpoints have reported 32K for far larger windows.
  REQUIRE(hermes::save_context_length("kimi-k2", "http://a/v1", 32768, home.path()));
  CHECK_FALSE(hermes::cached_context_length("kimi-k2", "http://a/v1", home.path()).has_value());

  std::ofstream(home.file("context_length_cache.json")) << "{not json";
  CHECK_FALSE(hermes::cached_context_length("m", "http://a/v1", home.path()).has_value());
  REQUIRE(hermes::save_context_length("m", "http://a/v1", 4096, home.path()));
  CHECK(hermes::cached_context_length("m", "http://a/v1", home.path()) == 4096);
}

TEST_CASE("model objects state their window under many names") {
  using hermes::internal::context_length_of_model;
  CHECK(context_length_of_model(Json::parse(R"({"context_window": "65536"})")) == 65536);
  CHECK(context_length_of_model(
            Json::parse(R"({"max_tokens": 4096, "max_input_tokens": 200000})")) == 200000);
  CHECK(context_length_of_model(Json::parse(R"({"top_provider": {"context_length": 131072}})")) ==
        131072);
  CHECK(context_length_of_model(Json::parse(R"({"max_tokens": 4096})")) == 4096);
  CHECK_FALSE(
      context_length_of_model(Json::parse(R"({"context_length": 0, "id": "x"})")).has_value());
  CHECK(hermes::internal::ollama_context_length(
            Json::parse(R"({"model_info": {"llama.context_length": 131072}})")) == 131072);
}

TEST_CASE("probe tiers step down from the fallback window to 8K") {
  const auto& tiers = hermes::kContextProbeTiers;
  CHECK(tiers[0] == hermes::kDefaultContextLength);
  for (std::size_t i = 1; i < std::size(tiers); ++i) CHECK(tiers[i - 1] > tiers[i]);
  CHECK(hermes::next_probe_tier(256000) == 128000);
  CHECK(hermes::next_probe_tier(1000000) == 256000);
  CHECK(hermes::next_probe_tier(100000) == 64000);
  CHECK_FALSE(hermes::next_probe_tier(8000).has_value());
  CHECK_FALSE(hermes::next_probe_tier(0).has_value());
}

TEST_CASE("a provider prefix is stripped, an Ollama tag or unknown prefix is not") {
  using hermes::strip_provider_prefix;
  CHECK(strip_provider_prefix("local:my-model") == "my-model");
  CHECK(strip_provider_prefix("openrouter:anthropic/claude-sonnet-4") ==
        "anthropic/claude-sonnet-4");
  CHECK(strip_provider_prefix("anthropic:claude-sonnet-4") == "claude-sonnet-4");
  CHECK(strip_provider_prefix("stepfun:step-3.5-flash") == "step-3.5-flash");
  CHECK(strip_provider_prefix("fireworks:accounts/fireworks/models/foo") ==
        "accounts/fireworks/models/foo");
  CHECK(strip_provider_prefix("not-a-provider:org/model") == "not-a-provider:org/model");
  CHECK(strip_provider_prefix("qwen3.5:27b") == "qwen3.5:27b");
  CHECK(strip_provider_prefix("ollama:latest") == "ollama:latest");
  CHECK(strip_provider_prefix("http://example.com") == "http://example.com");
  CHECK(strip_provider_prefix("https://example.com") == "https://example.com");
}

TEST_CASE("local endpoints are this machine, its containers and its networks") {
  using hermes::is_local_endpoint;
  for (const char* url :
       {"http://localhost:11434", "http://127.0.0.1:8080/v1", "http://[::1]:8000",
        "http://0.0.0.0:1234", "http://host.docker.internal:11434", "http://ollama:11434",
        "http://box.local:8080", "http://10.0.0.5/v1", "http://172.20.1.2:8000",
        "http://192.168.1.9:11434", "http://100.100.1.1:11434", "http://169.254.3.4",
        "http://[fe80::1]:8080", "localhost:8080"}) {
    CAPTURE(url);
    CHECK(is_local_endpoint(url));
  }
  for (const char* url :
       {"https://api.openai.com/v1", "http://172.32.0.1", "http://100.128.0.1", "https://8.8.8.8",
        "http://[2001:db8::1]", "", "https://[api.kimi.com/coding"}) {
    CAPTURE(url);
    CHECK_FALSE(is_local_endpoint(url));
  }
}

TEST_CASE("an empty model id gets the fallback without asking anyone") {
  TempDir home;
  MockServer server;
  CHECK(get_model_context_length("", server.base_url(), "custom", std::nullopt, options_in(home)) ==
        hermes::kDefaultContextLength);
  CHECK(get_model_context_length("  ", server.base_url(), "custom", std::nullopt,
                                 options_in(home)) == hermes::kDefaultContextLength);
  CHECK(server.request_count() == 0);
}

TEST_CASE("windows confirmed for one endpoint stay with that endpoint") {
  TempDir home;
  ContextLengthOptions offline = options_in(home);
  offline.probe_endpoint = false;
  for (const char* url :
       {"https://integrate.api.nvidia.com/v1", "https://INTEGRATE.API.NVIDIA.COM/v1/",
        "https://integrate.api.nvidia.com:443/v1"}) {
    CAPTURE(url);
    CHECK(get_model_context_length("deepseek-ai/deepseek-v4-pro", url, "nvidia", std::nullopt,
                                   offline) == 262144);
  }
  for (const char* url :
       {"http://integrate.api.nvidia.com/v1", "https://integrate.api.nvidia.com:8443/v1",
        "https://integrate.api.nvidia.com/v1/other",
        "https://integrate.api.nvidia.com/v1?route=other", "https://example.invalid/v1",
        "https://api.deepseek.com/v1", "https://openrouter.ai/api/v1"}) {
    CAPTURE(url);
    CHECK(get_model_context_length("deepseek-ai/deepseek-v4-pro", url, "nvidia", std::nullopt,
                                   offline) == 1000000);
  }
  for (const char* url : {"https://api.kimi.com/coding", "https://API.KIMI.COM/coding/",
                          "https://api.kimi.com:443/coding", "https://api.kimi.com/coding/v1"}) {
    for (const char* model : {"k3", "kimi-k3", "kimi-k3-cot"}) {
      CAPTURE(url);
      CAPTURE(model);
      CHECK(get_model_context_length(model, url, "kimi-coding", std::nullopt, offline) == 1048576);
    }
  }
  for (const char* url : {"http://api.kimi.com/coding", "https://api.kimi.com:8443/coding",
                          "https://api.kimi.com/coding/../other", "https://api.kimi.com/codingevil",
                          "https://example.invalid/coding", "https://[api.kimi.com/coding",
                          "https://api.moonshot.ai/v1", "https://api.moonshot.cn/v1"}) {
    CAPTURE(url);
    CHECK(get_model_context_length("k3", url, "kimi-coding", std::nullopt, offline) != 1048576);
    CHECK(get_model_context_length("kimi-k3", url, "kimi-coding", std::nullopt, offline) ==
          1048576);
  }
}

TEST_CASE("cached windows that are known to be wrong are dropped and resolved again") {
  TempDir home;
  ContextLengthOptions offline = options_in(home);
  offline.probe_endpoint = false;
  const std::string minimax = "https://api.minimax.io/anthropic";
  REQUIRE(hermes::save_context_length("MiniMax-M2.7", minimax, 32768, home.path()));
  CHECK(get_model_context_length("MiniMax-M2.7", minimax, "minimax", std::nullopt, offline) ==
        204800);
  CHECK_FALSE(
      hermes::internal::stored_context_length("MiniMax-M2.7", minimax, home.path()).has_value());

  // Other models' small windows are believed.
  REQUIRE(hermes::save_context_length("qwen3.5:27b", "http://local", 32768, home.path()));
  CHECK(get_model_context_length("qwen3.5:27b", "http://local", "", std::nullopt, offline) ==
        32768);

  // Entries older than the table's knowledge of the model.
  const std::string xai = "https://api.x.ai/v1";
  REQUIRE(hermes::save_context_length("grok-4.3", xai, 256000, home.path()));
  CHECK(get_model_context_length("grok-4.3", xai, "xai", std::nullopt, offline) == 1000000);
  REQUIRE(hermes::save_context_length("grok-4.6", xai, 256000, home.path()));
  CHECK(get_model_context_length("grok-4.6", xai, "xai", std::nullopt, offline) == 500000);
  for (const char* slug : {"grok-4", "grok-4-0709"}) {
    REQUIRE(hermes::save_context_length(slug, xai, 256000, home.path()));
    CHECK(get_model_context_length(slug, xai, "xai", std::nullopt, offline) == 256000);
  }

  // A zero written by hand is never the answer.
  std::ofstream(home.file("context_length_cache.json"))
      << R"({"context_lengths": {"test/model@http://x": 0}})";
  CHECK(get_model_context_length("test/model", "http://x", "", std::nullopt, offline) > 0);
  CHECK_FALSE(
      hermes::internal::stored_context_length("test/model", "http://x", home.path()).has_value());
}

TEST_CASE("a leftover of a shorter catch-all is stale, a probed value is not") {
  using hermes::internal::stale_pre_catalog_entry;
  CHECK(stale_pre_catalog_entry("grok-4.3", 256000));
  CHECK(stale_pre_catalog_entry("grok-4.3-latest", 256000));
  CHECK(stale_pre_catalog_entry("xai/grok-4.3", 256000));
  CHECK_FALSE(stale_pre_catalog_entry("grok-4.3", 1000000));
  CHECK_FALSE(stale_pre_catalog_entry("grok-4", 256000));
  CHECK(stale_pre_catalog_entry("x-ai/grok-4.6", 256000));
  CHECK_FALSE(stale_pre_catalog_entry("grok-4.5", 500000));
  for (const char* slug :
       {"muse-spark-1.3", "meta/muse-spark-1.3-contributor", "muse-spark-1.2-contributor"}) {
    CAPTURE(slug);
    CHECK(stale_pre_catalog_entry(slug, 256000));
    CHECK_FALSE(stale_pre_catalog_entry(slug, 1048576));
  }
  CHECK(stale_pre_catalog_entry("qwen3.6-plus", 131072));
  CHECK(stale_pre_catalog_entry("alibaba/qwen3.6-plus", 131072));
  CHECK_FALSE(
      stale_pre_catalog_entry("qwen3.6-plus", 262144));  // Above the catch-all: maybe probed.
  CHECK(stale_pre_catalog_entry("grok-4-fast-reasoning", 256000));
  CHECK(stale_pre_catalog_entry("grok-4.20", 256000));
  CHECK_FALSE(stale_pre_catalog_entry("qwen3-coder", 131072));
  CHECK(stale_pre_catalog_entry("deepseek/deepseek-flash", 128000));
  CHECK(stale_pre_catalog_entry("deepseek-v4-pro", 128000));
  CHECK_FALSE(stale_pre_catalog_entry("deepseek-flash", 1000000));
  CHECK_FALSE(stale_pre_catalog_entry("deepseek", 128000));
  CHECK_FALSE(stale_pre_catalog_entry("totally-unknown-model", 4096));
  CHECK_FALSE(stale_pre_catalog_entry("minimax", 204800));
}

TEST_CASE("LM Studio's window is never cached: it changes with what is loaded") {
  TempDir home;
  MockServer server;
  REQUIRE(hermes::save_context_length("qwen", server.base_url(), 200000, home.path()));
  MockResponse native;
  native.body =
      R"({"models": [{"key": "qwen", "loaded_instances": [{"config": {"context_length": 90000}}]}]})";
  server.enqueue(at("/api/v1/models", native));
  CHECK(get_model_context_length("qwen", server.base_url(), "lmstudio", std::nullopt,
                                 options_in(home)) == 90000);
  CHECK(hermes::cached_context_length("qwen", server.base_url(), home.path()) == 200000);
}

TEST_CASE("a well-known provider's host is not asked for its model list") {
  TempDir home;
  // Nothing listens at these names in a test; only the table can answer, and at once.
  CHECK(get_model_context_length("gpt-4o", "https://api.openai.com/v1", "openai", std::nullopt,
                                 options_in(home)) == 128000);
  CHECK(get_model_context_length("deepseek-v4-flash", "https://api.deepseek.com/v1", "deepseek",
                                 std::nullopt, options_in(home)) == 1000000);
  CHECK(cache_file(home).is_null());
}
