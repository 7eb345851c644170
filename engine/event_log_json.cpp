#include "event_log_json.h"

#include <cmath>
#include <nlohmann/json.hpp>
#include <stdexcept>

namespace ts {

using nlohmann::json;

namespace {

json diag_json(const Diagnosis& d) {
  json ev = json::array();
  for (const auto& e : d.evidence) ev.push_back({{"kind", e.kind}, {"id", e.id}, {"line", e.line}, {"label", e.label}});
  return {{"code", cause_code(d.code)}, {"message", d.message}, {"fix", d.fix}, {"line", d.line},
          {"evidence", ev}, {"path", d.path}, {"break", d.break_id}, {"zero_by_request", d.zero_by_request}};
}

Diagnosis diag_from(const json& j) {
  Diagnosis d;
  cause_from_code(j.at("code").get<std::string>(), d.code);
  d.message = j.value("message", "");
  d.fix = j.value("fix", "");
  d.line = j.value("line", 0);
  for (const auto& e : j.value("evidence", json::array()))
    d.evidence.push_back({e.value("kind", ""), e.value("id", int64_t{-1}), e.value("line", 0), e.value("label", "")});
  d.path = j.value("path", std::vector<int64_t>{});
  d.break_id = j.value("break", int64_t{-1});
  d.zero_by_request = j.value("zero_by_request", false);
  return d;
}

}  // namespace

json number_json(double x) {
  if (std::isnan(x)) return "nan";
  if (std::isinf(x)) return x > 0 ? "inf" : "-inf";
  return x;
}

double number_from(const json& j) {
  if (j.is_string()) {
    const std::string s = j.get<std::string>();
    if (s == "nan") return std::nan("");
    if (s == "inf") return INFINITY;
    if (s == "-inf") return -INFINITY;
    throw std::runtime_error("a value in the trace is the string \"" + s + "\", not a number");
  }
  return j.get<double>();
}

namespace {

json value_json(const TensorValue& v) {
  json j = {{"dtype", dtype_name(v.dtype)}, {"shape", v.shape}};
  const int64_t n = v.size();
  const int64_t k = std::min(n, kTraceMaxElements);
  if (v.dtype == DType::String) {
    j["strings"] = std::vector<std::string>(v.strings.begin(), v.strings.begin() + k);
  } else if (v.dtype != DType::Resource) {
    json vals = json::array();
    for (int64_t i = 0; i < k; ++i) vals.push_back(number_json(v.data[i]));
    j["values"] = vals;
  }
  if (k < n) j["truncated"] = true;
  return j;
}

// A shape a trace may hold: rank 0-8, no negative dimension, at most 10^7 elements (a
// run's own cap), so a hand-edited trace cannot make the views index past a value.
Shape checked_shape(const json& j) {
  Shape s = j.get<Shape>();
  if (s.size() > 8) throw std::runtime_error("a shape in the trace has rank " + std::to_string(s.size()));
  double n = 1;
  for (int64_t d : s) {
    if (d < 0) throw std::runtime_error("a shape in the trace has a negative dimension (" + std::to_string(d) + ")");
    n *= static_cast<double>(d);
  }
  if (n > 1e7) throw std::runtime_error("a tensor in the trace has more than 10^7 elements");
  return s;
}

TensorValue value_from(const json& j) {
  TensorValue v;
  v.dtype = dtype_from_name(j.at("dtype").get<std::string>()).value_or(DType::Float32);
  v.shape = checked_shape(j.at("shape"));
  if (j.contains("strings")) {
    v.strings = j["strings"].get<std::vector<std::string>>();
    v.strings.resize(static_cast<size_t>(v.size()));
  } else {
    const json vals = j.value("values", json::array());
    v.data = Eigen::ArrayXd::Zero(v.dtype == DType::Resource ? 1 : v.size());
    for (size_t i = 0; i < vals.size() && static_cast<Eigen::Index>(i) < v.data.size(); ++i)
      v.data[static_cast<Eigen::Index>(i)] = number_from(vals[i]);
  }
  return v;
}

}  // namespace

std::string diagnosis_to_json(const Diagnosis& d) { return diag_json(d).dump(); }

std::string event_log_to_json(const EventLog& log, int indent) {
  json j;
  j["format"] = "tapescope-trace/1";
  j["file"] = log.file;
  j["script"] = log.script;
  json tensors = json::array();
  for (const auto& t : log.tensors) {
    json x = value_json(*t.value);
    x["id"] = t.id;
    x["kind"] = tensor_kind_name(t.kind);
    x["producer"] = t.producer;
    x["output_index"] = t.output_index;
    x["line"] = t.line;
    x["label"] = t.label;
    tensors.push_back(std::move(x));
  }
  j["tensors"] = std::move(tensors);
  json ops = json::array();
  for (const auto& o : log.ops) {
    json nr = json::array();
    for (const auto& [tape, reason] : o.not_recorded) nr.push_back({tape, static_cast<int>(reason)});
    json attrs = json::object();
    for (const auto& [k, v] : o.attrs.items()) attrs[k] = attr_to_string(v);
    ops.push_back({{"id", o.id}, {"type", o.type}, {"label", o.label}, {"category", static_cast<int>(o.category)},
                   {"inputs", o.inputs}, {"outputs", o.outputs}, {"control", o.control},
                   {"state_inputs", o.state_inputs}, {"line", o.line}, {"recorded_by", o.recorded_by},
                   {"not_recorded", nr}, {"grad_call", o.grad_call}, {"function_call", o.function_call},
                   {"attrs", attrs}});
  }
  j["ops"] = std::move(ops);
  json vars = json::array();
  for (const auto& v : log.variables)
    vars.push_back({{"id", v.id}, {"name", v.name}, {"path", v.path}, {"trainable", v.trainable}, {"keras", v.keras},
                    {"dtype", dtype_name(v.dtype)}, {"shape", v.shape}, {"line", v.line}, {"versions", v.versions}});
  j["variables"] = std::move(vars);
  json tapes = json::array();
  for (const auto& t : log.tapes)
    tapes.push_back({{"id", t.id}, {"name", t.name}, {"persistent", t.persistent},
                     {"watch_accessed_variables", t.watch_accessed_variables}, {"line", t.line}});
  j["tapes"] = std::move(tapes);
  json calls = json::array();
  for (const auto& c : log.gradient_calls) {
    json results = json::array();
    for (const auto& r : c.results) {
      json x = {{"label", r.label}, {"source", r.source}, {"grad", r.grad}};
      if (r.diagnosis) x["diagnosis"] = diag_json(*r.diagnosis);
      results.push_back(std::move(x));
    }
    calls.push_back({{"id", c.id}, {"tape", c.tape}, {"line", c.line}, {"kind", c.kind}, {"targets", c.targets},
                     {"results", results}, {"zero_requested", c.zero_requested}, {"jacobian_row", c.jacobian_row}, {"error", c.error}});
  }
  j["gradient_calls"] = std::move(calls);
  json events = json::array();
  for (const auto& e : log.events) {
    json x = {{"k", event_kind_name(e.kind)}, {"line", e.line}};
    if (e.subject != kNoId) x["subject"] = e.subject;
    if (e.tape != kNoId) x["tape"] = e.tape;
    if (e.call != kNoId) x["call"] = e.call;
    if (e.op != kNoId) x["op"] = e.op;
    if (!e.inputs.empty()) x["inputs"] = e.inputs;
    if (!e.outputs.empty()) x["outputs"] = e.outputs;
    if (!e.name.empty()) x["name"] = e.name;
    if (!e.text.empty()) x["text"] = e.text;
    events.push_back(std::move(x));
  }
  j["events"] = std::move(events);
  return j.dump(indent);
}

EventLog event_log_from_json(const std::string& text) {
  json j = json::parse(text, nullptr, false);
  if (j.is_discarded()) throw std::runtime_error("the trace is not valid JSON");
  if (!j.is_object() || j.value("format", "") != "tapescope-trace/1")
    throw std::runtime_error("not a Tapescope trace (expected \"format\": \"tapescope-trace/1\")");
  try {
    EventLog log;
    log.file = j.value("file", "");
    log.script = j.value("script", "");
    log.index.assign(1, -1);
    auto place = [&](int64_t id, int64_t v) {
      if (id <= 0 || id > 100'000'000) throw std::runtime_error("bad id in trace");
      if (log.index.size() <= static_cast<size_t>(id)) log.index.resize(static_cast<size_t>(id) + 1, -1);
      log.index[static_cast<size_t>(id)] = v;
    };
    for (const auto& x : j.at("tensors")) {
      TensorInfo t;
      t.id = x.at("id").get<int64_t>();
      t.value = std::make_shared<const TensorValue>(value_from(x));
      const std::string kind = x.value("kind", "constant");
      for (auto k : {TensorKind::Constant, TensorKind::OpOutput, TensorKind::VariableHandle, TensorKind::HostValue,
                     TensorKind::StateValue})
        if (kind == tensor_kind_name(k)) t.kind = k;
      t.producer = x.value("producer", int64_t{-1});
      t.output_index = x.value("output_index", 0);
      t.line = x.value("line", 0);
      t.label = x.value("label", "");
      place(t.id, static_cast<int64_t>(log.tensors.size()));
      log.tensors.push_back(std::move(t));
    }
    for (const auto& x : j.at("ops")) {
      OpInfo o;
      o.id = x.at("id").get<int64_t>();
      o.type = x.value("type", "");
      o.label = x.value("label", "");
      o.category = static_cast<OpCategory>(x.value("category", 0));
      o.inputs = x.value("inputs", std::vector<int64_t>{});
      o.outputs = x.value("outputs", std::vector<int64_t>{});
      o.control = x.value("control", std::vector<int64_t>{});
      o.state_inputs = x.value("state_inputs", std::vector<int64_t>{});
      o.line = x.value("line", 0);
      o.recorded_by = x.value("recorded_by", std::vector<int64_t>{});
      for (const auto& nr : x.value("not_recorded", json::array()))
        o.not_recorded.push_back({nr.at(0).get<int64_t>(), static_cast<NotRecordedReason>(nr.at(1).get<int>())});
      o.grad_call = x.value("grad_call", int64_t{-1});
      o.function_call = x.value("function_call", int64_t{-1});
      const json attrs = x.value("attrs", json::object());  // named: items() of a temporary dangles
      for (const auto& [k, v] : attrs.items()) o.attrs.set(k, v.get<std::string>());
      place(o.id, -2 - static_cast<int64_t>(log.ops.size()));
      log.ops.push_back(std::move(o));
    }
    for (const auto& x : j.at("variables")) {
      VariableInfo v;
      v.id = x.at("id").get<int64_t>();
      v.name = x.value("name", "");
      v.path = x.value("path", "");
      v.trainable = x.value("trainable", true);
      v.keras = x.value("keras", false);
      v.dtype = dtype_from_name(x.value("dtype", "float32")).value_or(DType::Float32);
      v.shape = checked_shape(x.value("shape", json::array()));
      v.line = x.value("line", 0);
      v.versions = x.value("versions", std::vector<int64_t>{});
      log.variables.push_back(std::move(v));
    }
    for (const auto& x : j.at("tapes"))
      log.tapes.push_back({x.at("id").get<int64_t>(), x.value("name", ""), x.value("persistent", false),
                           x.value("watch_accessed_variables", true), x.value("line", 0)});
    for (const auto& x : j.at("gradient_calls")) {
      GradientCall c;
      c.id = x.at("id").get<int64_t>();
      c.tape = x.value("tape", int64_t{-1});
      c.line = x.value("line", 0);
      c.kind = x.value("kind", "gradient");
      c.targets = x.value("targets", std::vector<int64_t>{});
      c.zero_requested = x.value("zero_requested", false);
      c.jacobian_row = x.value("jacobian_row", false);
      c.error = x.value("error", "");
      for (const auto& r : x.value("results", json::array())) {
        SourceResult s;
        s.label = r.value("label", "");
        s.source = r.value("source", int64_t{-1});
        s.grad = r.value("grad", int64_t{-1});
        if (r.contains("diagnosis")) s.diagnosis = diag_from(r["diagnosis"]);
        c.results.push_back(std::move(s));
      }
      log.gradient_calls.push_back(std::move(c));
    }
    for (const auto& x : j.at("events")) {
      Event e;
      const std::string k = x.value("k", "");
      bool found = false;
      for (int i = 0; i <= static_cast<int>(EventKind::Alert); ++i)
        if (k == event_kind_name(static_cast<EventKind>(i))) {
          e.kind = static_cast<EventKind>(i);
          found = true;
        }
      if (!found) throw std::runtime_error("unknown event kind '" + k + "' in trace");
      e.line = x.value("line", 0);
      e.subject = x.value("subject", int64_t{-1});
      e.tape = x.value("tape", int64_t{-1});
      e.call = x.value("call", int64_t{-1});
      e.op = x.value("op", int64_t{-1});
      e.inputs = x.value("inputs", std::vector<int64_t>{});
      e.outputs = x.value("outputs", std::vector<int64_t>{});
      e.name = x.value("name", "");
      e.text = x.value("text", "");
      log.events.push_back(std::move(e));
    }
    return log;
  } catch (const json::exception& ex) {
    throw std::runtime_error(std::string("malformed trace: ") + ex.what());
  }
}

}  // namespace ts
