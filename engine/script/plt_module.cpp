// matplotlib.pyplot for tape scripts: every call is recorded as a plot event (JSON)
// that the GUI draws and the CLI lists; nothing is rendered or written to disk here.
// Values plotted are read without events (plotting is not a computation the trace
// graph needs). Return values mimic matplotlib enough for `_ = plt.xlabel('x')` and
// `line, = plt.plot(...)`.
#include <nlohmann/json.hpp>

#include "../engine.h"
#include "tf_util.h"

namespace ts::script {

namespace {

using nlohmann::json;

// The numbers of a plotted value: tensors, arrays, lists, ranges, numbers.
std::vector<double> plot_values(Interpreter& in, const Value& v) {
  std::vector<double> out;
  if (is_arrayish(v)) {
    const TensorValue& t = peek_value(in, v);
    if (t.dtype == DType::String) in.raise("TypeError", "plt.plot cannot plot strings");
    for (Eigen::Index i = 0; i < t.data.size(); ++i) out.push_back(t.data[i]);
    return out;
  }
  if (v.is_number()) return {v.as_double()};
  for (const Value& x : in.iterate(v)) {
    if (x.is_number()) out.push_back(x.as_double());
    else if (is_arrayish(x) && peek_value(in, x).size() == 1) out.push_back(peek_value(in, x).data[0]);
    else in.raise("TypeError", "plt.plot needs numbers, got " + in.type_name(x));
  }
  return out;
}

json numbers(const std::vector<double>& v) {
  json a = json::array();
  for (double x : v) a.push_back(std::isfinite(x) ? json(x) : json(nullptr));
  return a;
}

Value artist(Interpreter& in, const std::string& type, const std::string& repr) {
  auto [v, obj] = new_native(in, type, type);
  obj->repr = [repr] { return repr; };
  return v;
}

std::string py_quote(const std::string& s) { return "'" + s + "'"; }

// plt.plot(y), plt.plot(x, y), plt.plot(x, y, fmt), with label= / color= keywords.
Value plot(Interpreter& in, CallArgs& a, const std::string& cmd) {
  std::vector<Value> pos = a.args;
  std::string fmt;
  if (!pos.empty() && pos.back().kind == VKind::Str) {
    fmt = pos.back().as_str();
    pos.pop_back();
  }
  if (pos.empty() || pos.size() > 2) in.raise("TypeError", cmd + "() takes 1 or 2 positional data arguments, got " + std::to_string(pos.size()));
  std::vector<double> y = plot_values(in, pos.back()), x;
  if (pos.size() == 2) {
    x = plot_values(in, pos[0]);
    if (x.size() != y.size())
      in.raise("ValueError", "x and y must have same first dimension, but have shapes (" + std::to_string(x.size()) + ",) and (" +
                                 std::to_string(y.size()) + ",)");
  } else {
    for (size_t i = 0; i < y.size(); ++i) x.push_back(static_cast<double>(i));
  }
  json j{{"cmd", cmd}, {"x", numbers(x)}, {"y", numbers(y)}};
  if (!fmt.empty()) j["fmt"] = fmt;
  std::string label;
  for (const auto& [k, v] : a.kwargs) {
    if (v.kind == VKind::Str) j[k] = v.as_str();
    else if (v.is_number()) j[k] = v.as_double();
    if (k == "label") label = in.str(v);
  }
  in.engine().plot(j.dump());
  if (cmd == "scatter") return artist(in, "PathCollection", "<matplotlib.collections.PathCollection object>");
  return in.make_list({artist(in, "Line2D", "Line2D(" + label + ")")});
}

// xlabel / ylabel / title: one text argument.
NativeFn text_command(const std::string& cmd) {
  return [cmd](Interpreter& in, CallArgs& a) {
    Args args(in, a, cmd, {cmd == "title" ? "label" : cmd == "suptitle" ? "t" : "xlabel", "fontdict", "loc", "fontsize"}, 1);
    const std::string text = in.str(args[0]);
    in.engine().plot(json{{"cmd", cmd}, {"text", text}}.dump());
    const std::string where = cmd == "xlabel" ? "0.5, 0" : cmd == "ylabel" ? "0, 0.5" : "0.5, 1.0";
    return artist(in, "Text", "Text(" + where + ", " + py_quote(text) + ")");
  };
}

}  // namespace

void install_plt_module(Interpreter& in) {
  auto plt = std::make_shared<ModuleObj>("matplotlib.pyplot");
  def(in, *plt, "plot", "matplotlib.pyplot.plot", [](Interpreter& i, CallArgs& a) { return plot(i, a, "plot"); });
  def(in, *plt, "scatter", "matplotlib.pyplot.scatter", [](Interpreter& i, CallArgs& a) { return plot(i, a, "scatter"); });
  for (const char* cmd : {"xlabel", "ylabel", "title", "suptitle"})
    def(in, *plt, cmd, std::string("matplotlib.pyplot.") + cmd, text_command(cmd));
  def(in, *plt, "legend", "matplotlib.pyplot.legend", [](Interpreter& i, CallArgs& a) {
    json j{{"cmd", "legend"}};
    for (const auto& [k, v] : a.kwargs)
      if (v.kind == VKind::Str) j[k] = v.as_str();
    i.engine().plot(j.dump());
    return artist(i, "Legend", "<matplotlib.legend.Legend object>");
  });
  def(in, *plt, "figure", "matplotlib.pyplot.figure", [](Interpreter& i, CallArgs& a) {
    json j{{"cmd", "figure"}};
    if (const Value* fs = a.kw("figsize"))
      j["figsize"] = numbers(plot_values(i, *fs));
    i.engine().plot(j.dump());
    return artist(i, "Figure", "<Figure size 640x480 with 0 Axes>");
  });
  for (const char* cmd : {"show", "grid", "close", "tight_layout"})
    def(in, *plt, cmd, std::string("matplotlib.pyplot.") + cmd, [cmd = std::string(cmd)](Interpreter& i, CallArgs& a) {
      json j{{"cmd", cmd}};
      if (!a.args.empty() && a.args[0].kind == VKind::Bool) j["on"] = a.args[0].b;
      i.engine().plot(j.dump());
      return Value::none();
    });
  for (const char* cmd : {"xlim", "ylim"})
    def(in, *plt, cmd, std::string("matplotlib.pyplot.") + cmd, [cmd = std::string(cmd)](Interpreter& i, CallArgs& a) {
      std::vector<double> lim;
      for (const Value& v : a.args)
        for (double x : plot_values(i, v)) lim.push_back(x);
      if (lim.size() == 2) i.engine().plot(json{{"cmd", cmd}, {"range", numbers(lim)}}.dump());
      return i.make_tuple({Value::number(lim.size() > 0 ? lim[0] : 0.0), Value::number(lim.size() > 1 ? lim[1] : 1.0)});
    });
  def(in, *plt, "savefig", "matplotlib.pyplot.savefig", [](Interpreter& i, CallArgs&) {
    // Scripts cannot touch files: the figure is recorded, not written.
    i.engine().plot(json{{"cmd", "savefig"}}.dump());
    return Value::none();
  });
  in.register_module("matplotlib.pyplot", plt);
  in.register_module("plt", plt);
  // `import matplotlib as mpl` (the guide's setup cell): pyplot, and rcParams to set
  // figure options the plot view ignores.
  auto mpl = std::make_shared<ModuleObj>("matplotlib");
  mpl->attrs.set("pyplot", Value::object(plt));
  mpl->attrs.set("rcParams", in.make_dict());
  in.register_module("matplotlib", mpl);
}

}  // namespace ts::script
