// parse_url: libcurl's reading of a URL, and the helpers built on it.
#include "providers/url.hpp"

#include <doctest/doctest.h>

#include "hermes/model_metadata.hpp"
#include "providers/endpoint_url.hpp"
#include "providers/url_parts.hpp"

using namespace hermes::internal;

TEST_CASE("parse_url reads every part, lower-casing scheme and host") {
  const auto url = parse_url("  HTTPS://User:Pw@API.Example.COM:8443/V1/Chat?x=1#top ");
  REQUIRE(url.has_value());
  CHECK(url->scheme == "https");
  CHECK(url->host == "api.example.com");
  CHECK(url->userinfo == "User:Pw");
  CHECK(url->has_userinfo);
  CHECK(url->port == 8443);
  CHECK(url->path == "/V1/Chat");
  CHECK(url->has_query);
  CHECK(url->has_fragment);
  CHECK(url->origin() == "https://user:pw@api.example.com:8443");
}

TEST_CASE("parse_url keeps IPv6 brackets and dot segments, and reports a missing path as /") {
  const auto v6 = parse_url("http://[::1]:8080");
  REQUIRE(v6.has_value());
  CHECK(v6->host == "[::1]");
  CHECK(v6->path == "/");
  CHECK(parse_url("http://h/a/../b")->path == "/a/../b");
}

TEST_CASE("parse_url takes a default scheme only when asked") {
  CHECK_FALSE(parse_url("api.openai.com/v1").has_value());
  const auto guessed = parse_url("api.openai.com/v1", "http");
  REQUIRE(guessed.has_value());
  CHECK(guessed->scheme == "http");
  CHECK(guessed->host == "api.openai.com");
}

TEST_CASE("parse_url rejects what libcurl rejects instead of guessing") {
  CHECK_FALSE(parse_url("").has_value());
  CHECK_FALSE(parse_url("http://").has_value());
  CHECK_FALSE(parse_url("http://host:99999/").has_value());
  CHECK_FALSE(parse_url("http://[::1/").has_value());
}

TEST_CASE("the host and path helpers read the URL libcurl reads") {
  CHECK(url_host("https://api.anthropic.com.example.test/v1") == "api.anthropic.com.example.test");
  CHECK(url_host("https://user@API.OpenAI.com:443/v1") == "api.openai.com");
  CHECK(url_host("not a url at all ://") == "");
  CHECK(url_path("https://h/Anthropic/V1/?q") == "/anthropic/v1");
  CHECK(url_path("https://h") == "");
  const EndpointUrl e = parse_endpoint_url("localhost:11434/v1/");
  CHECK(e.valid);
  CHECK(e.scheme == "http");
  CHECK(e.host == "localhost");
  CHECK(e.port == 11434);
  CHECK(e.path == "/v1");
  CHECK(parse_endpoint_url("http://[fe80::1]:8080").host == "fe80::1");
  CHECK_FALSE(parse_endpoint_url("").valid);
  CHECK(hermes::is_local_endpoint("http://127.0.0.1:8080/v1"));
  CHECK_FALSE(hermes::is_local_endpoint("https://api.openai.com/v1"));
}
