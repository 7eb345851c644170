// Loading scenario files: JSON with schema checks (unknown keys are errors, except
// "x-" keys), or a plain script file. Errors carry FILE:LINE:COL.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "../diagnosis_types.h"
#include "../dtype.h"
#include "json_positions.h"
#include "../script/parser.h"
#include "scenario.h"

namespace ts {

using nlohmann::json;

namespace {

constexpr size_t kMaxScenarioBytes = 4u << 20;

// Line and column (1-based) of a byte offset.
std::pair<int, int> line_col(const std::string& text, size_t offset) {
  int line = 1, col = 1;
  for (size_t i = 0; i < offset && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++line;
      col = 1;
    } else if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) {
      ++col;
    }
  }
  return {line, col};
}

// Fails at the entry a JSON pointer names ("/expect/2/valu"), or at the nearest
// enclosing entry found. Positions are only worked out when something is wrong.
[[noreturn]] void fail_at(const std::string& file, const std::string& text, std::string pointer,
                          const std::string& message) {
  const auto pos = json_positions(text);
  for (;;) {
    auto it = pos.find(pointer);
    if (it != pos.end()) {
      auto [l, c] = line_col(text, it->second);
      throw ScenarioLoadError{file, l, c, message};
    }
    const size_t slash = pointer.rfind('/');
    if (slash == std::string::npos) break;
    pointer.resize(slash);
  }
  throw ScenarioLoadError{file, 1, 1, message};
}

std::string member(const std::string& parent, const std::string& key) {
  std::string out = parent + "/";
  for (char c : key) out += c == '~' ? std::string("~0") : c == '/' ? std::string("~1") : std::string(1, c);
  return out;
}

std::string element(const std::string& parent, size_t index) { return parent + "/" + std::to_string(index); }

bool has_suffix(const std::string& s, const std::string& suf) {
  return s.size() >= suf.size() && s.compare(s.size() - suf.size(), suf.size(), suf) == 0;
}

}  // namespace

std::string ScenarioLoadError::format() const {
  std::string out = file;
  if (line > 0) out += ":" + std::to_string(line) + ":" + std::to_string(col);
  return out + ": " + message;
}

Scenario parse_scenario(const std::string& text, const std::string& path) {
  if (text.size() > kMaxScenarioBytes)
    throw ScenarioLoadError{path, 0, 0, "scenario file too large (" + std::to_string(text.size()) + " bytes; the limit is " +
                                            std::to_string(kMaxScenarioBytes) + ")"};
  json j;
  try {
    // Depth is bounded by nlohmann's recursive parser; cap nesting before parsing.
    int depth = 0, line = 1, col = 0;
    bool in_str = false, esc = false;
    for (char ch : text) {
      ++col;
      if (ch == '\n') line += 1, col = 0;
      if (in_str) {
        if (esc) esc = false;
        else if (ch == '\\') esc = true;
        else if (ch == '"') in_str = false;
        continue;
      }
      if (ch == '"') in_str = true;
      else if ((ch == '[' || ch == '{') && ++depth > 64)
        throw ScenarioLoadError{path, line, col, "JSON nested too deeply (limit 64)"};
      else if (ch == ']' || ch == '}') --depth;
    }
    // A key given twice in one object is refused (the parser would keep the last).
    std::vector<std::vector<std::string>> keys;
    std::string duplicate;
    json::parser_callback_t on_event = [&](int, json::parse_event_t ev, json& parsed) {
      if (ev == json::parse_event_t::object_start) keys.emplace_back();
      else if (ev == json::parse_event_t::object_end && !keys.empty()) keys.pop_back();
      else if (ev == json::parse_event_t::key && !keys.empty() && duplicate.empty()) {
        const std::string k = parsed.get<std::string>();
        if (std::find(keys.back().begin(), keys.back().end(), k) != keys.back().end()) duplicate = k;
        keys.back().push_back(k);
      }
      return true;
    };
    j = json::parse(text, on_event);
    if (!duplicate.empty()) {
      // Where: the second `"key":` in the text (close enough to point at it).
      const std::string quoted = json(duplicate).dump();
      size_t at = text.find(quoted);
      if (at != std::string::npos) at = text.find(quoted, at + 1);
      auto [l, c] = line_col(text, at == std::string::npos ? 0 : at);
      throw ScenarioLoadError{path, l, c, "key " + quoted + " is given twice in one object"};
    }
  } catch (const json::parse_error& e) {
    auto [l, c] = line_col(text, e.byte > 0 ? e.byte - 1 : 0);
    std::string msg = e.what();
    const size_t p = msg.find("parse error");
    if (p != std::string::npos) msg = msg.substr(p);
    throw ScenarioLoadError{path, l, c, "invalid JSON: " + msg};
  } catch (const json::out_of_range& e) {
    // A number too large for a double (1e400): the parser names it, not where it is.
    std::string msg = e.what(), number;
    const size_t q = msg.find('\'');
    if (q != std::string::npos) number = msg.substr(q + 1, msg.find('\'', q + 1) - q - 1);
    const size_t at = number.empty() ? std::string::npos : text.find(number);
    auto [l, c] = line_col(text, at == std::string::npos ? 0 : at);
    throw ScenarioLoadError{path, l, c, "invalid JSON: the number " + number + " is too large"};
  }
  if (!j.is_object()) throw ScenarioLoadError{path, 1, 1, "a scenario must be a JSON object"};
  static const char* kKeys[] = {"format", "id", "title", "document", "section", "summary", "script", "notes", "claims", "expect"};
  for (const auto& [k, v] : j.items()) {
    bool known = k.rfind("x-", 0) == 0;
    for (const char* kk : kKeys) known = known || k == kk;
    if (!known) fail_at(path, text, member("", k), "unknown key \"" + k + "\" (allowed: format, id, title, document, section, summary, script, notes, claims, expect, or x-*)");
  }
  for (const char* req : {"format", "id", "title", "script"})
    if (!j.contains(req)) throw ScenarioLoadError{path, 1, 1, std::string("missing required key \"") + req + "\""};
  if (!j["format"].is_string() || j["format"].get<std::string>() != "tapescope-scenario/1")
    fail_at(path, text, "/format", "\"format\" must be exactly \"tapescope-scenario/1\"");
  Scenario s;
  s.path = path;
  auto str_field = [&](const char* k, std::string& out) {
    if (!j.contains(k)) return;
    if (!j[k].is_string()) fail_at(path, text, member("", k), std::string("\"") + k + "\" must be a string");
    out = j[k].get<std::string>();
  };
  str_field("id", s.id);
  str_field("title", s.title);
  str_field("document", s.document);
  str_field("section", s.section);
  str_field("summary", s.summary);
  const json& sc = j["script"];
  if (sc.is_string()) {
    s.script = sc.get<std::string>();
  } else if (sc.is_array()) {
    for (size_t i = 0; i < sc.size(); ++i) {
      if (!sc[i].is_string()) fail_at(path, text, element("/script", i), "\"script\" lines must be strings");
      if (i) s.script += "\n";
      s.script += sc[i].get<std::string>();
    }
  } else {
    fail_at(path, text, "/script", "\"script\" must be a string or an array of lines");
  }
  if (j.contains("notes")) {
    if (!j["notes"].is_array()) fail_at(path, text, "/notes", "\"notes\" must be an array");
    size_t ni = 0;
    for (const auto& n : j["notes"]) {
      const std::string at = element("/notes", ni++);
      if (!n.is_object() || !n.contains("line") || !n["line"].is_number_integer() || !n.contains("text") || !n["text"].is_string())
        fail_at(path, text, at, "each note must be {\"line\": N, \"text\": \"...\"}");
      for (const auto& [k, v] : n.items())
        if (k != "line" && k != "text" && k.rfind("x-", 0) != 0) fail_at(path, text, member(at, k), "unknown key \"" + k + "\" in a note");
      s.notes.push_back({n["line"].get<int>(), n["text"].get<std::string>()});
    }
  }
  static const char* kExpectKeys[] = {"expr", "value", "tol", "cause", "dtype", "shape", "output", "output_contains", "error",
                                      "line", "message_contains", "warning_contains", "watched", "tape", "causes"};
  // `where` names the entry for messages ("expect", "check"); `at` is its JSON pointer.
  auto check_expectation = [&](const json& e, const std::string& where, const std::string& at) {
    if (!e.is_object()) fail_at(path, text, at, "each " + where + " entry must be an object");
    for (const auto& [k, v] : e.items()) {
      bool known = k.rfind("x-", 0) == 0;
      for (const char* kk : kExpectKeys) known = known || k == kk;
      if (!known) fail_at(path, text, member(at, k), "unknown key \"" + k + "\" in an expectation");
    }
    // Each key belongs to one form; one whose form is absent is a typo or a misplaced
    // key (`"line"` beside `"value"`), which must not pass silently.
    static const std::pair<const char*, const char*> kOwner[] = {
        {"value", "expr"}, {"tol", "value"}, {"cause", "expr"}, {"dtype", "expr"}, {"shape", "expr"},
        {"line", "error"}, {"message_contains", "error"}, {"tape", "watched"}};
    for (const auto& [k, owner] : kOwner)
      if (e.contains(k) && !e.contains(owner))
        fail_at(path, text, member(at, k),
                std::string("\"") + k + "\" belongs with \"" + owner + "\", which this " + where + " entry does not have");
    const bool form = e.contains("expr") || e.contains("output") || e.contains("output_contains") || e.contains("error") ||
                      e.contains("warning_contains") || e.contains("watched") || e.contains("causes");
    if (!form) fail_at(path, text, at, "an expectation needs one of expr, output, output_contains, error, warning_contains, watched, causes");
    if (e.contains("expr") && !(e.contains("value") || e.contains("cause") || e.contains("dtype") || e.contains("shape")))
      fail_at(path, text, at + "/expr", "an \"expr\" expectation needs \"value\", \"cause\", \"dtype\" or \"shape\"");
    if (e.contains("expr") && e["expr"].is_string()) {
      // A SyntaxError in an expression refuses the file before it runs, as one in the script does.
      try {
        (void)script::parse_expression(e["expr"].get<std::string>(), "expr");
      } catch (const script::ScriptException& err) {
        fail_at(path, text, member(at, "expr"), "SyntaxError in \"expr\": " + err.error().message);
      }
    }
    if (e.contains("watched") && !e.contains("tape")) fail_at(path, text, at + "/watched", "a \"watched\" expectation needs \"tape\"");
    // Field types, so a wrong one is refused here with its place, not met mid-check.
    auto want = [&](const char* k, bool ok, const char* what) {
      if (e.contains(k) && !ok) fail_at(path, text, member(at, k), std::string("\"") + k + "\" must be " + what);
    };
    auto strings = [&](const char* k) {
      if (!e.contains(k)) return true;
      if (!e[k].is_array()) return false;
      for (const auto& x : e[k])
        if (!x.is_string()) return false;
      return true;
    };
    for (const char* k : {"expr", "cause", "dtype", "output_contains", "error", "message_contains", "warning_contains", "tape"})
      want(k, !e.contains(k) || e[k].is_string(), "a string");
    want("tol", !e.contains("tol") || (e["tol"].is_number() && e["tol"].get<double>() >= 0), "a number >= 0");
    want("line", !e.contains("line") || (e["line"].is_number_integer() && e["line"].get<int64_t>() >= 1),
         "a line number (an integer >= 1)");
    // A code or dtype no run can produce would make the expectation fail forever: refuse it.
    auto known_cause = [](const json& c) {
      Cause code;
      return c.is_string() && cause_from_code(c.get<std::string>(), code);
    };
    want("cause", !e.contains("cause") || known_cause(e["cause"]),
         "one of causes.md's codes (INTEGER_DTYPE, NOT_TRAINABLE, AUTO_WATCH_OFF, REPLACED_VARIABLE, NOT_WATCHED, "
         "CONTROL_FLOW_ONLY, HOST_COMPUTATION, STATEFUL_OP, STOP_GRADIENT, NON_DIFFERENTIABLE_OP, NOT_RECORDED, "
         "UNCONNECTED)");
    want("dtype", !e.contains("dtype") || (e["dtype"].is_string() && dtype_from_name(e["dtype"].get<std::string>())),
         "a dtype name (float32, float64, int32, int64, bool, string, ...)");
    want("output", strings("output"), "an array of strings (the printed lines)");
    want("watched", strings("watched"), "an array of strings (variable names)");
    if (e.contains("shape")) {
      bool ok = e["shape"].is_array();
      if (ok)
        for (const auto& d : e["shape"]) ok = ok && d.is_number_integer() && d.get<int64_t>() >= 0;
      want("shape", ok, "an array of integers >= 0");
    }
    if (e.contains("value")) {
      // A number, a bool, null, or nested lists of numbers; JSON has no infinities or
      // NaN, so those are the strings "inf", "-inf", "nan".
      std::vector<const json*> todo{&e["value"]};
      bool ok = true;
      auto nonfinite = [](const json& v) {
        return v.is_string() && (v.get<std::string>() == "inf" || v.get<std::string>() == "-inf" || v.get<std::string>() == "nan");
      };
      while (ok && !todo.empty()) {
        const json* v = todo.back();
        todo.pop_back();
        if (v->is_array())
          for (const auto& x : *v) todo.push_back(&x);
        else ok = v->is_number() || v->is_boolean() || nonfinite(*v) || (v->is_null() && v == &e["value"]);
      }
      want("value", ok, "a number (\"inf\", \"-inf\", \"nan\" for those), null, or nested lists of numbers");
    }
    if (e.contains("causes")) {
      bool ok = e["causes"].is_array();
      if (ok) {
        size_t i = 0;
        for (const auto& c : e["causes"]) {
          ok = ok && c.is_object() && c.contains("cause") && known_cause(c["cause"]);
          if (!ok) break;
          for (const auto& [ck, cv] : c.items()) {
            if (ck != "line" && ck != "source" && ck != "cause" && ck.rfind("x-", 0) != 0)
              fail_at(path, text, member(element(member(at, "causes"), i), ck),
                      "unknown key \"" + ck + "\" in a \"causes\" item (allowed: line, source, cause)");
            ok = ok && ((ck == "line" && cv.is_number_integer() && cv.get<int64_t>() >= 1) ||
                        ((ck == "source" || ck == "cause") && cv.is_string()) || ck.rfind("x-", 0) == 0);
          }
          ++i;
        }
      }
      want("causes", ok, "an array of {\"line\": N, \"source\": \"...\", \"cause\": \"CODE\"} with causes.md's codes");
    }
  };
  if (j.contains("expect")) {
    if (!j["expect"].is_array()) fail_at(path, text, "/expect", "\"expect\" must be an array");
    int idx = 0;
    for (const auto& e : j["expect"]) {
      check_expectation(e, "expect", element("/expect", static_cast<size_t>(idx)));
      s.expect.push_back({e.dump(), idx++});
    }
  }
  if (j.contains("claims")) {
    if (!j["claims"].is_array()) fail_at(path, text, "/claims", "\"claims\" must be an array");
    size_t ci = 0;
    for (const auto& c : j["claims"]) {
      const std::string at = element("/claims", ci++);
      if (!c.is_object()) fail_at(path, text, at, "each claim must be an object");
      for (const auto& [k, v] : c.items())
        if (k != "text" && k != "holds" && k != "check" && k != "explanation" && k.rfind("x-", 0) != 0)
          fail_at(path, text, member(at, k), "unknown key \"" + k + "\" in a claim");
      if (!c.contains("text") || !c["text"].is_string() || !c.contains("holds") || !c["holds"].is_boolean())
        fail_at(path, text, at, "a claim needs \"text\" (string) and \"holds\" (true/false)");
      Claim cl;
      cl.text = c["text"].get<std::string>();
      cl.holds = c["holds"].get<bool>();
      if (c.contains("explanation") && !c["explanation"].is_string())
        fail_at(path, text, at + "/explanation", "a claim's \"explanation\" must be a string");
      cl.explanation = c.value("explanation", "");
      if (c.contains("check")) {
        check_expectation(c["check"], "check", at + "/check");
        cl.check_json = c["check"].dump();
      }
      s.claims.push_back(std::move(cl));
    }
  }
  return s;
}

Scenario load_scenario(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    throw ScenarioLoadError{path, 0, 0, "is a folder, not a scenario file (check runs every scenario in a folder)"};
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ScenarioLoadError{path, 0, 0, "cannot open file (not found or not readable)"};
  // Read at most one byte past the limit, so a huge file, /dev/zero or a pipe that never
  // ends costs nothing (the limit's own check below then refuses it).
  const bool script = has_suffix(path, ".py") || has_suffix(path, ".tape");
  const size_t limit = script ? script::kMaxScriptBytes : kMaxScenarioBytes;
  std::string text(limit + 1, '\0');
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  text.resize(static_cast<size_t>(std::max<std::streamsize>(in.gcount(), 0)));
  if (text.size() > limit) {
    std::error_code size_ec;
    const auto size = std::filesystem::file_size(path, size_ec);  // a regular file's; none for a pipe
    throw ScenarioLoadError{path, 0, 0,
                            std::string(script ? "script" : "scenario file") + " too large (" +
                                (size_ec ? "more than " + std::to_string(limit) : std::to_string(size)) +
                                " bytes; the limit is " + std::to_string(limit) + ")"};
  }
  if (script) {
    Scenario s;
    s.path = path;
    const size_t slash = path.find_last_of('/');
    s.id = path.substr(slash == std::string::npos ? 0 : slash + 1);
    s.title = s.id;
    s.script = text;
    return s;
  }
  return parse_scenario(text, path);
}

}  // namespace ts
