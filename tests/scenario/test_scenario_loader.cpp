// Scenario files: every schema error names the entry that is wrong, at its line and
// column; positions come from json_positions.
#include <catch2/catch.hpp>

#include "engine/scenario/json_positions.h"
#include "engine/scenario/scenario.h"

using namespace ts;

namespace {

std::string error_of(const std::string& text) {
  try {
    parse_scenario(text, "s.json");
  } catch (const ScenarioLoadError& e) {
    return e.format();
  }
  return "";
}

// A valid scenario with `entries` as its expectations, one per line from line 3.
std::string with_expect(const std::vector<std::string>& entries) {
  std::string s = "{\"format\": \"tapescope-scenario/1\", \"id\": \"t\", \"title\": \"t\", \"script\": \"x = 1\",\n \"expect\": [\n";
  for (size_t i = 0; i < entries.size(); ++i) s += "  " + entries[i] + (i + 1 < entries.size() ? ",\n" : "\n");
  return s + "]}\n";
}

}  // namespace

TEST_CASE("json_positions maps pointers to keys and elements", "[scenario]") {
  const std::string text = "{\"a\": [10, {\"b\": \"x/y\"}], \"c~d\": true}";
  const auto pos = json_positions(text);
  CHECK(pos.at("") == 0);
  CHECK(pos.at("/a") == text.find("\"a\""));
  CHECK(pos.at("/a/0") == text.find("10"));
  CHECK(pos.at("/a/1") == text.find("{\"b\""));
  CHECK(pos.at("/a/1/b") == text.find("\"b\""));
  CHECK(pos.at("/c~0d") == text.find("\"c~d\""));
  CHECK(pos.count("/a/2") == 0);
}

TEST_CASE("a wrong key is reported where it is, not where the key first appears", "[scenario]") {
  const std::string text = with_expect({"{\"expr\": \"x\", \"value\": 1}", "{\"expr\": \"x\", \"value\": 1}",
                                        "{\"expr\": \"x\", \"valu\": 1}"});
  CHECK(error_of(text) == "s.json:5:17: unknown key \"valu\" in an expectation");
}

TEST_CASE("field types are checked at load time with their place", "[scenario]") {
  CHECK(error_of(with_expect({"{\"output\": \"1\"}"})) ==
        "s.json:3:4: \"output\" must be an array of strings (the printed lines)");
  CHECK(error_of(with_expect({"{\"expr\": \"x\", \"value\": 1, \"tol\": -1}"})) ==
        "s.json:3:29: \"tol\" must be a number >= 0");
  CHECK(error_of(with_expect({"{\"expr\": \"x\", \"value\": [1, \"2\"]}"})) ==
        "s.json:3:17: \"value\" must be a number (\"inf\", \"-inf\", \"nan\" for those), null, or nested lists of numbers");
  CHECK(error_of(with_expect({"{\"expr\": \"x\", \"value\": [1, null]}"})).find("\"value\" must be") != std::string::npos);
  CHECK(error_of(with_expect({"{\"expr\": \"x\", \"shape\": [2, -1]}"})).find("\"shape\" must be an array of integers") !=
        std::string::npos);
  CHECK(error_of(with_expect({"{\"error\": \"ValueError\", \"line\": \"3\"}"})).find("\"line\" must be a line number") !=
        std::string::npos);
  CHECK(error_of(with_expect({"{\"causes\": [{\"line\": 1, \"cause\": 7}]}"})).find("\"causes\" must be an array of") !=
        std::string::npos);
  CHECK(error_of(with_expect({"{\"expr\": \"x\", \"value\": null}", "{\"expr\": \"x\", \"value\": [[1, 2], [3, 4]]}",
                              "{\"causes\": [{\"line\": 7, \"source\": \"x\", \"cause\": \"UNCONNECTED\"}]}"}))
            .empty());
}

TEST_CASE("claims and notes name their entry", "[scenario]") {
  const std::string base = "{\"format\": \"tapescope-scenario/1\", \"id\": \"t\", \"title\": \"t\", \"script\": \"x = 1\",\n";
  CHECK(error_of(base + " \"claims\": [\n  {\"text\": \"a\", \"holds\": true},\n  {\"text\": \"b\", \"holds\": true, \"why\": 1}\n]}") ==
        "s.json:4:32: unknown key \"why\" in a claim");
  CHECK(error_of(base + " \"claims\": [{\"text\": \"a\", \"holds\": \"yes\"}]}") ==
        "s.json:2:13: a claim needs \"text\" (string) and \"holds\" (true/false)");
  CHECK(error_of(base + " \"notes\": [{\"line\": 1, \"text\": \"a\"}, {\"line\": \"2\", \"text\": \"b\"}]}") ==
        "s.json:2:38: each note must be {\"line\": N, \"text\": \"...\"}");
}

TEST_CASE("malformed and over-nested JSON point at the offending character", "[scenario]") {
  CHECK(error_of("{\"format\": \"tapescope-scenario/1\",\n \"id\": }").rfind("s.json:2:8: invalid JSON", 0) == 0);
  std::string deep = "{\"format\": \"tapescope-scenario/1\",\n\"x-deep\": ";
  for (int i = 0; i < 70; ++i) deep += "[";
  CHECK(error_of(deep) == "s.json:2:74: JSON nested too deeply (limit 64)");
  CHECK(error_of("[1, 2]") == "s.json:1:1: a scenario must be a JSON object");
  CHECK(error_of("{\"format\": \"tapescope-scenario/2\", \"id\": \"t\", \"title\": \"t\", \"script\": \"\"}") ==
        "s.json:1:2: \"format\" must be exactly \"tapescope-scenario/1\"");
}

TEST_CASE("codes, dtypes and lines no run can produce are refused at load", "[scenario]") {
  // An expectation that can never hold is a mistake in the file, not a failed run.
  CHECK(error_of(with_expect({"{\"expr\": \"x\", \"cause\": \"NOT_A_CAUSE\"}"})).find("\"cause\" must be one of causes.md's codes") !=
        std::string::npos);
  CHECK(error_of(with_expect({"{\"expr\": \"x\", \"dtype\": \"float128\"}"})).find("\"dtype\" must be a dtype name") !=
        std::string::npos);
  for (const char* line : {"0", "-3", "-0"})
    CHECK(error_of(with_expect({std::string("{\"error\": \"ValueError\", \"line\": ") + line + "}"}))
              .find("\"line\" must be a line number (an integer >= 1)") != std::string::npos);
  CHECK(error_of(with_expect({"{\"causes\": [{\"line\": 1, \"cause\": \"UNCONNECTED\", \"foo\": 1}]}"})) ==
        "s.json:3:51: unknown key \"foo\" in a \"causes\" item (allowed: line, source, cause)");
  CHECK(error_of(with_expect({"{\"causes\": [{\"line\": 1, \"cause\": \"UNCONECTED\"}]}"})).find("\"causes\" must be") !=
        std::string::npos);
}
