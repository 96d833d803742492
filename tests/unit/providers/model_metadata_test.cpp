// Context-length resolution: the default table, the cache file, each endpoint probe
// against the mock server, and the order of the chain.
#include "hermes/model_metadata.hpp"

#include <doctest/doctest.h>

#include <chrono>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>

#include "hermes/json.hpp"
#include "providers/context_length_probes.hpp"
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

TEST_CASE("the default table matches the longest key, with dots also read as dashes") {
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
  const std::string model = "anthropic/claude-sonnet-4.5:nitro";  // A routing suffix.
  CHECK(get_model_context_length(model, server.base_url() + "/", "openrouter", std::nullopt,
                                 options_in(home)) == 1000000);
  CHECK(server.requests().at(0).path == "/v1/models");
  const Json cache = cache_file(home);
  CHECK(cache.at("context_lengths").at(model + "@" + server.base_url()) == 1000000);

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
       {std::optional<int64_t>(32768), std::optional<int64_t>()}) {
    TempDir home;
    MockServer server;
    // The OpenAI-compatible list knows the model but not its window.
    server.enqueue(at("/v1/models", metadata::models(Json::parse(R"([{"id": "qwen3:8b"}])"))));
    server.enqueue(at("/api/show", metadata::ollama_show("qwen3", 40960, num_ctx)));
    const int64_t expected = num_ctx.value_or(40960);
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

TEST_CASE("Anthropic's model list gives max_input_tokens with the API key") {
  TempDir home;
  MockServer server;
  server.enqueue(at("/v1/models", metadata::models(Json::parse(R"([
      {"type": "model", "id": "claude-opus-4-6", "max_input_tokens": 1000000, "max_tokens": 128000},
      {"type": "model", "id": "claude-mock", "max_input_tokens": 500000, "max_tokens": 64000}])"))));
  ContextLengthOptions options = options_in(home);
  options.api_key = "sk-ant-api03-k";
  CHECK(get_model_context_length("claude-mock", server.url(), "anthropic", std::nullopt, options) ==
        500000);
  const auto request = server.requests().at(0);
  CHECK(request.path == "/v1/models?limit=1000");
  CHECK(request.header("x-api-key") == "sk-ant-api03-k");
  CHECK(request.header("anthropic-version") == "2023-06-01");
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

TEST_CASE("a refused key stops probing; no probes when they are turned off") {
  TempDir home;
  MockServer server;
  MockResponse denied;
  denied.status = 401;
  denied.body = R"({"error":{"message":"bad key"}})";
  denied.path_prefix = "/";  // Every path, the metadata probes included.
  server.set_default(denied);
  CHECK(get_model_context_length("gpt-4o", server.base_url(), "openai", std::nullopt,
                                 options_in(home)) == 128000);
  CHECK(server.request_count() == 1);  // Not the /models path without /v1.

  ContextLengthOptions offline = options_in(home);
  offline.probe_endpoint = false;
  CHECK(get_model_context_length("gpt-4o", server.base_url(), "openai", std::nullopt, offline) ==
        128000);
  CHECK(server.request_count() == 1);
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
