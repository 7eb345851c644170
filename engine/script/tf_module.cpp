// The `tf` module (TensorFlow 2.17 names, defaults and messages): tensor creation,
// math and nn ops as engine ops labelled with the function the learner called,
// tf.Variable, dtypes, tf.random (seeded, deterministic), tf.GradientTape (watch,
// gradient, jacobian, batch_jacobian, watched_variables, stop_recording, reset) and
// tf.UnconnectedGradients. Keras, tf.data, tf.Module and tf.function come from the
// prelude and library_natives.cpp; tensor operators from tensor_ops.cpp.
//
// Conversions follow TF's eager fast path: the inputs of a multi-input op convert
// with the dtype of the first tensor among them (`tf.add(1, x)` with x float32 makes
// 1 a float32); a list holding tensors is packed (Pack), so gradients flow through it.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <mutex>
#include <optional>
#include <tuple>

#include "../engine.h"
#include "../format.h"
#include "../op_registry.h"
#include "../ops/einsum.h"
#include "ast.h"
#include "tf_util.h"

namespace ts::script {

namespace {

// ---------------------------------------------------------------------------------
// Helpers

Value T(TensorId id) { return Value::tensor(id); }

// The dtype the other inputs of an op convert to: the first Tensor/Variable's.
std::optional<DType> common_hint(Interpreter& in, std::initializer_list<const Value*> vals) {
  for (const Value* v : vals)
    if (v && is_tensorish(*v)) return value_dtype(in, *v);
  return std::nullopt;
}

TensorId arg_tensor(Interpreter& in, const Value& v, std::optional<DType> hint = std::nullopt) {
  return convert_to_tensor(in, v, hint, HintMode::Strict, "constant");
}

// The inputs of an op that share one dtype attr (TF's eager fast path,
// pywrap_tfe_src.cc): the dtype of the first Tensor/Variable among them; without one,
// the dtype the first input converts to (a NumPy array or scalar keeps its own, a
// Python float is float32), and the later inputs convert with it, so
// `tf.multiply(np.float64(6.0), 3.0)` is float64 and `tf.multiply(3.0, np.array(6.0))`
// float32 (the array is cast, as IsCompatible allows). Two tensors of different
// dtypes are left for the op to refuse.
std::vector<TensorId> convert_together(Interpreter& in, std::initializer_list<const Value*> vals) {
  std::optional<DType> hint = common_hint(in, vals);
  std::vector<TensorId> ids;
  for (const Value* v : vals) {
    ids.push_back(arg_tensor(in, *v, hint));
    if (!hint) hint = in.engine().value(ids.back()).dtype;
  }
  return ids;
}

// Converts every value of a list argument (tf.concat, tf.stack, tf.add_n) with the
// dtype of the first tensor among them.
std::vector<TensorId> tensor_list(Interpreter& in, const Value& list, const std::string& fname) {
  std::vector<Value> items = in.iterate(list);
  std::optional<DType> hint;
  for (const Value& v : items)
    if (is_tensorish(v)) {
      hint = value_dtype(in, v);
      break;
    }
  std::vector<TensorId> ids;
  for (const Value& v : items) {
    ids.push_back(arg_tensor(in, v, hint));
    if (!hint) hint = in.engine().value(ids.back()).dtype;  // the first input's dtype, as the fast path
  }
  if (ids.empty()) in.raise("ValueError", fname + " expects a non-empty list of tensors");
  return ids;
}

Attrs reduce_attrs(Interpreter& in, const Args& args, size_t axis_i, size_t keep_i) {
  Attrs a{{"keepdims", args.has(keep_i) && in.truthy(args[keep_i])}};
  if (args.has(axis_i)) a.set("axis", axis_arg(in, args[axis_i]));
  return a;
}

DType tf_dtype(Interpreter& in, const Value& v) { return dtype_arg(in, v, DTypeFlavor::Tf); }

std::string tf_name(DType d) {
  switch (d) {
    case DType::Float32: return "float32";
    case DType::Float64: return "float64";
    default: return std::string(dtype_name(d));
  }
}

// ---------------------------------------------------------------------------------
// Op families

// Registers `fn` under several modules (tf.sqrt and tf.math.sqrt are the same function).
struct Modules {
  ModuleObj* tf;
  ModuleObj* math;
  ModuleObj* nn;
  ModuleObj* random;
  ModuleObj* image;
  ModuleObj* dtypes;
  ModuleObj* nest;
};

void put(std::initializer_list<ModuleObj*> mods, const std::string& name, const Value& fn) {
  for (ModuleObj* m : mods) m->attrs.set(name, fn);
}

// y = Op(x): tf.square(x), tf.nn.relu(features), ...
Value unary(Interpreter& in, const std::string& qual, const std::string& type, const char* param) {
  return native_fn(in, qual, [qual, type, param](Interpreter& in2, CallArgs& a) {
    Args args(in2, a, qual, {param, "name"}, 1);
    // stop_gradient converts its argument with the tapes paused too (a variable read
    // for it is watched by no tape).
    std::optional<Engine::StopGradientScope> paused;
    if (type == "StopGradient") paused.emplace(in2.engine());
    return T(in2.engine().execute1(type, {arg_tensor(in2, args[0])}, {}, qual));
  });
}

// z = Op(x, y) with TF's fast-path conversion; `first`/`second` name the parameters.
Value binary(Interpreter& in, const std::string& qual, const std::string& type, const char* first = "x",
             const char* second = "y") {
  return native_fn(in, qual, [qual, type, first, second](Interpreter& in2, CallArgs& a) {
    Args args(in2, a, qual, {first, second, "name"}, 2);
    TensorId x, y;
    if (type == "AddV2") {
      // math_ops.add is Python: x converts alone, y with x's dtype as a hint (a float y of
      // an int x stays float, and AddV2 refuses the pair).
      x = arg_tensor(in2, args[0]);
      y = convert_to_tensor(in2, args[1], in2.engine().value(x).dtype, HintMode::Soft, "constant");
    } else {
      const std::vector<TensorId> xy = convert_together(in2, {&args[0], &args[1]});
      x = xy[0];
      y = xy[1];
    }
    return T(in2.engine().execute1(binary_op_for(type, in2.engine().value(x).dtype), {x, y}, {}, qual));
  });
}

Value reduction(Interpreter& in, const std::string& qual, const std::string& type) {
  return native_fn(in, qual, [qual, type](Interpreter& in2, CallArgs& a) {
    Args args(in2, a, qual, {"input_tensor", "axis", "keepdims", "name"}, 1);
    const TensorId x = arg_tensor(in2, args[0]);
    return T(in2.engine().execute1(type, {x}, reduce_attrs(in2, args, 1, 2), qual));
  });
}

// TF's truediv: integers go through float64; the second operand converts with a hint.
Value truediv_value(Interpreter& in, const Value& xv, const Value& yv, const std::string& label) {
  Engine& e = in.engine();
  const TensorId x = arg_tensor(in, xv);
  const TensorId y = convert_to_tensor(in, yv, e.value(x).dtype, HintMode::Soft, "constant");
  return T(truediv(in, x, y, label));
}

// tf.cumsum, tf.reverse, tf.gather_nd, tf.scatter_nd, tf.tensor_scatter_nd_update/add,
// the segment sums, tf.nn.bias_add, tf.math.xlogy and tf.math.divide_no_nan.
void install_index_ops(Interpreter& in, const Modules& m) {
  for (const char* fn : {"cumsum", "cumprod"})
    for (const char* module : {"tf.math.", "tf."}) {
      const std::string name = fn, q = module + name, type = name == "cumsum" ? "Cumsum" : "Cumprod";
      put({std::string(module) == "tf." ? m.tf : m.math}, name, native_fn(in, q, [q, name, type](Interpreter& in2, CallArgs& a) {
            Args args(in2, a, name, {"x", "axis", "exclusive", "reverse", "name"}, 1);
            const TensorId x = arg_tensor(in2, args[0]);
            const int64_t axis = args.has(1) ? int_arg(in2, args[1], "axis") : 0;
            const bool exclusive = args.has(2) && in2.truthy(args[2]), reverse = args.has(3) && in2.truthy(args[3]);
            return T(in2.engine().execute1(type, {x}, Attrs{{"axis", axis}, {"exclusive", exclusive}, {"reverse", reverse}}, q));
          }));
    }

  // tf.roll: shift and axis are an int or a list each.
  put({m.tf}, "roll", native_fn(in, "tf.roll", [](Interpreter& in2, CallArgs& a) {
        Args args(in2, a, "roll", {"input", "shift", "axis", "name"}, 3);
        const TensorId x = arg_tensor(in2, args[0]);
        auto rank_of = [&](const Value& v) -> int64_t {
          return is_tensorish(v) ? static_cast<int64_t>(value_shape(in2, v).size()) : is_sequence(v) ? 1 : 0;
        };
        const Attrs attrs{{"shift", axis_arg(in2, args[1])}, {"axis", axis_arg(in2, args[2])},
                          {"shift_rank", rank_of(args[1])}, {"axis_rank", rank_of(args[2])}};
        return T(in2.engine().execute1("Roll", {x}, attrs, "tf.roll"));
      }));

  // tf.math.top_k's op; the prelude wraps its two outputs in TF's TopKV2 namedtuple.
  put({m.math}, "_ts_top_k", native_fn(in, "tf.math.top_k", [](Interpreter& in2, CallArgs& a) {
        Args args(in2, a, "top_k", {"input", "k", "sorted", "index_type", "name"}, 1);
        const TensorId x = arg_tensor(in2, args[0]);
        const int64_t k = args.has(1) ? int_arg(in2, args[1], "k") : 1;
        const bool sorted = !args.has(2) || in2.truthy(args[2]);
        const DType index_type = args.has(3) ? tf_dtype(in2, args[3]) : DType::Int32;
        if (index_type != DType::Int32 && index_type != DType::Int64)
          in2.raise("TypeError", "Value passed to parameter 'index_type' has DataType " + tf_name(index_type) +
                                     " not in list of allowed values: int16, int32, int64");
        const std::vector<TensorId> out = in2.engine().execute(
            "TopKV2", {x}, Attrs{{"k", k}, {"sorted", sorted}, {"index_type", index_type}}, "tf.math.top_k");
        return in2.make_tuple({T(out[0]), T(out[1])});
      }));

  put({m.tf}, "reverse", native_fn(in, "tf.reverse", [](Interpreter& in2, CallArgs& a) {
        Args args(in2, a, "reverse", {"tensor", "axis", "name"}, 2);
        Engine& e = in2.engine();
        const TensorId x = arg_tensor(in2, args[0]);
        // The op wants a vector of axes; a scalar fails in the kernel, after a scalar input passed.
        if (args[1].kind == VKind::Int && e.value(x).rank() > 0)
          in2.raise("InvalidArgumentError", "'dims' must be 1-dimension, not 0 [Op:ReverseV2]");
        return T(e.execute1("ReverseV2", {x}, Attrs{{"axis", axis_arg(in2, args[1])}}, "tf.reverse"));
      }));

  put({m.tf}, "gather_nd", native_fn(in, "tf.gather_nd", [](Interpreter& in2, CallArgs& a) {
        Args args(in2, a, "gather_nd", {"params", "indices", "batch_dims", "name"}, 2);
        if (args.has(2) && int_arg(in2, args[2], "batch_dims") != 0)
          in2.raise("ValueError", "tf.gather_nd with batch_dims is not supported in tape scripts");
        Engine& e = in2.engine();
        const TensorId params = arg_tensor(in2, args[0]);
        const TensorId indices = arg_tensor(in2, args[1]);
        const TensorId result = e.execute1("GatherNd", {params, indices}, {}, "tf.gather_nd");
        // _GatherNdGrad returns IndexedSlices for [n, 1] indices: recorded like tf.gather's.
        const TensorValue& iv = e.value(indices);
        if (iv.rank() == 2 && iv.shape[1] == 1) {
          ModuleState::Gather g;
          g.params = params;
          g.root = e.tensor(result).producer;
          g.indices = iv;
          g.indices.shape = Shape{iv.shape[0]};
          g.params_shape = e.value(params).shape;
          module_state(in2)->gathers[g.root] = std::move(g);
        }
        return T(result);
      }));

  put({m.tf}, "scatter_nd", native_fn(in, "tf.scatter_nd", [](Interpreter& in2, CallArgs& a) {
        Args args(in2, a, "scatter_nd", {"indices", "updates", "shape", "name"}, 3);
        const TensorId indices = arg_tensor(in2, args[0]);
        const TensorId updates = arg_tensor(in2, args[1]);
        return T(in2.engine().execute1("ScatterNd", {indices, updates}, Attrs{{"shape", axis_arg(in2, args[2])}},
                                       "tf.scatter_nd"));
      }));

  for (const auto& [name, op_type] : {std::pair{"tensor_scatter_nd_update", "TensorScatterUpdate"},
                                      std::pair{"tensor_scatter_nd_add", "TensorScatterAdd"}}) {
    const std::string qual = std::string("tf.") + name, type = op_type, fname = name;
    put({m.tf}, name, native_fn(in, qual, [qual, type, fname](Interpreter& in2, CallArgs& a) {
          Args args(in2, a, fname, {"tensor", "indices", "updates", "name"}, 3);
          const std::vector<TensorId> tu = convert_together(in2, {&args[0], &args[2]});
          const TensorId indices = arg_tensor(in2, args[1]);
          return T(in2.engine().execute1(type, {tu[0], indices, tu[1]}, {}, qual));
        }));
  }

  put({m.math}, "unsorted_segment_sum", native_fn(in, "tf.math.unsorted_segment_sum", [](Interpreter& in2, CallArgs& a) {
        Args args(in2, a, "unsorted_segment_sum", {"data", "segment_ids", "num_segments", "name"}, 3);
        const TensorId data = arg_tensor(in2, args[0]);
        const TensorId ids = arg_tensor(in2, args[1]);
        const int64_t n = int_arg(in2, args[2], "num_segments");
        return T(in2.engine().execute1("UnsortedSegmentSum", {data, ids}, Attrs{{"num_segments", n}},
                                       "tf.math.unsorted_segment_sum"));
      }));
  put({m.math}, "segment_sum", native_fn(in, "tf.math.segment_sum", [](Interpreter& in2, CallArgs& a) {
        Args args(in2, a, "segment_sum", {"data", "segment_ids", "name"}, 2);
        const TensorId data = arg_tensor(in2, args[0]);
        const TensorId ids = arg_tensor(in2, args[1]);
        return T(in2.engine().execute1("SegmentSum", {data, ids}, {}, "tf.math.segment_sum"));
      }));

  for (const char* kind : {"mean", "max", "min", "prod"}) {
    const std::string k = kind, name = "segment_" + k, qual = "tf.math." + name;
    const std::string type = "Segment" + std::string(1, static_cast<char>(std::toupper(k[0]))) + k.substr(1);
    put({m.math}, name, native_fn(in, qual, [name, qual, type](Interpreter& in2, CallArgs& a) {
          Args args(in2, a, name, {"data", "segment_ids", "name"}, 2);
          const TensorId data = arg_tensor(in2, args[0]);
          const TensorId ids = arg_tensor(in2, args[1]);
          return T(in2.engine().execute1(type, {data, ids}, {}, qual));
        }));
    if (k == "mean") continue;  // unsorted_segment_mean is the prelude's (composite in TF)
    const std::string uname = "unsorted_" + name, uqual = "tf.math." + uname, utype = "Unsorted" + type;
    put({m.math}, uname, native_fn(in, uqual, [uname, uqual, utype](Interpreter& in2, CallArgs& a) {
          Args args(in2, a, uname, {"data", "segment_ids", "num_segments", "name"}, 3);
          const TensorId data = arg_tensor(in2, args[0]);
          const TensorId ids = arg_tensor(in2, args[1]);
          const int64_t n = int_arg(in2, args[2], "num_segments");
          return T(in2.engine().execute1(utype, {data, ids}, Attrs{{"num_segments", n}}, uqual));
        }));
  }

  put({m.nn}, "bias_add", native_fn(in, "tf.nn.bias_add", [](Interpreter& in2, CallArgs& a) {
        Args args(in2, a, "bias_add", {"value", "bias", "data_format", "name"}, 2);
        if (args.has(2)) {
          const std::string f = in2.str(args[2]);
          if (f.rfind("NC", 0) == 0)
            in2.raise("ValueError", "tf.nn.bias_add with data_format='NC...' is not supported in tape scripts");
          if (f.empty() || f[0] != 'N' || f.back() != 'C')
            in2.raise("ValueError", "`data_format` must be of the form `N...C` or `NC...`. Received: data_format=" + f);
        }
        const std::vector<TensorId> vb = convert_together(in2, {&args[0], &args[1]});
        return T(in2.engine().execute1("BiasAdd", {vb[0], vb[1]}, {}, "tf.nn.bias_add"));
      }));

  put({m.nn}, "l2_loss", native_fn(in, "tf.nn.l2_loss", [](Interpreter& in2, CallArgs& a) {
        Args args(in2, a, "l2_loss", {"t", "name"}, 1);
        return T(in2.engine().execute1("L2Loss", {arg_tensor(in2, args[0])}, {}, "tf.nn.l2_loss"));
      }));
  put({m.math}, "xlogy", binary(in, "tf.math.xlogy", "Xlogy"));
  put({m.math}, "xdivy", binary(in, "tf.math.xdivy", "Xdivy"));
  put({m.math}, "xlog1py", binary(in, "tf.math.xlog1py", "Xlog1py"));
  put({m.tf, m.math}, "realdiv", binary(in, "tf.realdiv", "RealDiv"));  // the op itself: no cast of integers

  // math_ops.div_no_nan: y converts first when only it is a tensor; integers go through float64.
  put({m.math}, "divide_no_nan", native_fn(in, "tf.math.divide_no_nan", [](Interpreter& in2, CallArgs& a) {
        Args args(in2, a, "divide_no_nan", {"x", "y", "name"}, 2);
        Engine& e = in2.engine();
        TensorId x, y;
        if (!is_tensorish(args[0]) && is_tensorish(args[1])) {
          y = arg_tensor(in2, args[1]);
          x = convert_to_tensor(in2, args[0], e.value(y).dtype, HintMode::Soft, "constant");
        } else {
          x = arg_tensor(in2, args[0]);
          y = convert_to_tensor(in2, args[1], e.value(x).dtype, HintMode::Soft, "constant");
        }
        const DType dx = e.value(x).dtype, dy = e.value(y).dtype;
        if (dx != dy)
          in2.raise("TypeError", "`x` and `y` must have the same dtype, got " + dtype_tf_name(dx) + " != " + dtype_tf_name(dy) + ".");
        const std::string label = "tf.math.divide_no_nan";
        if (dx == DType::Bool || dx == DType::String) raise_truediv_dtype(in2, dx, label);
        if (is_integer(dx)) {
          x = e.execute1("Cast", {x}, Attrs{{"DstT", DType::Float64}, {"SrcT", dx}}, label);
          y = e.execute1("Cast", {y}, Attrs{{"DstT", DType::Float64}, {"SrcT", dy}}, label);
        }
        return T(e.execute1("DivNoNan", {x, y}, {}, label));
      }));
}

void install_math(Interpreter& in, const Modules& m) {
  struct U { const char* name; const char* type; const char* param; bool top; bool math; bool nn; };
  const U unaries[] = {
      {"square", "Square", "x", true, true, false},     {"sqrt", "Sqrt", "x", true, true, false},
      {"exp", "Exp", "x", true, true, false},           {"log", "Log", "x", false, true, false},
      {"sin", "Sin", "x", true, true, false},           {"cos", "Cos", "x", true, true, false},
      {"tanh", "Tanh", "x", true, true, true},         {"abs", "Abs", "x", true, true, false},
      {"negative", "Neg", "x", true, true, false},      {"sign", "Sign", "x", true, true, false},
      {"floor", "Floor", "x", true, true, false},       {"ceil", "Ceil", "x", false, true, false},
      {"reciprocal", "Reciprocal", "x", false, true, false}, {"sigmoid", "Sigmoid", "x", true, true, true},
      {"round", "Round", "x", true, true, false},       {"relu", "Relu", "features", false, false, true},
      {"softplus", "Softplus", "features", false, true, true}, {"stop_gradient", "StopGradient", "input", true, false, false},
      {"identity", "Identity", "input", true, false, false}, {"erf", "Erf", "x", false, true, false},
      {"atan", "Atan", "x", true, true, false},         {"asin", "Asin", "x", true, true, false},
      {"acos", "Acos", "x", true, true, false},         {"log1p", "Log1p", "x", false, true, false},
      {"expm1", "Expm1", "x", false, true, false},      {"sinh", "Sinh", "x", true, true, false},
      {"cosh", "Cosh", "x", true, true, false},         {"asinh", "Asinh", "x", true, true, false},
      {"acosh", "Acosh", "x", true, true, false},       {"atanh", "Atanh", "x", true, true, false},
      {"elu", "Elu", "features", false, false, true},   {"selu", "Selu", "features", false, false, true},
      {"relu6", "Relu6", "features", false, false, true}, {"rsqrt", "Rsqrt", "x", false, true, false},
      {"softsign", "Softsign", "features", false, true, true}, {"tan", "Tan", "x", false, true, false},
      {"erfc", "Erfc", "x", false, true, false},        {"lgamma", "Lgamma", "x", false, true, false},
      {"digamma", "Digamma", "x", false, true, false},
  };
  for (const U& u : unaries) {
    // One native per module, so the op's label is the name the learner called.
    if (u.top) put({m.tf}, u.name, unary(in, std::string("tf.") + u.name, u.type, u.param));
    if (u.math) put({m.math}, u.name, unary(in, std::string("tf.math.") + u.name, u.type, u.param));
    if (u.nn) put({m.nn}, u.name, unary(in, std::string("tf.nn.") + u.name, u.type, u.param));
  }
  // (tf.log does not exist in TF 2: only tf.math.log.)
  struct B { const char* name; const char* type; bool top; };
  const B binaries[] = {{"add", "AddV2", true},           {"subtract", "Sub", true},      {"multiply", "Mul", true},
                        {"pow", "Pow", true},             {"maximum", "Maximum", true},   {"minimum", "Minimum", true},
                        {"greater", "Greater", true},     {"less", "Less", true},         {"equal", "Equal", true},
                        {"not_equal", "NotEqual", true},  {"greater_equal", "GreaterEqual", true},
                        {"less_equal", "LessEqual", true}, {"floordiv", "FloorDiv", true}, {"floormod", "FloorMod", false}};
  for (const B& b : binaries) {
    if (b.top) put({m.tf}, b.name, binary(in, std::string("tf.") + b.name, b.type));
    put({m.math}, b.name, binary(in, std::string("tf.math.") + b.name, b.type));
  }
  put({m.tf, m.math}, "atan2", binary(in, "tf.math.atan2", "Atan2", "y", "x"));  // atan2(y, x)
  put({m.math}, "polygamma", binary(in, "tf.math.polygamma", "Polygamma", "a", "x"));
  put({m.math}, "multiply_no_nan", binary(in, "tf.math.multiply_no_nan", "MulNoNan"));
  // math_ops.reciprocal_no_nan: gen_math_ops.div_no_nan(1, x) (no cast of integers).
  put({m.math}, "reciprocal_no_nan", native_fn(in, "tf.math.reciprocal_no_nan", [](Interpreter& in2, CallArgs& a) {
        Args args(in2, a, "reciprocal_no_nan", {"x", "name"}, 1);
        Engine& e = in2.engine();
        const TensorId x = arg_tensor(in2, args[0]);
        const TensorId one = e.constant(make_scalar(e.value(x).dtype, 1.0), "tf.math.reciprocal_no_nan");
        return T(e.execute1("DivNoNan", {one, x}, {}, "tf.math.reciprocal_no_nan"));
      }));
  put({m.math}, "nextafter", binary(in, "tf.math.nextafter", "NextAfter", "x1", "x2"));
  // nn_ops.leaky_relu: integer features become float32 first; alpha is an attr.
  put({m.nn}, "leaky_relu", native_fn(in, "tf.nn.leaky_relu", [](Interpreter& in2, CallArgs& a) {
        Args args(in2, a, "leaky_relu", {"features", "alpha", "name"}, 1);
        Engine& e = in2.engine();
        TensorId x = arg_tensor(in2, args[0]);
        if (is_integer(e.value(x).dtype))
          x = e.execute1("Cast", {x}, Attrs{{"DstT", DType::Float32}, {"SrcT", e.value(x).dtype}}, "tf.nn.leaky_relu");
        const double alpha = args.has(1) ? float_arg(in2, args[1], "alpha") : 0.2;
        return T(e.execute1("LeakyRelu", {x}, Attrs{{"alpha", alpha}}, "tf.nn.leaky_relu"));
      }));
  const Value divide = native_fn(in, "tf.divide", [](Interpreter& in2, CallArgs& a) {
    Args args(in2, a, "divide", {"x", "y", "name"}, 2);
    // tf.divide is `x / y` in Python: two Python numbers divide as Python numbers.
    if (!is_arrayish(args[0]) && !is_arrayish(args[1])) return in2.binary("/", args[0], args[1]);
    return is_tensorish(args[0]) || !is_tensorish(args[1]) ? truediv_value(in2, args[0], args[1], "tf.divide")
                                                           : in2.binary("/", args[0], args[1]);
  });
  put({m.tf, m.math}, "divide", divide);
  const Value truediv = native_fn(in, "tf.truediv", [](Interpreter& in2, CallArgs& a) {
    Args args(in2, a, "truediv", {"x", "y", "name"}, 2);
    return truediv_value(in2, args[0], args[1], "tf.truediv");
  });
  put({m.tf, m.math}, "truediv", truediv);
  put({m.math}, "mod", m.math->attrs.find("floormod") ? *m.math->attrs.find("floormod") : Value::none());
  put({m.math}, "squared_difference", native_fn(in, "tf.math.squared_difference", [](Interpreter& in2, CallArgs& a) {
        Args args(in2, a, "squared_difference", {"x", "y", "name"}, 2);
        const std::vector<TensorId> xy = convert_together(in2, {&args[0], &args[1]});
        return T(in2.engine().execute1("SquaredDifference", {xy[0], xy[1]}, {}, "tf.math.squared_difference"));
      }));

  for (const auto& [name, type] : {std::pair{"reduce_sum", "Sum"}, std::pair{"reduce_mean", "Mean"},
                                   std::pair{"reduce_max", "Max"}, std::pair{"reduce_min", "Min"}}) {
    const Value fn = reduction(in, std::string("tf.") + name, type);
    put({m.tf, m.math}, name, fn);
  }
  for (const auto& [name, op_type] : {std::pair{"argmax", "ArgMax"}, std::pair{"argmin", "ArgMin"}}) {
    const std::string qual = std::string("tf.math.") + name;
    const std::string type = op_type;  // captured below (clang 14 cannot capture a structured binding)
    const Value fn = native_fn(in, qual, [qual, type](Interpreter& in2, CallArgs& a) {
      Args args(in2, a, qual, {"input", "axis", "output_type", "name"}, 1);
      const TensorId x = arg_tensor(in2, args[0]);
      const int64_t axis = args.has(1) ? int_arg(in2, args[1], "axis") : 0;
      const DType out = args.has(2) ? tf_dtype(in2, args[2]) : DType::Int64;
      return T(in2.engine().execute1(type, {x}, Attrs{{"axis", axis}, {"output_type", out}}, qual));
    });
    put({m.tf, m.math}, name, fn);
  }
  const Value add_n = native_fn(in, "tf.math.add_n", [](Interpreter& in2, CallArgs& a) {
    Args args(in2, a, "add_n", {"inputs", "name"}, 1);
    return T(in2.engine().execute1("AddN", tensor_list(in2, args[0], "add_n"), {}, "tf.add_n"));
  });
  put({m.tf, m.math}, "add_n", add_n);

  put({m.tf, m.math}, "reduce_prod", reduction(in, "tf.reduce_prod", "Prod"));
  put({m.math}, "reduce_euclidean_norm", reduction(in, "tf.math.reduce_euclidean_norm", "EuclideanNorm"));

  // tf.gather: TF's GatherV2 op. Along an axis given as 0 (or none), without batch_dims,
  // the gradient comes back as TF's IndexedSlices (see sparse_gradients); along any
  // other, even -1 of a vector, as a dense tensor.
  const Value gather = native_fn(in, "tf.gather", [](Interpreter& in2, CallArgs& a) {
    Args args(in2, a, "gather", {"params", "indices", "validate_indices", "axis", "batch_dims", "name"}, 2);
    Engine& e = in2.engine();
    const TensorId params = arg_tensor(in2, args[0]);
    const Shape ps = e.value(params).shape;
    // _GatherV2Grad's axis_static == 0, before normalising: its gradient is IndexedSlices.
    const bool axis_given_zero = !args.has(3) || int_arg(in2, args[3], "axis") == 0;
    const TensorValue idx = is_arrayish(args[1]) ? peek_value(in2, args[1])
                                                 : python_to_value(in2, args[1], std::nullopt, DTypeFlavor::Tf).value;
    if (!is_integer(idx.dtype))
      in2.raise("TypeError", "Value passed to parameter 'indices' has DataType " + std::string(dtype_name(idx.dtype)) +
                                 " not in list of allowed values: int16, int32, int64");
    const TensorId indices = is_arrayish(args[1]) ? arg_tensor(in2, args[1]) : e.constant(idx, "tf.gather");
    const int64_t batch_dims = args.has(4) ? int_arg(in2, args[4], "batch_dims") : 0;
    // array_ops.gather: axis defaults to batch_dims.
    const int64_t given_axis = args.has(3) ? int_arg(in2, args[3], "axis") : batch_dims;
    TensorId result;
    try {
      result = e.execute1("GatherV2", {params, indices}, Attrs{{"axis", given_axis}, {"batch_dims", batch_dims}}, "tf.gather");
    } catch (const TfError& err) {
      // Along axis 0 a variable's gather is its sparse_read: a ResourceGather.
      std::string msg = err.what();
      if (args[0].kind == VKind::Variable && axis_given_zero && batch_dims == 0)
        for (size_t at = msg.find("GatherV2"); at != std::string::npos; at = msg.find("GatherV2", at + 14))
          msg.replace(at, 8, "ResourceGather");
      throw TfError(err.type(), msg);
    }
    if (axis_given_zero && batch_dims == 0) {
      ModuleState::Gather g;
      g.params = params;
      g.root = e.tensor(result).producer;
      g.indices = idx;
      g.params_shape = ps;
      module_state(in2)->gathers[g.root] = std::move(g);
    }
    return T(result);
  });
  put({m.tf}, "gather", gather);
  install_index_ops(in, m);

  for (const auto& [name, type] : {std::pair{"logical_and", "LogicalAnd"}, std::pair{"logical_or", "LogicalOr"}}) {
    put({m.tf}, name, binary(in, std::string("tf.") + name, type));
    put({m.math}, name, binary(in, std::string("tf.math.") + name, type));
  }
  put({m.tf}, "logical_not", unary(in, "tf.logical_not", "LogicalNot", "x"));
  put({m.math}, "logical_not", unary(in, "tf.math.logical_not", "LogicalNot", "x"));

  put({m.math}, "is_nan", unary(in, "tf.math.is_nan", "IsNan", "x"));
  put({m.math}, "is_inf", unary(in, "tf.math.is_inf", "IsInf", "x"));
  put({m.math}, "is_finite", unary(in, "tf.math.is_finite", "IsFinite", "x"));

  // reduce_all / reduce_any on bools: Min / Max through int32 casts.
  for (const auto& [name, type] : {std::pair{"reduce_all", "Min"}, std::pair{"reduce_any", "Max"}}) {
    const std::string qual = std::string("tf.") + name;
    const std::string red = type;
    const Value fn = native_fn(in, qual, [qual, red](Interpreter& in2, CallArgs& a) {
      Args args(in2, a, qual.substr(3), {"input_tensor", "axis", "keepdims", "name"}, 1);
      Engine& e = in2.engine();
      const TensorId x = arg_tensor(in2, args[0]);
      if (e.value(x).dtype != DType::Bool)
        in2.raise("InvalidArgumentError", "cannot compute " + std::string(red == "Min" ? "All" : "Any") +
                                              " as input #0(zero-based) was expected to be a bool tensor but is a " +
                                              dtype_tf_name(e.value(x).dtype).substr(3) + " tensor");
      const TensorId i = e.execute1("Cast", {x}, Attrs{{"DstT", DType::Int32}, {"SrcT", DType::Bool}}, qual);
      const TensorId r = e.execute1(red, {i}, reduce_attrs(in2, args, 1, 2), qual);
      return T(e.execute1("Cast", {r}, Attrs{{"DstT", DType::Bool}, {"SrcT", DType::Int32}}, qual));
    });
    put({m.tf, m.math}, name, fn);
  }

  // tf.one_hot: a new tensor (no gradient reaches the indices).
  put({m.tf}, "one_hot", native_fn(in, "tf.one_hot", [](Interpreter& in2, CallArgs& a) {
        Args args(in2, a, "one_hot", {"indices", "depth", "on_value", "off_value", "axis", "dtype", "name"}, 2);
        const TensorValue idx = is_arrayish(args[0]) ? peek_value(in2, args[0])
                                                     : python_to_value(in2, args[0], std::nullopt, DTypeFlavor::Tf).value;
        if (!is_integer(idx.dtype))
          in2.raise("TypeError", "Value passed to parameter 'indices' has DataType " + std::string(dtype_name(idx.dtype)) +
                                     " not in list of allowed values: uint8, int8, int32, int64");
        const int64_t depth = int_arg(in2, args[1], "depth");
        // array_ops.one_hot: on/off values convert with dtype as a hint; without a dtype,
        // theirs decides (`on_value=5` gives int32); a mismatch is a TypeError.
        const std::optional<DType> given = args.has(5) ? std::optional<DType>(tf_dtype(in2, args[5])) : std::nullopt;
        std::optional<TensorValue> onv, offv;
        auto scalar_of = [&](size_t i, const char* what) {
          TensorValue v = is_arrayish(args[i]) ? peek_value(in2, args[i])
                                               : python_to_value(in2, args[i], given, DTypeFlavor::Tf, HintMode::Soft).value;
          if (v.size() != 1 || v.dtype == DType::String)
            in2.raise("InvalidArgumentError",
                      eager_op_message(std::string(what) + " must be a scalar, but got: " + shape_list_str(v.shape) +
                                           " [Op:OneHot]",
                                       "tf.one_hot", 4));
          return v;
        };
        if (args.has(2)) onv = scalar_of(2, "on_value");
        if (args.has(3)) offv = scalar_of(3, "off_value");
        auto dt = [](DType x) { return "<dtype: '" + std::string(dtype_name(x)) + "'>"; };
        DType d = given.value_or(DType::Float32);
        if (given) {
          if (onv && onv->dtype != *given)
            in2.raise("TypeError", "dtype " + dt(onv->dtype) + " of on_value does not match dtype parameter " + dt(*given));
          if (offv && offv->dtype != *given)
            in2.raise("TypeError", "dtype " + dt(offv->dtype) + " of off_value does not match dtype parameter " + dt(*given));
        } else if (onv || offv) {
          d = onv ? onv->dtype : offv->dtype;
        }
        if (onv && offv && onv->dtype != offv->dtype)
          in2.raise("TypeError", "dtype " + dt(onv->dtype) + " of on_value does not match dtype " + dt(offv->dtype) +
                                     " of off_value");
        int64_t axis = args.has(4) ? int_arg(in2, args[4], "axis") : -1;
        const int64_t rank = idx.rank();
        const int64_t at = axis < 0 ? rank : axis;
        if (at > rank) in2.raise("InvalidArgumentError", "Expected axis to be -1 or between [0, " + std::to_string(rank) + ").  But received: " + std::to_string(axis) + " [Op:OneHot]");
        if (depth < 0)
          in2.raise("InvalidArgumentError", "depth must be non-negative, got: " + std::to_string(depth) + " [Op:OneHot]");
        Shape out = idx.shape;
        out.insert(out.begin() + at, depth);
        check_new_shape(in2, out, DTypeFlavor::Tf);
        // TF's OneHot op: on/off values that are tensors are its inputs (so a watched
        // on_value reaches an op whose gradient is None, not nothing at all).
        Engine& e = in2.engine();
        auto operand = [&](size_t i, std::optional<TensorValue>& v, double def) -> TensorId {
          if (args.has(i) && (args[i].kind == VKind::Tensor || args[i].kind == VKind::Variable))
            return args[i].kind == VKind::Variable ? e.read_variable(args[i].id) : args[i].id;
          TensorValue c = v ? *v : make_scalar(d, def);
          if (c.dtype != d) c = cast_value(c, d);
          c.shape = {};
          return e.constant(std::move(c), "tf.one_hot");
        };
        const bool engine_indices = args[0].kind == VKind::Tensor || args[0].kind == VKind::Variable;
        const TensorId indices = engine_indices ? in2.to_tensor(args[0]) : e.constant(idx, "tf.one_hot");
        const TensorId on_id = operand(2, onv, 1.0), off_id = operand(3, offv, 0.0);
        return T(e.execute1("OneHot", {indices, on_id, off_id}, Attrs{{"depth", depth}, {"axis", axis}}, "tf.one_hot"));
      }));

  // nn
  for (const auto& [name, op_type] : {std::pair{"softmax", "Softmax"}, std::pair{"log_softmax", "LogSoftmax"}}) {
    const std::string qual = std::string("tf.nn.") + name;
    const std::string type = op_type;  // captured below (clang 14 cannot capture a structured binding)
    const Value fn = native_fn(in, qual, [qual, type](Interpreter& in2, CallArgs& a) {
      Args args(in2, a, qual, {"logits", "axis", "name"}, 1);
      Engine& e = in2.engine();
      TensorId x = arg_tensor(in2, args[0]);
      const int64_t rank = e.value(x).rank();
      // nn_ops._wrap_2d_function: the last axis goes straight to the kernel (whose
      // error a scalar gets); another is checked in Python, then swapped to the end.
      const int64_t given = args.has(1) && !args[1].is_none() ? int_arg(in2, args[1], "axis") : -1;
      if (given == -1 || given == rank - 1) return T(e.execute1(type, {x}, {}, qual));
      if (given < -rank || given >= rank)
        in2.raise("InvalidArgumentError", "`dim` must be in the range [" + std::to_string(-rank) + ", " +
                                              std::to_string(rank) + ") where " + std::to_string(rank) +
                                              " is the number of dimensions in the input. Received: dim=" +
                                              std::to_string(given));
      const int64_t axis = given < 0 ? given + rank : given;
      // Another axis: swap it to the end and back, as TF's _wrap_2d_function does.
      std::vector<int64_t> perm(static_cast<size_t>(rank));
      for (int64_t i = 0; i < rank; ++i) perm[static_cast<size_t>(i)] = i;
      std::swap(perm[static_cast<size_t>(axis)], perm.back());
      x = e.execute1("Transpose", {x}, Attrs{{"perm", perm}}, qual);
      x = e.execute1(type, {x}, {}, qual);
      return T(e.execute1("Transpose", {x}, Attrs{{"perm", perm}}, qual));
    });
    put({m.nn}, name, fn);
    put({m.math}, name, fn);
  }

  put({m.tf, m.math}, "matmul", native_fn(in, "tf.linalg.matmul", [](Interpreter& in2, CallArgs& a) {
        Args args(in2, a, "matmul", {"a", "b", "transpose_a", "transpose_b", "adjoint_a", "adjoint_b", "a_is_sparse",
                                     "b_is_sparse", "output_type", "grad_a", "grad_b", "name"}, 2);
        // math_ops.matmul converts `a` on its own and `b` with a's dtype as a hint, so a
        // float64 NumPy `a` meets a float32 `b` as a dtype error, the other way round not.
        const TensorId x = arg_tensor(in2, args[0]);
        const TensorId y = convert_to_tensor(in2, args[1], in2.engine().value(x).dtype, HintMode::Soft, "constant");
        const bool ta = (args.has(2) && in2.truthy(args[2])) || (args.has(4) && in2.truthy(args[4]));
        const bool tb = (args.has(3) && in2.truthy(args[3])) || (args.has(5) && in2.truthy(args[5]));
        Engine& e = in2.engine();
        const Shape& sx = e.value(x).shape;
        const Shape& sy = e.value(y).shape;
        check_matmul_size(in2, sx, sy, ta, tb);
        if ((e.value(x).rank() > 2 || e.value(y).rank() > 2) && OpRegistry::instance().find("BatchMatMulV2"))
          return T(e.execute1("BatchMatMulV2", {x, y}, Attrs{{"adj_x", ta}, {"adj_y", tb}}, "tf.matmul"));
        return T(e.execute1("MatMul", {x, y}, Attrs{{"transpose_a", ta}, {"transpose_b", tb}}, "tf.matmul"));
      }));

  // tf.einsum: the equation made explicit, then one Einsum op per pair of operands.
  put({m.tf}, "einsum", native_fn(in, "tf.einsum", [](Interpreter& in2, CallArgs& a) {
        for (const auto& kw : a.kwargs)
          if (kw.first != "name" && kw.first != "optimize")
            in2.raise("TypeError", "Invalid keyword arguments for einsum: " + kw.first +
                                       ". Valid arguments: name, optimize, greedy.");
        if (a.args.empty()) in2.raise("TypeError", "einsum() missing 1 required positional argument: 'equation'");
        const std::string equation = str_arg(in2, a.args[0], "equation");
        std::vector<TensorId> operands;
        for (size_t i = 1; i < a.args.size(); ++i) operands.push_back(arg_tensor(in2, a.args[i]));
        const size_t n = operands.size();
        Engine& e = in2.engine();
        for (const EinsumStep& step : einsum_plan(equation, n)) {
          std::vector<TensorId> ins;
          for (size_t k : step.operands) ins.push_back(operands[k]);
          operands.push_back(e.execute1("Einsum", ins, Attrs{{"equation", step.equation}}, "tf.einsum"));
        }
        return T(operands.back());
      }));

  put({m.tf, m.math}, "where", native_fn(in, "tf.where", [](Interpreter& in2, CallArgs& a) {
        Args args(in2, a, "where", {"condition", "x", "y", "name"}, 1);
        Engine& e = in2.engine();
        const TensorId c = arg_tensor(in2, args[0]);
        if (args.has(1) != args.has(2)) in2.raise("ValueError", "x and y must both be non-None or both be None.");
        if (!args.has(1)) {
          // The coordinates of the true elements: [n, rank] int64.
          const TensorValue& cv = e.value(c);
          const std::vector<int64_t> strides = strides_of(cv.shape);
          std::vector<double> coords;
          int64_t n = 0;
          for (Eigen::Index i = 0; i < cv.data.size(); ++i) {
            if (cv.data[i] == 0) continue;
            ++n;
            int64_t rest = i;
            for (int64_t s : strides) {
              coords.push_back(static_cast<double>(rest / s));
              rest %= s;
            }
          }
          Eigen::ArrayXd d(static_cast<Eigen::Index>(coords.size()));
          for (size_t i = 0; i < coords.size(); ++i) d[static_cast<Eigen::Index>(i)] = coords[i];
          return T(e.constant(make_tensor(DType::Int64, {n, cv.rank()}, std::move(d)), "tf.where"));
        }
        const std::vector<TensorId> xy = convert_together(in2, {&args[1], &args[2]});
        const TensorId x = xy[0], y = xy[1];
        return T(e.execute1("SelectV2", {c, x, y}, {}, "tf.where"));
      }));

  put({m.tf}, "clip_by_value", native_fn(in, "tf.clip_by_value", [](Interpreter& in2, CallArgs& a) {
        Args args(in2, a, "clip_by_value", {"t", "clip_value_min", "clip_value_max", "name"}, 3);
        Engine& e = in2.engine();
        const TensorId t = arg_tensor(in2, args[0]);
        const DType d = e.value(t).dtype;
        // TF 2.17: minimum(t, max) then maximum(., min).
        const TensorId hi = arg_tensor(in2, args[2], d), lo = arg_tensor(in2, args[1], d);
        // Each step must keep t's shape (assert_is_compatible_with: no broadcasting t up).
        auto same_shape = [&](TensorId r) {
          if (e.value(r).shape != e.value(t).shape)
            in2.raise("ValueError", "Shapes " + shape_str(e.value(t).shape) + " and " + shape_str(e.value(r).shape) +
                                        " are incompatible");
          return r;
        };
        const TensorId t_min = same_shape(e.execute1("Minimum", {t, hi}, {}, "tf.clip_by_value"));
        return T(same_shape(e.execute1("Maximum", {t_min, lo}, {}, "tf.clip_by_value")));
      }));
}

// ---------------------------------------------------------------------------------
// Creation and shape ops

Value tf_constant(Interpreter& in, CallArgs& a) {
  Args args(in, a, "constant", {"value", "dtype", "shape", "name"}, 1);
  Engine& e = in.engine();
  const std::optional<DType> d = args.has(1) ? std::optional(tf_dtype(in, args[1])) : std::nullopt;
  const Value& v = args[0];
  TensorValue value;
  std::vector<TensorId> provenance;
  if (v.kind == VKind::Tensor) {
    const TensorValue& t = e.value(v.id);
    if (d && *d != t.dtype)
      in.raise("TypeError", "Expected tensor " + format_tf_tensor(t) + " with dtype " + dtype_tf_name(*d) +
                                ", but got dtype " + dtype_tf_name(t.dtype) + ".");
    if (!args.has(2)) return v;
    value = t;
    provenance = {v.id};
  } else if (v.kind == VKind::NdArray) {
    const TensorValue& t = e.value(v.id);
    value = d ? cast_to(t, *d) : t;
    provenance = {v.id};
  } else {
    HostConversion c = python_to_value(in, v, d, DTypeFlavor::Tf, HintMode::Strict);
    value = std::move(c.value);
    provenance = std::move(c.provenance);
  }
  if (args.has(2)) {
    const Shape s = new_shape_arg(in, args[2], "shape", DTypeFlavor::Tf);
    const int64_t n = num_elements(s);
    if (value.size() == 1 && n != 1) {
      value = broadcast_to(value, s);
    } else if (value.size() == n) {
      value.shape = s;
    } else {
      in.raise("TypeError", "Eager execution of tf.constant with unsupported shape. Tensor " + format_tf_tensor(value) +
                                " (converted from " + in.str(v) + ") has " + std::to_string(value.size()) +
                                " elements, but got `shape` " + format_shape(s) + " with " + std::to_string(n) + " elements).");
    }
  }
  if (provenance.empty()) return T(e.constant(std::move(value), "tf.constant"));
  return T(e.from_host(std::move(value), provenance, "tf.constant"));
}

Value tf_variable(Interpreter& in, CallArgs& a) {
  Args args(in, a, "Variable", {"initial_value", "trainable", "validate_shape", "caching_device", "name", "variable_def",
                                "dtype", "import_scope", "constraint", "synchronization", "aggregation", "shape",
                                "experimental_enable_variable_lifting"});
  if (module_state(in)->forbid_variable_creation > 0)
    in.raise("ValueError", "tf.function only supports singleton tf.Variables created on the first call. Make sure the "
                           "tf.Variable is only created once or created outside tf.function. See "
                           "https://www.tensorflow.org/guide/function#creating_tfvariables for more information.");
  if (!args.has(0))
    in.raise("ValueError", "The `initial_value` arg to `tf.Variable` must be specified except when you are not "
                           "providing a `variable_def`. You provided neither.");
  Value init = args[0];
  if (init.as<FunctionObj>() || init.as<BoundMethodObj>() || init.as<BuiltinObj>()) init = in.call(init, {});
  std::string base = args.has(4) ? str_arg(in, args[4], "name") : "Variable";
  base = module_state(in)->name_scope_prefix() + base;  // inside tf.name_scope or a Keras layer: "scope/name"
  const bool trainable = !args.has(1) || in.truthy(args[1]);
  const std::string label = base + " initial value";
  // convert_to_tensor(initial_value, name="initial_value", dtype=dtype): a tensor's
  // message carries the name as a prefix (_add_error_prefix).
  if (args.has(6) && init.kind == VKind::Tensor && in.engine().value(init.id).dtype != tf_dtype(in, args[6]))
    in.raise("ValueError", "initial_value: Tensor conversion requested dtype " +
                               std::string(dtype_name(tf_dtype(in, args[6]))) + " for Tensor with dtype " +
                               std::string(dtype_name(in.engine().value(init.id).dtype)) + ": " +
                               repr_tf_tensor(in.engine().value(init.id)));
  const TensorId iv = args.has(6) ? convert_to_tensor_exact(in, init, tf_dtype(in, args[6]), label)
                                  : convert_to_tensor(in, init, std::nullopt, HintMode::Strict, label);
  Engine& e = in.engine();
  if (args.has(11)) {
    const Shape s = shape_arg(in, args[11], "shape");
    if (s != e.value(iv).shape)
      in.raise("ValueError", "In this `tf.Variable` creation, the initial value's shape (" +
                                 format_shape(e.value(iv).shape) +
                                 ") is not compatible with the explicitly supplied `shape` argument (" + in.str(args[11]) +
                                 ").");
  }
  if (e.value(iv).dtype == DType::Resource) in.raise("TypeError", "a variable cannot hold a resource");
  return Value::variable(e.create_variable(iv, e.unique_variable_name(base), trainable));
}

Value filled(Interpreter& in, CallArgs& a, const std::string& fname, double v) {
  Args args(in, a, fname, {"shape", "dtype", "name"}, 1);
  const DType d = args.has(1) ? tf_dtype(in, args[1]) : DType::Float32;
  const Shape s = new_shape_arg(in, args[0], "shape", DTypeFlavor::Tf);
  // array_ops.ones converts the Python 1 to the dtype; zeros uses "" for strings.
  if (d == DType::String && v != 0.0) in.raise("TypeError", "Cannot convert 1 to EagerTensor of dtype string");
  return T(in.engine().constant(make_filled(d, s, v), "tf." + fname));
}

// tf.linspace as TF's linspace_nd computes it: start + delta·i in the dtype, stop appended.
TensorValue linspace_value(DType d, double start, double stop, int64_t num) {
  Eigen::ArrayXd out(num);
  const bool f32 = d == DType::Float32;
  auto r = [f32](double x) { return f32 ? static_cast<double>(static_cast<float>(x)) : x; };
  const int64_t steps = std::max<int64_t>(num - 1, 1);
  const double delta = r(r(stop - start) / r(static_cast<double>(steps)));
  for (int64_t i = 0; i < num; ++i) out[i] = r(start + r(delta * static_cast<double>(i)));
  if (num > 1) out[num - 1] = stop;
  return make_tensor(d, {num}, std::move(out));
}

void install_creation(Interpreter& in, const Modules& m) {
  put({m.tf}, "constant", native_fn(in, "tf.constant", tf_constant));
  {
    Value variable_class = native_fn(in, "tf.Variable", tf_variable);
    static_cast<BuiltinObj*>(variable_class.obj.get())->repr_text = "<class 'tensorflow.python.ops.variables.Variable'>";
    put({m.tf}, "Variable", variable_class);
  }
  put({m.tf}, "zeros", native_fn(in, "tf.zeros", [](Interpreter& in2, CallArgs& a) { return filled(in2, a, "zeros", 0.0); }));
  put({m.tf}, "ones", native_fn(in, "tf.ones", [](Interpreter& in2, CallArgs& a) { return filled(in2, a, "ones", 1.0); }));
  put({m.tf}, "zeros_like", native_fn(in, "tf.zeros_like", [](Interpreter& in2, CallArgs& a) {
        Args args(in2, a, "zeros_like", {"input", "dtype", "name"}, 1);
        Engine& e = in2.engine();
        const TensorId x = arg_tensor(in2, args[0]);
        if (args.has(1) && tf_dtype(in2, args[1]) != e.value(x).dtype)
          return T(e.constant(make_filled(tf_dtype(in2, args[1]), e.value(x).shape, 0.0), "tf.zeros_like"));
        return T(e.execute1("ZerosLike", {x}, {}, "tf.zeros_like"));
      }));
  put({m.tf}, "ones_like", native_fn(in, "tf.ones_like", [](Interpreter& in2, CallArgs& a) {
        Args args(in2, a, "ones_like", {"input", "dtype", "name"}, 1);
        Engine& e = in2.engine();
        const TensorId x = arg_tensor(in2, args[0]);
        const DType d = args.has(1) ? tf_dtype(in2, args[1]) : e.value(x).dtype;
        if (d == DType::String) in2.raise("TypeError", "Cannot convert 1 to EagerTensor of dtype string");
        // TF's eager ones_like is ones(shape(x)): a Shape op on x, then Fill.
        const Shape s = e.value(x).shape;
        const TensorId shape = e.execute1("Shape", {x}, Attrs{{"out_type", DType::Int32}}, "tf.ones_like");
        const TensorId one = e.constant(make_scalar(d, 1.0), "tf.ones_like");
        return T(e.execute1("Fill", {one, shape}, Attrs{{"shape", s}}, "tf.ones_like"));
      }));
  put({m.tf}, "fill", native_fn(in, "tf.fill", [](Interpreter& in2, CallArgs& a) {
        Args args(in2, a, "fill", {"dims", "value", "name"}, 2);
        const Shape s = new_shape_arg(in2, args[0], "dims", DTypeFlavor::Tf);
        const TensorId v = arg_tensor(in2, args[1]);
        if (args[0].kind == VKind::Tensor)  // dims from a tensor: an edge from it
          return T(in2.engine().execute1("Fill", {v, args[0].id}, Attrs{{"shape", s}}, "tf.fill"));
        return T(in2.engine().execute1("Fill", {v}, Attrs{{"shape", s}}, "tf.fill"));
      }));
  put({m.tf}, "range", native_fn(in, "tf.range", [](Interpreter& in2, CallArgs& a) {
        Args args(in2, a, "range", {"start", "limit", "delta", "dtype", "name"}, 1);
        Value start = args[0], limit = args.get(1, Value::none());
        const Value delta = args.has(2) ? args[2] : Value::integer(1);
        if (limit.is_none()) {
          limit = start;
          start = Value::integer(0);
        }
        auto is_float = [&](const Value& v) {
          return v.kind == VKind::Float || (is_arrayish(v) && is_floating(peek_value(in2, v).dtype));
        };
        // math_ops.range: the widest of the arguments' dtypes (int32 < int64 < float32 < float64).
        auto rank_of = [&](const Value& v) {
          const DType t = is_arrayish(v) ? peek_value(in2, v).dtype : is_float(v) ? DType::Float32 : DType::Int32;
          return t == DType::Int32 ? 0 : t == DType::Int64 ? 1 : t == DType::Float32 ? 2 : 3;
        };
        const int widest = std::max({rank_of(start), rank_of(limit), rank_of(delta)});
        const DType order[] = {DType::Int32, DType::Int64, DType::Float32, DType::Float64};
        DType d = order[widest];
        if (args.has(3)) d = tf_dtype(in2, args[3]);
        const double s0 = float_arg(in2, start, "start"), s1 = float_arg(in2, limit, "limit"), st = float_arg(in2, delta, "delta");
        if (st == 0) in2.raise("InvalidArgumentError", "Requires delta != 0: 0 [Op:Range]");
        if ((st > 0 && s0 > s1) || (st < 0 && s0 < s1))
          in2.raise("InvalidArgumentError", "Requires start <= limit when delta > 0: " + python_float_repr(s0) + "/" +
                                                python_float_repr(s1) + " [Op:Range]");
        const double count = std::ceil(std::abs((s1 - s0) / st));
        check_new_count(in2, count);
        const int64_t n = static_cast<int64_t>(count);
        Engine& e = in2.engine();
        if (is_tensorish(start) || is_tensorish(limit) || is_tensorish(delta)) {
          // Given tensors, the Range op runs on them (not differentiable: a path ends there).
          std::vector<TensorId> ins;
          for (const Value* v : std::initializer_list<const Value*>{&start, &limit, &delta}) {
            TensorId t = arg_tensor(in2, *v);
            if (e.value(t).dtype != d) t = e.execute1("Cast", {t}, Attrs{{"DstT", d}, {"SrcT", e.value(t).dtype}}, "tf.range");
            ins.push_back(t);
          }
          return T(e.execute1("Range", ins, Attrs{{"Tidx", d}}, "tf.range"));
        }
        Eigen::ArrayXd data(n);
        for (int64_t i = 0; i < n; ++i) data[i] = s0 + static_cast<double>(i) * st;
        return T(e.constant(make_tensor(d, {n}, std::move(data)), "tf.range"));
      }));
  const Value linspace = native_fn(in, "tf.linspace", [](Interpreter& in2, CallArgs& a) {
    Args args(in2, a, "linspace", {"start", "stop", "num", "name", "axis"}, 3);
    Engine& e = in2.engine();
    const TensorId s0 = arg_tensor(in2, args[0]);
    const DType d = e.value(s0).dtype;
    // linspace_nd divides (stop - start) by a count of start's dtype: integers go through
    // truediv, so int32/int64 give float64.
    if (!is_floating(d) && d != DType::Int32 && d != DType::Int64)
      in2.raise("TypeError", "Value passed to parameter 'start' has DataType " + std::string(dtype_name(d)) +
                                 " not in list of allowed values: bfloat16, float16, float32, float64, int32, int64");
    // linspace_nd converts stop with dtype=start.dtype: a tensor of another dtype is a ValueError.
    const TensorId s1 = is_tensorish(args[1]) ? convert_to_tensor_exact(in2, args[1], d, "stop") : arg_tensor(in2, args[1], d);
    const DType out = is_floating(d) ? d : DType::Float64;
    const int64_t num = int_arg(in2, args[2], "num");
    if (num < 0) in2.raise("InvalidArgumentError", "Requires num >= 0: " + std::to_string(num) + " [Op:LinSpace]");
    check_new_count(in2, static_cast<double>(num));
    if (e.value(s0).rank() != 0 || e.value(s1).rank() != 0)
      in2.raise("ValueError", "tf.linspace with tensor start/stop is not supported in tape scripts; use scalars");
    if ((!is_tensorish(args[0]) && !is_tensorish(args[1])) || !is_floating(d))
      return T(e.constant(linspace_value(out, e.value(s0).scalar(), e.value(s1).scalar(), num), "tf.linspace"));
    // Tensors: linspace_nd's ops, so the result depends on start and stop:
    // concat([start], start + delta * [1 .. num-2], [stop])[:num], delta = (stop - start) / max(num - 1, 1).
    const char* l = "tf.linspace";
    const TensorId x0 = e.execute1("Reshape", {s0}, Attrs{{"shape", Shape{1}}}, l);
    const TensorId x1 = e.execute1("Reshape", {s1}, Attrs{{"shape", Shape{1}}}, l);
    const TensorId steps = e.constant(make_scalar(d, static_cast<double>(std::max<int64_t>(num - 1, 1))), l);
    const TensorId delta = e.execute1("RealDiv", {e.execute1("Sub", {x1, x0}, {}, l), steps}, {}, l);
    const int64_t inner = std::max<int64_t>(num - 2, 0);
    Eigen::ArrayXd k(inner);
    for (int64_t i = 0; i < inner; ++i) k[i] = static_cast<double>(i + 1);
    const TensorId range = e.constant(make_tensor(d, {inner}, std::move(k)), l);
    const TensorId mid = e.execute1("AddV2", {x0, e.execute1("Mul", {delta, range}, {}, l)}, {}, l);
    const TensorId all = e.execute1("ConcatV2", {x0, mid, x1}, Attrs{{"axis", int64_t{0}}}, l);
    return T(e.execute1("Slice", {all}, Attrs{{"begin", std::vector<int64_t>{0}}, {"size", std::vector<int64_t>{num}}}, l));
  });
  put({m.tf}, "linspace", linspace);
  m.tf->attrs.set("lin_space", linspace);
  put({m.tf}, "convert_to_tensor", native_fn(in, "tf.convert_to_tensor", [](Interpreter& in2, CallArgs& a) {
        Args args(in2, a, "convert_to_tensor", {"value", "dtype", "dtype_hint", "name"}, 1);
        if (args.has(1)) return T(convert_to_tensor_exact(in2, args[0], tf_dtype(in2, args[1]), "tf.convert_to_tensor"));
        const std::optional<DType> hint = args.has(2) ? std::optional(tf_dtype(in2, args[2])) : std::nullopt;
        return T(convert_to_tensor(in2, args[0], hint, HintMode::Soft, "tf.convert_to_tensor"));
      }));
  put({m.tf, m.dtypes}, "cast", native_fn(in, "tf.cast", [](Interpreter& in2, CallArgs& a) {
        Args args(in2, a, "cast", {"x", "dtype", "name"}, 2);
        const DType d = tf_dtype(in2, args[1]);
        Engine& e = in2.engine();
        // math_ops.cast returns x itself when it already has the dtype, a ResourceVariable
        // too (unread: no tape sees an access).
        if (args[0].kind == VKind::Variable && e.variable(args[0].id).dtype == d) return args[0];
        const TensorId x = arg_tensor(in2, args[0]);
        const DType from = e.value(x).dtype;
        if (from == d) return args[0].kind == VKind::Tensor ? args[0] : T(x);
        return T(e.execute1("Cast", {x}, Attrs{{"DstT", d}, {"SrcT", from}}, "tf.cast"));
      }));
  put({m.tf}, "reshape", native_fn(in, "tf.reshape", [](Interpreter& in2, CallArgs& a) {
        Args args(in2, a, "reshape", {"tensor", "shape", "name"}, 2);
        const TensorId x = arg_tensor(in2, args[0]);
        return T(in2.engine().execute1("Reshape", {x}, Attrs{{"shape", shape_arg(in2, args[1], "shape")}}, "tf.reshape"));
      }));
  put({m.tf}, "transpose", native_fn(in, "tf.transpose", [](Interpreter& in2, CallArgs& a) {
        Args args(in2, a, "transpose", {"a", "perm", "conjugate", "name"}, 1);
        Attrs attrs;
        if (args.has(1)) attrs.set("perm", axis_arg(in2, args[1]));
        return T(in2.engine().execute1("Transpose", {arg_tensor(in2, args[0])}, attrs, "tf.transpose"));
      }));
  put({m.tf}, "concat", native_fn(in, "tf.concat", [](Interpreter& in2, CallArgs& a) {
        Args args(in2, a, "concat", {"values", "axis", "name"}, 2);
        const std::vector<TensorId> ids = tensor_list(in2, args[0], "concat");
        if (ids.size() == 1) return T(in2.engine().execute1("Identity", ids, {}, "tf.concat"));
        return T(in2.engine().execute1("ConcatV2", ids, Attrs{{"axis", int_arg(in2, args[1], "axis")}}, "tf.concat"));
      }));
  put({m.tf}, "stack", native_fn(in, "tf.stack", [](Interpreter& in2, CallArgs& a) {
        Args args(in2, a, "stack", {"values", "axis", "name"}, 1);
        const int64_t axis = args.has(1) ? int_arg(in2, args[1], "axis") : 0;
        const std::vector<TensorId> ids = tensor_list(in2, args[0], "stack");
        if (axis != 0 && !ids.empty()) {  // array_ops_stack.stack checks the axis before the op
          const int64_t n = in2.engine().value(ids[0]).rank() + 1;
          if (axis < -n || axis >= n)
            in2.raise("ValueError", "Argument `axis` = " + std::to_string(axis) + " not in range [" + std::to_string(-n) +
                                        ", " + std::to_string(n) + ")");
        }
        return T(in2.engine().execute1("Pack", ids, Attrs{{"axis", axis}}, "tf.stack"));
      }));
  put({m.tf}, "unstack", native_fn(in, "tf.unstack", [](Interpreter& in2, CallArgs& a) {
        Args args(in2, a, "unstack", {"value", "num", "axis", "name"}, 1);
        const int64_t axis = args.has(2) ? int_arg(in2, args[2], "axis") : 0;
        Attrs attrs{{"axis", axis}};
        const TensorId x = arg_tensor(in2, args[0]);
        if (args.has(1)) {
          attrs.set("num", int_arg(in2, args[1], "num"));
        } else {  // array_ops.unstack takes num from the static shape, checking the axis first
          const Shape& xs = in2.engine().value(x).shape;
          const int64_t r = static_cast<int64_t>(xs.size());
          if (axis < -r || axis >= r)
            in2.raise("ValueError", "Argument `axis` = " + std::to_string(axis) + " not in range [" + std::to_string(-r) +
                                        ", " + std::to_string(r) + ")");
          attrs.set("num", xs[static_cast<size_t>(axis < 0 ? axis + r : axis)]);
        }
        std::vector<Value> out;
        for (TensorId id : in2.engine().execute("Unpack", {x}, attrs, "tf.unstack")) out.push_back(T(id));
        return in2.make_list(std::move(out));
      }));
  put({m.tf}, "squeeze", native_fn(in, "tf.squeeze", [](Interpreter& in2, CallArgs& a) {
        Args args(in2, a, "squeeze", {"input", "axis", "name"}, 1);
        Attrs attrs;
        if (args.has(1)) attrs.set("axis", axis_arg(in2, args[1]));
        return T(in2.engine().execute1("Squeeze", {arg_tensor(in2, args[0])}, attrs, "tf.squeeze"));
      }));
  put({m.tf}, "expand_dims", native_fn(in, "tf.expand_dims", [](Interpreter& in2, CallArgs& a) {
        Args args(in2, a, "expand_dims", {"input", "axis", "name"}, 2);
        return T(in2.engine().execute1("ExpandDims", {arg_tensor(in2, args[0])},
                                       Attrs{{"axis", int_arg(in2, args[1], "axis")}}, "tf.expand_dims"));
      }));
  put({m.tf}, "tile", native_fn(in, "tf.tile", [](Interpreter& in2, CallArgs& a) {
        Args args(in2, a, "tile", {"input", "multiples", "name"}, 2);
        const TensorId x = arg_tensor(in2, args[0]);
        const Shape m = shape_arg(in2, args[1], "multiples");
        Shape out = in2.engine().value(x).shape;
        for (size_t i = 0; i < out.size() && i < m.size(); ++i) out[i] *= m[i];
        // (A negative multiple is the kernel's error to raise.)
        if (std::none_of(m.begin(), m.end(), [](int64_t k) { return k < 0; })) check_new_shape(in2, out, DTypeFlavor::Tf);
        return T(in2.engine().execute1("Tile", {x}, Attrs{{"multiples", m}}, "tf.tile"));
      }));
  put({m.tf}, "slice", native_fn(in, "tf.slice", [](Interpreter& in2, CallArgs& a) {
        Args args(in2, a, "slice", {"input_", "begin", "size", "name"}, 3);
        return T(in2.engine().execute1("Slice", {arg_tensor(in2, args[0])},
                                       Attrs{{"begin", axis_arg(in2, args[1])}, {"size", axis_arg(in2, args[2])}}, "tf.slice"));
      }));
  put({m.tf}, "pad", native_fn(in, "tf.pad", [](Interpreter& in2, CallArgs& a) {
        Args args(in2, a, "pad", {"tensor", "paddings", "mode", "constant_values", "name"}, 2);
        // array_ops.pad: the mode in any case; REFLECT and SYMMETRIC are MirrorPad.
        std::string mode = args.has(2) ? in2.str(args[2]) : "CONSTANT";
        for (char& ch : mode) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
        if (mode != "CONSTANT" && mode != "REFLECT" && mode != "SYMMETRIC")
          in2.raise("ValueError", "Value of argument `mode` expected to be one of \"CONSTANT\", \"REFLECT\", or "
                                  "\"SYMMETRIC\". Received `mode` = " + mode);
        std::vector<int64_t> pads;
        for (const Value& row : in2.iterate(args[1]))
          for (const Value& p : in2.iterate(row)) pads.push_back(int_arg(in2, p, "paddings"));
        Engine& e = in2.engine();
        const TensorId x = arg_tensor(in2, args[0]);
        if (mode != "CONSTANT") return T(e.execute1("MirrorPad", {x}, Attrs{{"paddings", pads}, {"mode", mode}}, "tf.pad"));
        const TensorId padded = e.execute1("Pad", {x}, Attrs{{"paddings", pads}}, "tf.pad");
        if (!args.has(3) || float_arg(in2, args[3], "constant_values") == 0.0) return T(padded);
        // Non-zero constant: padded + c * (1 - pad(ones)).
        const TensorValue& xv = e.value(x);
        const TensorId ones = e.constant(make_filled(xv.dtype, xv.shape, 1.0), "tf.pad");
        const TensorId mask = e.execute1("Pad", {ones}, Attrs{{"paddings", pads}}, "tf.pad");
        const TensorValue& mv = e.value(mask);
        TensorValue fill = make_filled(xv.dtype, mv.shape, 0.0);
        const double c = float_arg(in2, args[3], "constant_values");
        for (Eigen::Index i = 0; i < fill.data.size(); ++i) fill.data[i] = mv.data[i] == 0 ? c : 0.0;
        return T(e.execute1("AddV2", {padded, e.constant(std::move(fill), "tf.pad")}, {}, "tf.pad"));
      }));
  put({m.tf}, "split", native_fn(in, "tf.split", [](Interpreter& in2, CallArgs& a) {
        Args args(in2, a, "split", {"value", "num_or_size_splits", "axis", "num", "name"}, 2);
        Engine& e = in2.engine();
        const TensorId x = arg_tensor(in2, args[0]);
        const Shape xs = e.value(x).shape;
        // An int is Split's num_split; a list, SplitV's size_splits (num_split its length).
        const bool by_count = args[1].kind == VKind::Int;
        std::vector<int64_t> sizes;
        if (!by_count) sizes = axis_arg(in2, args[1]);
        const int64_t num_split = by_count ? args[1].i : static_cast<int64_t>(sizes.size());
        const std::string op = by_count ? "Split" : "SplitV";
        if (num_split < 1)  // the OpDef's attr check, before any kernel
          in2.raise("InvalidArgumentError",
                    "Value for attr 'num_split' of " + std::to_string(num_split) +
                        " must be at least minimum 1\n\t; NodeDef: {{node " + op + "}}; Op<name=" + op +
                        (by_count ? "; signature=split_dim:int32, value:T -> output:num_split*T; attr=num_split:int,min=1; "
                                    "attr=T:type> [Op:Split] name: split"
                                  : "; signature=value:T, size_splits:Tlen, split_dim:int32 -> output:num_split*T; "
                                    "attr=num_split:int,min=1; attr=T:type; attr=Tlen:type,default=DT_INT64,allowed=[DT_INT8, "
                                    "DT_INT32, DT_INT64]> [Op:SplitV] name: split"));
        // Kernel errors: the wrapped function is named with the output count.
        auto kernel_error = [&](const std::string& what) {
          in2.raise("InvalidArgumentError", "{{function_node __wrapped__" + op + "_num_split_" + std::to_string(num_split) +
                                                "_device_/job:localhost/replica:0/task:0/device:CPU:0}} " + what + " [Op:" +
                                                op + "] name: split");
        };
        const int64_t given_axis = args.has(2) ? int_arg(in2, args[2], "axis") : 0;
        const int64_t rank = static_cast<int64_t>(xs.size());
        const int64_t axis = given_axis < 0 ? given_axis + rank : given_axis;
        if (axis < 0 || axis >= rank)
          kernel_error("-input rank(-" + std::to_string(rank) + ") <= split_dim < input rank (" + std::to_string(rank) +
                       "), but got " + std::to_string(given_axis));
        const int64_t dim = xs[static_cast<size_t>(axis)];
        if (by_count) {
          const int64_t n = num_split;
          if (dim % n != 0)
            kernel_error("Number of ways to split should evenly divide the split dimension, but got split_dim " +
                         std::to_string(axis) + " (size = " + std::to_string(dim) + ") and num_split " + std::to_string(n));
          sizes.assign(static_cast<size_t>(n), dim / n);
        } else {
          int64_t total = 0, unknown = -1;
          for (size_t i = 0; i < sizes.size(); ++i) {
            if (sizes[i] == -1) unknown = static_cast<int64_t>(i);
            else total += sizes[i];
          }
          if (unknown >= 0) sizes[static_cast<size_t>(unknown)] = dim - total;
          else if (total != dim)
            kernel_error("Determined shape must either match input shape along split_dim exactly if fully specified, or be "
                         "less than the size of the input along split_dim if not fully specified.  Got: " +
                         std::to_string(total));
        }
        std::vector<Value> parts;
        int64_t offset = 0;
        for (int64_t sz : sizes) {
          std::vector<int64_t> begin(xs.size(), 0), size(xs.begin(), xs.end());
          begin[static_cast<size_t>(axis)] = offset;
          size[static_cast<size_t>(axis)] = sz;
          parts.push_back(T(e.execute1("Slice", {x}, Attrs{{"begin", begin}, {"size", size}}, "tf.split")));
          offset += sz;
        }
        return in2.make_list(std::move(parts));
      }));
  put({m.tf}, "eye", native_fn(in, "tf.eye", [](Interpreter& in2, CallArgs& a) {
        Args args(in2, a, "eye", {"num_rows", "num_columns", "batch_shape", "dtype", "name"}, 1);
        const int64_t r = int_arg(in2, args[0], "num_rows");
        const int64_t c = args.has(1) ? int_arg(in2, args[1], "num_columns") : r;
        const DType d = args.has(3) ? tf_dtype(in2, args[3]) : DType::Float32;
        // batch_shape: that many identity matrices in front.
        Shape shape = args.has(2) ? new_shape_arg(in2, args[2], "batch_shape", DTypeFlavor::Tf) : Shape{};
        shape.push_back(r);
        shape.push_back(c);
        check_new_shape(in2, shape, DTypeFlavor::Tf);
        TensorValue v = make_filled(d, shape, 0.0);
        for (int64_t k = 0, n = r * c; n > 0 && k < v.size() / n; ++k)
          for (int64_t i = 0; i < std::min(r, c); ++i) v.data[k * n + i * c + i] = 1.0;
        return T(in2.engine().constant(std::move(v), "tf.eye"));
      }));
  put({m.tf}, "broadcast_to", native_fn(in, "tf.broadcast_to", [](Interpreter& in2, CallArgs& a) {
        Args args(in2, a, "broadcast_to", {"input", "shape", "name"}, 2);
        const Shape shape = new_shape_arg(in2, args[1], "shape", DTypeFlavor::Tf);
        return T(in2.engine().execute1("BroadcastTo", {arg_tensor(in2, args[0])}, Attrs{{"shape", shape}}, "tf.broadcast_to"));
      }));
  put({m.tf}, "shape", native_fn(in, "tf.shape", [](Interpreter& in2, CallArgs& a) {
        Args args(in2, a, "shape", {"input", "out_type", "name"}, 1);
        const DType d = args.has(1) ? tf_dtype(in2, args[1]) : DType::Int32;
        return T(in2.engine().execute1("Shape", {arg_tensor(in2, args[0])}, Attrs{{"out_type", d}}, "tf.shape"));
      }));
  put({m.tf}, "size", native_fn(in, "tf.size", [](Interpreter& in2, CallArgs& a) {
        Args args(in2, a, "size", {"input", "out_type", "name"}, 1);
        const DType d = args.has(1) ? tf_dtype(in2, args[1]) : DType::Int32;
        const Shape s = is_arrayish(args[0]) ? value_shape(in2, args[0]) : in2.engine().value(arg_tensor(in2, args[0])).shape;
        return T(in2.engine().constant(make_scalar(d, static_cast<double>(num_elements(s))), "tf.size"));
      }));
  put({m.tf}, "rank", native_fn(in, "tf.rank", [](Interpreter& in2, CallArgs& a) {
        Args args(in2, a, "rank", {"input", "name"}, 1);
        const Shape s = is_arrayish(args[0]) ? value_shape(in2, args[0]) : in2.engine().value(arg_tensor(in2, args[0])).shape;
        return T(in2.engine().constant(make_scalar(DType::Int32, static_cast<double>(s.size())), "tf.rank"));
      }));
  put({m.tf}, "is_tensor", native_fn(in, "tf.is_tensor", [](Interpreter& in2, CallArgs& a) {
        Args args(in2, a, "is_tensor", {"x"}, 1);
        return Value::boolean(is_tensorish(args[0]));
      }));

  // tf.image.adjust_contrast: AdjustContrastv2 has no gradient registered.
  put({m.image}, "adjust_contrast", native_fn(in, "tf.image.adjust_contrast", [](Interpreter& in2, CallArgs& a) {
        Args args(in2, a, "adjust_contrast", {"images", "contrast_factor"}, 2);
        Engine& e = in2.engine();
        TensorId img = arg_tensor(in2, args[0]);
        const DType d = e.value(img).dtype;
        if (!is_floating(d)) img = e.execute1("Cast", {img}, Attrs{{"DstT", DType::Float32}, {"SrcT", d}}, "tf.image.adjust_contrast");
        const TensorId f = arg_tensor(in2, args[1], DType::Float32);
        TensorId out = e.execute1("AdjustContrastv2", {img, f}, {}, "tf.image.adjust_contrast");
        if (!is_floating(d)) out = e.execute1("Cast", {out}, Attrs{{"DstT", d}, {"SrcT", DType::Float32}}, "tf.image.adjust_contrast");
        return T(out);
      }));
}

// ---------------------------------------------------------------------------------
// tf.random

void install_random(Interpreter& in, const Modules& m, const std::shared_ptr<ModuleState>& st) {
  def(in, *m.random, "set_seed", "tf.random.set_seed", [st](Interpreter& in2, CallArgs& a) {
    Args args(in2, a, "set_seed", {"seed"}, 1);
    st->tf_random.seed(static_cast<uint64_t>(args.has(0) ? int_arg(in2, args[0], "seed") : 0));
    return Value::none();
  });
  def(in, *m.random, "normal", "tf.random.normal", [st](Interpreter& in2, CallArgs& a) {
    Args args(in2, a, "normal", {"shape", "mean", "stddev", "dtype", "seed", "name"}, 1);
    const Shape s = new_shape_arg(in2, args[0], "shape", DTypeFlavor::Tf);
    const DType d = args.has(3) ? tf_dtype(in2, args[3]) : DType::Float32;
    if (!is_floating(d))
      in2.raise("InvalidArgumentError", "Value for attr 'dtype' of " + tf_name(d) +
                                            " is not in the list of allowed values: half, bfloat16, float, double");
    const int64_t n = num_elements(s);
    Engine& e = in2.engine();
    if (is_tensorish(args.get(1, Value::none())) || is_tensorish(args.get(2, Value::none()))) {
      // random_ops.random_normal: rnd * stddev + mean, ops a tape records through.
      Eigen::ArrayXd rnd(n);
      for (int64_t i = 0; i < n; ++i) rnd[i] = st->tf_random.normal();
      const TensorId z = e.constant(make_tensor(d, s, std::move(rnd)), "tf.random.normal");
      // convert_to_tensor(mean, dtype=dtype): a tensor of another dtype is a ValueError.
      const TensorId sdt = args.has(2) ? convert_to_tensor_exact(in2, args[2], d, "stddev")
                                       : e.constant(make_scalar(d, 1.0), "stddev");
      const TensorId mt = args.has(1) ? convert_to_tensor_exact(in2, args[1], d, "mean")
                                      : e.constant(make_scalar(d, 0.0), "mean");
      return T(e.execute1("AddV2", {e.execute1("Mul", {z, sdt}, {}, "tf.random.normal"), mt}, {}, "tf.random.normal"));
    }
    const double mean = args.has(1) ? float_arg(in2, args[1], "mean") : 0.0;
    const double sd = args.has(2) ? float_arg(in2, args[2], "stddev") : 1.0;
    Eigen::ArrayXd data(n);
    for (int64_t i = 0; i < n; ++i) data[i] = mean + sd * st->tf_random.normal();
    return T(e.constant(make_tensor(d, s, std::move(data)), "tf.random.normal"));
  });
  def(in, *m.random, "uniform", "tf.random.uniform", [st](Interpreter& in2, CallArgs& a) {
    Args args(in2, a, "uniform", {"shape", "minval", "maxval", "dtype", "seed", "name"}, 1);
    const Shape s = new_shape_arg(in2, args[0], "shape", DTypeFlavor::Tf);
    const DType d = args.has(3) ? tf_dtype(in2, args[3]) : DType::Float32;
    const bool integer = is_integer(d);
    if (integer && !args.has(2)) in2.raise("ValueError", "Must specify maxval for integer dtype " + dtype_tf_name(d));
    const bool tensor_bounds =
        !integer && (is_tensorish(args.get(1, Value::none())) || is_tensorish(args.get(2, Value::none())));
    const double lo = args.has(1) && !tensor_bounds ? float_arg(in2, args[1], "minval") : 0.0;
    const double hi = args.has(2) && !tensor_bounds ? float_arg(in2, args[2], "maxval") : 1.0;
    if (integer && hi <= lo)
      in2.raise("InvalidArgumentError", "Need minval < maxval: " + std::to_string(static_cast<int64_t>(lo)) + " >= " +
                                            std::to_string(static_cast<int64_t>(hi)) + " [Op:RandomUniformInt]");
    const int64_t n = num_elements(s);
    Engine& e = in2.engine();
    if (tensor_bounds) {
      // random_ops.random_uniform: rnd * (maxval - minval) + minval, ops a tape records through.
      Eigen::ArrayXd rnd(n);
      for (int64_t i = 0; i < n; ++i) rnd[i] = st->tf_random.uniform();
      const char* l = "tf.random.uniform";
      const TensorId u = e.constant(make_tensor(d, s, std::move(rnd)), l);
      const TensorId lot = args.has(1) ? convert_to_tensor_exact(in2, args[1], d, "minval")
                                       : e.constant(make_scalar(d, 0.0), "minval");
      const TensorId hit = args.has(2) ? convert_to_tensor_exact(in2, args[2], d, "maxval")
                                       : e.constant(make_scalar(d, 1.0), "maxval");
      const TensorId span = e.execute1("Sub", {hit, lot}, {}, l);
      return T(e.execute1("AddV2", {e.execute1("Mul", {u, span}, {}, l), lot}, {}, l));
    }
    Eigen::ArrayXd data(n);
    for (int64_t i = 0; i < n; ++i) {
      const double u = st->tf_random.uniform();
      data[i] = integer ? std::floor(lo + u * (hi - lo)) : lo + u * (hi - lo);
    }
    return T(e.constant(make_tensor(d, s, std::move(data)), "tf.random.uniform"));
  });
}

// ---------------------------------------------------------------------------------
// tf.GradientTape

struct TapePayload {
  TapeId id = kNoId;
};

// Argument i of `args` (absent: the default, NONE). An explicit None is
// UnconnectedGradients(None), a ValueError in TF.
Unconnected unconnected_arg(Interpreter& in, const Args& args, size_t i) {
  if (!args.given(i)) return Unconnected::None;
  const Value& v = args[i];
  std::string s;
  if (const NativeObj* n = v.as<NativeObj>(); n && n->tag == "UnconnectedGradients") {
    if (const Value* val = n->attrs.find("value")) s = val->as_str();
  } else if (v.kind == VKind::Str) {
    s = v.as_str();
  }
  if (s == "none") return Unconnected::None;
  if (s == "zero") return Unconnected::Zero;
  in.raise("ValueError", "Unknown value for unconnected_gradients: " + in.repr(v));
}

bool is_nest(const Value& v) { return is_sequence(v) || v.as<DictObj>(); }

// Python's name of a value's type in an AttributeError: NumPy's types are qualified
// ('numpy.ndarray', 'numpy.float32'), builtins are not ('float').
std::string qualified_type_name(Interpreter& in, const Value& v) {
  const std::string t = value_type_name(in, v);
  return v.kind == VKind::NdArray ? "numpy." + t : t;
}

// A target or source of a gradient call: a tensor, or a variable's handle. A NumPy
// value is refused as TFE_Py_TapeGradient refuses it (it has no tensor `_id`).
TensorId tape_operand(Interpreter& in, const Value& v, bool source) {
  if (is_tensorish(v)) return v.id;
  if (source || v.kind == VKind::NdArray || v.kind == VKind::Bool || v.kind == VKind::Int || v.kind == VKind::Float ||
      v.kind == VKind::Str)
    in.raise("AttributeError", "'" + qualified_type_name(in, v) + "' object has no attribute '_id'");
  return convert_to_tensor(in, v, std::nullopt, HintMode::Strict, "constant");
}

std::string variable_label(Interpreter& in, const Value& v) {
  const VariableInfo& vi = in.engine().variable(v.id);
  return vi.keras && !vi.path.empty() ? vi.path : vi.name;
}

// The elements of a list/tuple/dict display as written (a dict's values), split at
// its top-level commas; nullopt when `text` is not one display (a name, a call, a
// parenthesized expression, a set, a comprehension, a starred element).
std::optional<std::vector<std::string>> display_elements(const std::string& text) {
  if (text.size() < 2) return std::nullopt;
  const char open = text.front();
  const char close = open == '[' ? ']' : open == '(' ? ')' : open == '{' ? '}' : 0;
  if (!close || text.back() != close) return std::nullopt;
  std::vector<std::string> parts;
  std::vector<int> colon;  // position of each part's top-level ':' (dicts)
  std::string cur;
  int depth = 0, cur_colon = -1;
  char quote = 0;
  bool comma = false;
  for (size_t i = 1; i < text.size(); ++i) {
    const char c = text[i];
    if (quote) {
      cur += c;
      if (c == '\\' && i + 1 < text.size()) cur += text[++i];
      else if (c == quote) quote = 0;
      continue;
    }
    if (c == '\'' || c == '"') quote = c;
    if (c == '(' || c == '[' || c == '{') ++depth;
    if (c == ')' || c == ']' || c == '}') {
      if (depth == 0) {
        if (i + 1 != text.size()) return std::nullopt;  // `[a][0]`: the display ends early
        break;
      }
      --depth;
    }
    if (depth == 0 && c == ',') {
      parts.push_back(cur);
      colon.push_back(cur_colon);
      cur.clear();
      cur_colon = -1;
      comma = true;
      continue;
    }
    if (depth == 0 && c == ':' && cur_colon < 0) cur_colon = static_cast<int>(cur.size());
    cur += c;
  }
  auto trim = [](std::string t) {
    t.erase(0, t.find_first_not_of(" \t\n"));
    t.erase(t.find_last_not_of(" \t\n") + 1);
    return t;
  };
  if (!trim(cur).empty() || !comma) {
    parts.push_back(cur);
    colon.push_back(cur_colon);
  }
  if (open == '(' && !comma) return std::nullopt;  // `(x)` is x, not a tuple
  std::vector<std::string> out;
  for (size_t i = 0; i < parts.size(); ++i) {
    std::string t = parts[i];
    if (open == '{') {
      if (colon[i] < 0) return std::nullopt;  // a set
      t = t.substr(static_cast<size_t>(colon[i]) + 1);
    }
    t = trim(t);
    if (t.empty() || t[0] == '*' || t.find(" for ") != std::string::npos) return std::nullopt;
    out.push_back(t);
  }
  if (parts.size() == 1 && trim(parts[0]).empty()) out.clear();  // `[]`
  return out;
}

bool plain_name(const std::string& t) {
  if (t.empty() || !(std::isalpha(static_cast<unsigned char>(t[0])) || t[0] == '_')) return false;
  for (char c : t)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return false;
  return true;
}

// The label of each flat source, in tf.nest's order: the expression written for it in
// the call (`x`, `self.w`), through nested displays (`[x0, [x1, x2]]` gives x1 and
// x2, `{'c': c}` gives c); an element of a value written as a name is `srcs[1]`
// (`srcs[1][0]`, `srcs['c']`), tensors and variables alike; an element of another
// expression (`model.trainable_variables`) is named after its variable, else
// `expr[i]`; with nothing written, the variable's name or `source<k>`.
struct SourceLabeler {
  Interpreter& in;
  size_t total;
  std::vector<std::string> out;

  std::string fallback(const Value& v, const std::string& prefix) const {
    const bool of_name = !prefix.empty() && plain_name(prefix.substr(0, prefix.find('[')));
    if (of_name) return prefix;
    if (v.kind == VKind::Variable) return variable_label(in, v);
    if (!prefix.empty()) return prefix;
    return std::string("source") + (total > 1 ? std::to_string(out.size()) : "");
  }

  void leaves(const Value& v, const std::optional<std::string>& text, const std::string& prefix) {
    if (!is_nest(v)) {
      out.push_back(text ? *text : fallback(v, prefix));
      return;
    }
    // The elements in flattening order: value, position as written, index text.
    std::vector<std::tuple<Value, size_t, std::string>> elems;
    if (is_sequence(v)) {
      const auto& items = seq_items(v);
      for (size_t i = 0; i < items.size(); ++i) elems.emplace_back(items[i], i, std::to_string(i));
    } else {
      const DictObj& d = *v.as<DictObj>();
      for (size_t i : sorted_dict_order(in, d)) elems.emplace_back(d.items[i].second, i, in.repr(d.items[i].first));
    }
    std::optional<std::vector<std::string>> shown;
    if (text) shown = display_elements(*text);
    const size_t count = is_sequence(v) ? seq_items(v).size() : v.as<DictObj>()->items.size();
    if (shown && shown->size() != count) shown.reset();
    const std::string base = text ? *text : prefix;
    for (const auto& [elem, pos, index] : elems) {
      if (shown) leaves(elem, (*shown)[pos], "");
      else leaves(elem, std::nullopt, base.empty() ? "" : base + "[" + index + "]");
    }
  }
};

std::vector<std::string> source_labels(Interpreter& in, const Value& sources, const std::vector<Value>& flat) {
  std::string whole = in.call_arg_text(1);
  if (whole.empty()) whole = in.keyword_arg_text("sources");
  SourceLabeler l{in, flat.size(), {}};
  l.leaves(sources, whole.empty() ? std::nullopt : std::optional<std::string>(whole), "");
  return l.out;
}

std::vector<SourceSpec> source_specs(Interpreter& in, const Value& sources, std::vector<Value>& flat) {
  flatten_nest(in, sources, flat);
  const std::vector<std::string> labels = source_labels(in, sources, flat);
  std::vector<SourceSpec> specs;
  for (size_t i = 0; i < flat.size(); ++i) specs.push_back(SourceSpec{tape_operand(in, flat[i], true), labels.at(i)});
  return specs;
}

// tf.IndexedSlices, as TF's gradient of a gather gives it: no numpy(), no arithmetic;
// str() shows its three tensors; converting it to a tensor scatters the values into
// dense_shape (convert_to_tensor).
Value make_indexed_slices(Interpreter& in, TensorId values, TensorId indices, TensorId dense_shape) {
  auto [v, obj] = new_native(in, "IndexedSlices", "IndexedSlices");
  Engine& e = in.engine();
  obj->attrs.set("values", T(values));
  obj->attrs.set("indices", T(indices));
  obj->attrs.set("dense_shape", T(dense_shape));
  obj->attrs.set("dtype", tf_dtype_object(in, e.value(values).dtype));
  Shape shape;
  for (Eigen::Index k = 0; k < e.value(dense_shape).data.size(); ++k)
    shape.push_back(static_cast<int64_t>(e.value(dense_shape).data[k]));
  obj->attrs.set("shape", shape_object(in, shape));
  obj->attrs.set("__str__", in.builtin("IndexedSlices.__str__", [values, indices, dense_shape](Interpreter& in2, CallArgs&) {
    return Value::str("IndexedSlices(indices=" + in2.str(T(indices)) + ", values=" + in2.str(T(values)) +
                      ", dense_shape=" + in2.str(T(dense_shape)) + ")");
  }));
  // indexed_slices.py's __neg__: the values negated, the same indices.
  obj->attrs.set("__neg__", in.builtin("IndexedSlices.__neg__", [values, indices, dense_shape](Interpreter& in2, CallArgs&) {
    return make_indexed_slices(in2, in2.engine().execute1("Neg", {values}, {}, "IndexedSlices.__neg__"), indices,
                               dense_shape);
  }));
  char addr[32];
  std::snprintf(addr, sizeof addr, "0x7f%010llx", static_cast<unsigned long long>(0x3a0000 + 16 * values));
  const std::string shown = std::string("<tensorflow.python.framework.indexed_slices.IndexedSlices object at ") + addr + ">";
  obj->repr = [shown] { return shown; };
  return v;
}

// The gradients that TF returns as IndexedSlices: a source whose every gradient in this
// call came from gathers along axis 0 of it (GatherV2's and ResourceGather's gradient
// functions return IndexedSlices; the eager tape's aggregation keeps several of them
// as one, concatenated), through ops whose gradient functions keep an IndexedSlices one:
// ReadVariableOp and Identity pass it on, Neg negates its values, Cast casts them,
// ConcatV2 hands each input its rows (axis 0) or its columns (another axis). Read off
// the call's backward steps.
std::vector<std::optional<Value>> sparse_gradients(Interpreter& in, const GradientRequest& req,
                                                   const std::vector<TensorId>& grads) {
  std::vector<std::optional<Value>> out(grads.size());
  auto st = module_state(in);
  if (st->gathers.empty()) return out;
  Engine& e = in.engine();
  const EventLog& log = e.log();
  if (log.gradient_calls.empty()) return out;
  const CallId call = log.gradient_calls.back().id;
  std::unordered_map<OpId, std::vector<TensorId>> upstream;  // op -> upstream grads
  // tensor -> (op, input index) pairs that passed it a gradient, in the tape's order
  std::unordered_map<TensorId, std::vector<std::pair<OpId, size_t>>> contributions;
  for (size_t k = log.events.size(); k-- > 0;) {
    const Event& ev = log.events[k];
    if (ev.call == call && ev.kind == EventKind::GradientCallStarted) break;
    if (ev.call != call || ev.kind != EventKind::BackwardStep) continue;
    const OpInfo* op = log.op(ev.subject);
    if (!op) continue;
    upstream[op->id] = ev.inputs;
    for (size_t i = ev.outputs.size(); i-- > 0;)
      if (i < op->inputs.size() && ev.outputs[i] != kNoId) {
        auto& c = contributions[op->inputs[i]];
        c.insert(c.begin(), {op->id, i});
      }
  }
  // One gather's rows reaching the source: the ops in between, from the source out.
  struct Piece {
    const ModuleState::Gather* gather;
    std::vector<std::pair<const OpInfo*, size_t>> chain;
  };
  auto keeps_slices = [](const OpInfo& op) {
    if (op.outputs.size() != 1) return false;
    return op.type == "ReadVariableOp" || op.type == "Identity" || op.type == "Neg" || op.type == "Cast" ||
           op.type == "ConcatV2";
  };
  // In the order TF's aggregation concatenates them: a tensor's contributions in the
  // order they arrived, each expanded in place (a read's own gathers come where the read
  // passed its gradient on): a depth-first walk in arrival order.
  auto pieces_of = [&](TensorId t) -> std::optional<std::vector<Piece>> {
    std::vector<Piece> ps;
    struct Todo {
      const ModuleState::Gather* gather;  // a piece to emit, or null: a tensor to expand
      TensorId x;
      std::vector<std::pair<const OpInfo*, size_t>> chain;
    };
    std::vector<Todo> todo{{nullptr, t, {}}};
    while (!todo.empty()) {
      Todo item = std::move(todo.back());
      todo.pop_back();
      if (item.gather) {
        ps.push_back({item.gather, std::move(item.chain)});
        continue;
      }
      auto it = contributions.find(item.x);
      if (it == contributions.end()) return std::nullopt;
      for (auto c = it->second.rbegin(); c != it->second.rend(); ++c) {  // reversed onto a stack: popped in order
        const auto& [op, idx] = *c;
        if (auto g = st->gathers.find(op); g != st->gathers.end() && g->second.params == item.x) {
          if (!upstream.count(g->second.root)) return std::nullopt;
          todo.push_back({&g->second, kNoId, item.chain});
          continue;
        }
        const OpInfo* info = log.op(op);
        if (!info || !keeps_slices(*info)) return std::nullopt;
        auto next = item.chain;
        next.emplace_back(info, idx);
        todo.push_back({nullptr, info->outputs[0], std::move(next)});
      }
    }
    return ps;
  };
  const std::string label = "IndexedSlices";
  for (size_t i = 0; i < grads.size() && i < req.sources.size(); ++i) {
    const TensorId s = req.sources[i].id;
    if (grads[i] == kNoId || std::find(req.targets.begin(), req.targets.end(), s) != req.targets.end()) continue;
    auto found = pieces_of(s);
    if (!found || found->empty()) continue;
    std::vector<TensorId> values, indices;
    bool int64 = false, int32 = false;
    for (const Piece& pc : *found) {
      const ModuleState::Gather* g = pc.gather;
      Shape vshape{static_cast<int64_t>(g->indices.size())};
      vshape.insert(vshape.end(), g->params_shape.begin() + 1, g->params_shape.end());
      TensorId v = e.execute1("Reshape", {upstream[g->root].at(0)}, Attrs{{"shape", vshape}}, label);
      TensorValue idx = g->indices;
      idx.shape = Shape{static_cast<int64_t>(idx.size())};
      // From the gather back to the source, as each op's gradient function treats
      // an IndexedSlices.
      for (auto c = pc.chain.rbegin(); c != pc.chain.rend(); ++c) {
        const OpInfo& op = *c->first;
        const size_t k = c->second;
        if (op.type == "Neg") {
          v = e.execute1("Neg", {v}, {}, label);
        } else if (op.type == "Cast") {
          v = e.execute1("Cast", {v}, Attrs{{"DstT", e.value(op.inputs[0]).dtype}}, label);
        } else if (op.type == "ConcatV2") {
          const Shape& out_shape = e.value(op.outputs[0]).shape;
          int64_t axis = op.attrs.get_int("axis");
          if (axis < 0) axis += static_cast<int64_t>(out_shape.size());
          int64_t start = 0;
          for (size_t j = 0; j < k; ++j) start += e.value(op.inputs[j]).shape[static_cast<size_t>(axis)];
          const Shape& in_shape = e.value(op.inputs[k]).shape;
          const int64_t size = in_shape[static_cast<size_t>(axis)];
          if (axis == 0) {
            // _ConcatGradHelper: the rows whose index falls in this input, renumbered.
            std::vector<double> picked, renumbered;
            for (Eigen::Index r = 0; r < idx.data.size(); ++r)
              if (idx.data[r] >= static_cast<double>(start) && idx.data[r] < static_cast<double>(start + size)) {
                picked.push_back(static_cast<double>(r));
                renumbered.push_back(idx.data[r] - static_cast<double>(start));
              }
            TensorValue pos = make_filled(DType::Int64, {static_cast<int64_t>(picked.size()), 1}, 0.0);
            for (size_t r = 0; r < picked.size(); ++r) pos.data[static_cast<Eigen::Index>(r)] = picked[r];
            v = e.execute1("GatherNd", {v, e.constant(std::move(pos), label)}, {}, label);
            TensorValue ni = make_filled(idx.dtype, {static_cast<int64_t>(renumbered.size())}, 0.0);
            for (size_t r = 0; r < renumbered.size(); ++r) ni.data[static_cast<Eigen::Index>(r)] = renumbered[r];
            idx = std::move(ni);
          } else {
            // Every index kept; the values sliced to this input's columns.
            std::vector<int64_t> begin(out_shape.size(), 0), sz(out_shape.size(), -1);
            begin[static_cast<size_t>(axis)] = start;
            sz[static_cast<size_t>(axis)] = size;
            v = e.execute1("Slice", {v}, Attrs{{"begin", begin}, {"size", sz}}, label);
          }
        }
      }
      values.push_back(v);
      (idx.dtype == DType::Int64 ? int64 : int32) = true;
      indices.push_back(e.constant(std::move(idx), label));
    }
    if (int64 && int32)  // math_ops._as_indexed_slices_list: mixed index dtypes become int64
      for (TensorId& x : indices)
        if (e.value(x).dtype != DType::Int64) x = e.execute1("Cast", {x}, Attrs{{"DstT", DType::Int64}}, label);
    const TensorId v = values.size() == 1 ? values[0] : e.execute1("ConcatV2", values, Attrs{{"axis", int64_t{0}}}, label);
    const TensorId ix = indices.size() == 1 ? indices[0] : e.execute1("ConcatV2", indices, Attrs{{"axis", int64_t{0}}}, label);
    const Shape ps = e.shape_of(s);
    TensorValue dense_shape = make_filled(DType::Int32, Shape{static_cast<int64_t>(ps.size())}, 0.0);
    for (size_t k = 0; k < ps.size(); ++k) dense_shape.data[static_cast<Eigen::Index>(k)] = static_cast<double>(ps[k]);
    out[i] = make_indexed_slices(in, v, ix, e.constant(std::move(dense_shape), label));
  }
  return out;
}

Value result_structure(Interpreter& in, const Value& sources, const std::vector<TensorId>& grads,
                       const std::vector<std::optional<Value>>& sparse = {}) {
  std::vector<Value> vals;
  // A None carries a reference to its gradient result (call id << 20 | index), so its
  // diagnosis travels with it through unpacking and indexing.
  const auto& calls = in.engine().log().gradient_calls;
  const int64_t call = calls.empty() ? kNoId : calls.back().id;
  for (size_t i = 0; i < grads.size(); ++i) {
    Value v = grads[i] == kNoId ? Value::none() : T(grads[i]);
    if (i < sparse.size() && sparse[i]) v = *sparse[i];
    if (grads[i] == kNoId && call != kNoId && calls.back().results.size() == grads.size())
      v.origin = (call << 20) | static_cast<int64_t>(i);
    vals.push_back(v);
  }
  if (!is_nest(sources)) return vals.at(0);
  size_t pos = 0;
  return pack_nest(in, sources, vals, pos);
}

// dtypes.as_dtype(v) for a Python value that is not a tensor, as backprop_util.IsTrainable
// calls it on every target and source: the value is looked up in _ANY_TO_TF, whose keys
// include the DataType enum's numbers (3 and 3.0 are DT_INT32, True is DT_FLOAT) and the
// dtype names. True/false: the dtype found is trainable or not; nullopt: none found.
std::optional<bool> python_value_trainable(const Value& v) {
  // DT_HALF, DT_FLOAT, DT_DOUBLE, DT_COMPLEX64, DT_COMPLEX128, DT_RESOURCE, DT_VARIANT,
  // DT_BFLOAT16 (and their _REF types, +100: IsTrainable takes the base dtype).
  auto by_enum = [](int64_t k) -> std::optional<bool> {
    const int64_t base = k > 100 ? k - 100 : k;
    if (base < 1 || base > 30 || (base >= 26 && base <= 28)) return std::nullopt;
    return base == 1 || base == 2 || base == 8 || base == 14 || base == 18 || base == 19 || base == 20 || base == 21;
  };
  switch (v.kind) {
    case VKind::Bool: return by_enum(v.b ? 1 : 0);
    case VKind::Int: return by_enum(v.i);
    case VKind::Float:
      if (!std::isfinite(v.f) || v.f != std::floor(v.f) || std::fabs(v.f) > 1e6) return std::nullopt;
      return by_enum(static_cast<int64_t>(v.f));
    case VKind::Str: {
      std::string n = v.as_str();
      if (n.size() > 4 && n.compare(n.size() - 4, 4, "_ref") == 0) n = n.substr(0, n.size() - 4);
      for (const char* t : {"float16", "half", "float32", "float", "float64", "double", "complex64", "complex128",
                            "bfloat16", "resource", "variant"})
        if (n == t) return true;
      for (const char* t : {"int32", "uint8", "uint16", "uint32", "uint64", "int16", "int8", "string", "int64", "bool",
                            "qint8", "quint8", "qint16", "quint16", "qint32", "float8_e5m2", "float8_e4m3fn", "int4",
                            "uint4"})
        if (n == t) return false;
      return std::nullopt;
    }
    default: return true;
  }
}

Value tape_gradient(Interpreter& in, TapeId tape, CallArgs& a) {
  Args args(in, a, "gradient", {"target", "sources", "output_gradients", "unconnected_gradients"}, 2);
  Engine& e = in.engine();
  GradientRequest req;
  req.tape = tape;
  // backprop.py: a None target is refused first; then backprop_util.IsTrainable runs on
  // every flat target, then every flat source: dtypes.as_dtype(None) or of a Python
  // number that names no DataType (2.5, 0) raises its TypeError; a number naming a
  // DataType that is not trainable (3 is DT_INT32) makes the vlog call read `t.dtype`,
  // an AttributeError. A number that passes (1.0 is DT_FLOAT) fails later, in
  // TFE_Py_TapeGradient, for want of a tensor `_id` (tape_operand).
  if (args[0].is_none())
    in.raise("TypeError", "Argument `target` should be a list or nested structure of Tensors, Variables or "
                          "CompositeTensors to be differentiated, but received None.");
  const auto is_trainable = [&in](const std::vector<Value>& flat) {
    for (const Value& v : flat) {
      if (v.is_none()) in.raise("TypeError", "Cannot convert the argument `type_value`: None to a TensorFlow DType.");
      if (v.kind != VKind::Bool && v.kind != VKind::Int && v.kind != VKind::Float && v.kind != VKind::Str) continue;
      const std::optional<bool> trainable = python_value_trainable(v);
      if (!trainable)
        in.raise("TypeError", "Cannot convert the argument `type_value`: " + in.repr(v) + " to a TensorFlow DType.");
      if (!*trainable) in.raise("AttributeError", "'" + in.type_name(v) + "' object has no attribute 'dtype'");
    }
  };
  std::vector<Value> flat_targets, flat_sources;
  flatten_nest(in, args[0], flat_targets);
  is_trainable(flat_targets);
  flatten_nest(in, args[1], flat_sources);
  is_trainable(flat_sources);
  flat_sources.clear();
  req.unconnected = unconnected_arg(in, args, 3);
  for (const Value& t : flat_targets) req.targets.push_back(tape_operand(in, t, false));
  if (args.has(2)) {
    std::vector<Value> ogs;
    flatten_nest(in, args[2], ogs);
    // backprop.py flattens them and converts each on its own (no dtype hint: a Python
    // 2 is int32, an ndarray float64); tape.h's InitialGradients then reads the i-th
    // for the i-th target and never counts them, so extra ones are ignored. (Fewer
    // would read past the end in TF; here that is refused.)
    if (ogs.size() < req.targets.size())
      in.raise("ValueError", "output_gradients must have the structure of target: " + std::to_string(req.targets.size()) +
                                 " target(s), " + std::to_string(ogs.size()) + " output gradient(s)");
    for (size_t i = 0; i < ogs.size(); ++i) {
      const TensorId g = ogs[i].is_none() ? kNoId : convert_to_tensor(in, ogs[i], std::nullopt, HintMode::Strict, "output_gradients");
      if (i < req.targets.size()) req.output_gradients.push_back(g);
    }
  }
  req.sources = source_specs(in, args[1], flat_sources);
  const std::vector<TensorId> grads = e.gradient(req);
  return result_structure(in, args[1], grads, sparse_gradients(in, req, grads));
}

// tf.gradients (gradients_util._GradientsHelper): inside a traced tf.function the
// graph's gradients, for each x the sum over ys of dy/dx, as a list. A tape holding
// the function's graph, then GradientTape.gradient's own path over it (grad_ys as
// output_gradients, IndexedSlices, the None diagnosis naming the sources as written).
Value graph_gradients(Interpreter& in, CallArgs& a) {
  Args args(in, a, "gradients",
            {"ys", "xs", "grad_ys", "name", "gate_gradients", "aggregation_method", "stop_gradients",
             "unconnected_gradients"},
            2);
  Engine& e = in.engine();
  if (!e.tracing())
    in.raise("RuntimeError", "tf.gradients is not supported when eager execution is enabled. Use tf.GradientTape instead.");
  if (args.has(6)) in.raise("NotImplementedError", "tf.gradients(stop_gradients=...) is not supported in tape scripts");
  std::vector<Value> ys, xs;
  flatten_nest(in, args[0], ys);
  flatten_nest(in, args[1], xs);
  std::vector<TensorId> sources;
  for (const Value& x : xs)
    if (is_tensorish(x)) sources.push_back(x.id);
  CallArgs ga;
  ga.args = {args[0], args[1]};
  if (args.has(2)) {
    std::vector<Value> grad_ys;
    flatten_nest(in, args[2], grad_ys);
    if (grad_ys.size() != ys.size())
      in.raise("ValueError", "Passed " + std::to_string(grad_ys.size()) + " grad_ys for " + std::to_string(ys.size()) + " ys");
    ga.kwargs.emplace_back("output_gradients", args[2]);
  }
  if (args.has(7)) ga.kwargs.emplace_back("unconnected_gradients", args[7]);
  const TapeId tape = e.graph_gradients_tape(sources);
  Value r = tape_gradient(in, tape, ga);
  return is_nest(args[1]) ? in.make_list(in.iterate(r)) : in.make_list({r});
}

// jacobian/batch_jacobian compute their rows in pfor (experimental_use_pfor, the default),
// which checks parallel_iterations and whose ValueErrors backprop.py replaces with its
// own; for_loop's while_loop checks parallel_iterations its way.
[[noreturn]] void raise_pfor_error(Interpreter& in, const std::string& what) {
  in.raise("ValueError", "Encountered an exception while vectorizing the " + what +
                             " computation. Vectorization can be disabled by setting experimental_use_pfor to False.");
}

bool jacobian_uses_pfor(Interpreter& in, const Args& args, const std::string& what) {
  const bool pfor = !args.given(4) || in.truthy(args[4]);
  if (!args.has(3)) return pfor;
  const int64_t p = int_arg(in, args[3], "parallel_iterations");
  if (!pfor && p < 1) in.raise("TypeError", "'parallel_iterations' must be a positive integer.");
  if (pfor && p <= 1) raise_pfor_error(in, what);  // pfor refuses 1 ("use for_loop") and below
  return pfor;
}

template <class F>
auto in_pfor(Interpreter& in, bool pfor, const std::string& what, F&& body) {
  if (!pfor) return body();
  try {
    return body();
  } catch (const PyException& e) {
    if (e.type != "ValueError") throw;
  } catch (const TfError& e) {
    if (e.type() != "ValueError") throw;
  }
  raise_pfor_error(in, what);
}

Value tape_jacobian(Interpreter& in, TapeId tape, CallArgs& a) {
  Args args(in, a, "jacobian", {"target", "sources", "unconnected_gradients", "parallel_iterations", "experimental_use_pfor"}, 2);
  const bool pfor = jacobian_uses_pfor(in, args, "jacobian");
  // (unconnected_gradients is read by gradient() inside the loop, so its error is pfor's.)
  const Unconnected u = in_pfor(in, pfor, "jacobian", [&] { return unconnected_arg(in, args, 2); });
  if (!is_tensorish(args[0]))
    in.raise("AttributeError", "'" + value_type_name(in, args[0]) + "' object has no attribute 'shape'");
  Engine& e = in.engine();
  std::vector<Value> flat;
  const std::vector<SourceSpec> specs = source_specs(in, args[1], flat);
  if (args.given(4) && !in.truthy(args[4]) && !e.tape_mut(tape).persistent && !e.tracing())  // context.executing_eagerly()
    in.raise("RuntimeError",
             "GradientTape must be created with persistent=True to compute the jacobian with eager execution enabled "
             "and with  experimental_use_pfor set to False.");
  // Engine::jacobian consumes a non-persistent tape after its source; keep it alive
  // until the last source so a nested `sources` works as in TF.
  Tape& t = e.tape_mut(tape);
  const bool persistent = t.persistent;
  std::vector<Value> vals;
  try {
    for (size_t i = 0; i < specs.size(); ++i) {
      t.persistent = persistent || i + 1 < specs.size();
      const TensorId j = in_pfor(in, pfor, "jacobian", [&] { return e.jacobian(tape, args[0].id, specs[i], u, false); });
      t.persistent = persistent;
      // A None carries its jacobian's result (the call logged last), as gradient's do.
      Value v = j == kNoId ? Value::none() : T(j);
      if (j == kNoId) v.origin = (e.log().gradient_calls.back().id << 20) | 0;
      vals.push_back(v);
    }
  } catch (...) {
    t.persistent = persistent;
    throw;
  }
  if (!is_nest(args[1])) return vals.at(0);
  size_t pos = 0;
  return pack_nest(in, args[1], vals, pos);
}

Value tape_batch_jacobian(Interpreter& in, TapeId tape, CallArgs& a) {
  Args args(in, a, "batch_jacobian", {"target", "source", "unconnected_gradients", "parallel_iterations",
                                      "experimental_use_pfor"}, 2);
  {
    // backprop.py checks this first, and its message lacks the space gradient()'s has.
    const TapeState s = in.engine().tape(tape).state;
    if (s == TapeState::Created || s == TapeState::Consumed)
      in.raise("RuntimeError",
               "A non-persistent GradientTape can only be used tocompute one set of gradients (or jacobians)");
  }
  if (!is_tensorish(args[0]))
    in.raise("AttributeError", "'" + value_type_name(in, args[0]) + "' object has no attribute 'shape'");
  if (!is_tensorish(args[1]))  // batch_jacobian reads source.shape first
    in.raise("AttributeError", "'" + value_type_name(in, args[1]) + "' object has no attribute 'shape'");
  std::string label = in.call_arg_text(1);
  if (label.empty()) label = in.keyword_arg_text("source");
  if (label.empty()) label = args[1].kind == VKind::Variable ? variable_label(in, args[1]) : "source";
  const SourceSpec spec{tape_operand(in, args[1], true), label};
  Engine& e = in.engine();
  e.check_batch_jacobian(args[0].id, spec.id);  // before the loop, outside pfor
  const bool pfor = jacobian_uses_pfor(in, args, "batch_jacobian");
  const Unconnected u = in_pfor(in, pfor, "batch_jacobian", [&] { return unconnected_arg(in, args, 2); });
  if (!pfor && !e.tape_mut(tape).persistent && !e.tracing())  // context.executing_eagerly()
    in.raise("RuntimeError",
             "GradientTape must be created with persistent=True to compute the batch_jacobian with eager execution "
             "enabled and  with experimental_use_pfor set to False.");
  // pfor runs loop_fn a second time (for the tiled iterations) when parallel_iterations
  // is at most the row count; backprop.py's loop_fn refuses a second run on a
  // non-persistent tape, whose first run has consumed it.
  if (pfor && args.has(3) && !e.tape(tape).persistent) {
    const Shape& ts = e.shape_of(args[0].id);
    const int64_t batch = ts.empty() ? 0 : ts[0];
    const int64_t rows = batch > 0 ? num_elements(ts) / batch : 0;
    if (rows >= int_arg(in, args[3], "parallel_iterations"))  // (raised before any row is computed)
      in.raise("RuntimeError",
               "GradientTape must be created with persistent=True to compute the batch_jacobian with "
               "parallel_iterations.");
  }
  const TensorId j = in_pfor(in, pfor, "batch_jacobian", [&] { return e.jacobian(tape, args[0].id, spec, u, true); });
  // Never None: the engine gives zeros, logged with their diagnosis, where nothing
  // connects (TF's batch_jacobian keeps that older behaviour).
  return T(j);
}

Value tape_watch(Interpreter& in, TapeId tape, CallArgs& a) {
  Args args(in, a, "watch", {"tensor"}, 1);
  std::vector<Value> flat;
  flatten_nest(in, args[0], flat);
  for (const Value& v : flat) {
    if (!is_tensorish(v))
      in.raise("ValueError", "Passed in object " + in.str(v) + " of type '" + value_type_name(in, v) +
                                 "', not tf.Tensor or tf.Variable or ExtensionType.");
    // A tape whose block never began has no C++ tape yet, and a non-persistent one's
    // gradient call dropped it (GradientTape._tape is None either way).
    const Tape& t = in.engine().tape(tape);
    if (t.state == TapeState::Created || (t.state == TapeState::Consumed && !t.persistent))
      in.raise("AttributeError", "'NoneType' object has no attribute '_tape'");
    in.engine().watch(tape, v.id);
  }
  return Value::none();
}

// A context manager native: __enter__/__exit__ run the given actions.
Value context_manager(Interpreter& in, const std::string& type, std::function<void(Interpreter&)> enter,
                      std::function<void(Interpreter&)> exit) {
  auto [v, obj] = new_native(in, type, type);
  obj->attrs.set("__enter__", native_fn(in, type + ".__enter__", [enter](Interpreter& in2, CallArgs&) {
    enter(in2);
    return Value::none();
  }));
  obj->attrs.set("__exit__", native_fn(in, type + ".__exit__", [exit](Interpreter& in2, CallArgs&) {
    exit(in2);
    return Value::boolean(false);
  }));
  return v;
}

Value make_tape(Interpreter& in, CallArgs& a) {
  Args args(in, a, "GradientTape", {"persistent", "watch_accessed_variables"});
  const bool persistent = args.has(0) && in.truthy(args[0]);
  const bool watch_accessed = !args.has(1) || in.truthy(args[1]);
  std::string name = in.pending_with_name();
  if (name.empty()) name = "tape";
  const TapeId id = in.engine().create_tape(persistent, watch_accessed, name);
  const auto made = new_native(in, "GradientTape", "GradientTape");
  const Value& v = made.first;
  NativeObj* obj = made.second;  // not a structured binding: lambdas capture it (clang 14)
  obj->payload = std::make_shared<TapePayload>(TapePayload{id});
  char addr[32];
  std::snprintf(addr, sizeof addr, "0x7f%010llx", static_cast<unsigned long long>(0x51a7e000 + id * 0x40));
  const std::string repr = std::string("<tensorflow.python.eager.backprop.GradientTape object at ") + addr + ">";
  obj->repr = [repr] { return repr; };
  // Methods hold the tape object weakly: no reference cycle through its own attributes.
  std::weak_ptr<Object> self = v.obj;
  auto method = [&](const std::string& name2, std::function<Value(Interpreter&, TapeId, CallArgs&)> f) {
    obj->attrs.set(name2, native_fn(in, "GradientTape." + name2, [id, f](Interpreter& in2, CallArgs& ca) { return f(in2, id, ca); }));
  };
  obj->attrs.set("__enter__", native_fn(in, "GradientTape.__enter__", [id, self](Interpreter& in2, CallArgs&) {
    in2.engine().enter_tape(id);
    auto s = self.lock();
    return s ? Value::object(s) : Value::none();
  }));
  method("__exit__", [](Interpreter& in2, TapeId t, CallArgs&) {
    in2.engine().exit_tape(t);
    return Value::boolean(false);
  });
  method("watch", tape_watch);
  method("gradient", tape_gradient);
  method("jacobian", tape_jacobian);
  method("batch_jacobian", tape_batch_jacobian);
  method("watched_variables", [](Interpreter& in2, TapeId t, CallArgs& ca) {
    Args(in2, ca, "watched_variables", {});
    std::vector<Value> vars;
    for (TensorId h : in2.engine().watched_variables(t)) {
      // A Keras variable's tape-visible side is its inner tf.Variable.
      Value v = Value::variable(h);
      if (in2.engine().variable(h).keras) v.origin = kKerasInnerVariable;
      vars.push_back(v);
    }
    return in2.make_tuple(std::move(vars));
  });
  method("stop_recording", [](Interpreter& in2, TapeId t, CallArgs& ca) {
    Args(in2, ca, "stop_recording", {});
    return context_manager(
        in2, "_GeneratorContextManager", [t](Interpreter& i) { i.engine().stop_recording_begin(t); },
        [t](Interpreter& i) { i.engine().stop_recording_end(t); });
  });
  method("reset", [](Interpreter& in2, TapeId t, CallArgs& ca) {
    Args(in2, ca, "reset", {});
    in2.engine().reset_tape(t);
    return Value::none();
  });
  obj->attrs.set("persistent", Value::boolean(persistent));
  return v;
}

// ---------------------------------------------------------------------------------
// dtypes, enums, misc

void install_dtypes(Interpreter& in, const Modules& m) {
  const std::pair<const char*, DType> names[] = {{"float16", DType::Float16}, {"half", DType::Float16},
                                                 {"float32", DType::Float32}, {"float64", DType::Float64},
                                                 {"double", DType::Float64},  {"int32", DType::Int32},
                                                 {"int64", DType::Int64},     {"bool", DType::Bool},
                                                 {"string", DType::String}};
  for (const auto& [name, d] : names) put({m.tf, m.dtypes}, name, tf_dtype_object(in, d));
  const Value as_dtype = native_fn(in, "tf.dtypes.as_dtype", [](Interpreter& in2, CallArgs& a) {
    Args args(in2, a, "as_dtype", {"type_value"}, 1);
    return tf_dtype_object(in2, tf_dtype(in2, args[0]));
  });
  put({m.tf, m.dtypes}, "as_dtype", as_dtype);
  // Type markers for isinstance(x, tf.Tensor) / tf.DType.
  for (const char* name : {"Tensor", "DType"}) {
    auto [v, obj] = new_native(in, "type", "type");
    obj->attrs.set("__name__", Value::str(name));
    const std::string r = std::string("<class 'tensorflow.python.framework.") + (std::string(name) == "Tensor" ? "tensor.Tensor'>" : "dtypes.DType'>");
    obj->repr = [r] { return r; };
    put({m.tf}, name, v);
    if (std::string(name) == "DType") put({m.dtypes}, name, v);
  }
}

void install_unconnected(Interpreter& in, const Modules& m) {
  auto [en, eobj] = new_native(in, "EnumType", "EnumType");
  eobj->repr = [] { return "<enum 'UnconnectedGradients'>"; };
  for (const auto& [member, value] : {std::pair{"NONE", "none"}, std::pair{"ZERO", "zero"}}) {
    auto [v, obj] = new_native(in, "UnconnectedGradients", "UnconnectedGradients");
    const std::string r = std::string("<UnconnectedGradients.") + member + ": '" + value + "'>";
    obj->repr = [r] { return r; };
    const std::string s = std::string("UnconnectedGradients.") + member;  // str() of an Enum member
    obj->attrs.set("__str__", in.builtin("UnconnectedGradients.__str__", [s](Interpreter&, CallArgs&) {
      return Value::str(s);
    }));
    obj->attrs.set("name", Value::str(member));
    obj->attrs.set("value", Value::str(value));
    eobj->attrs.set(member, v);
  }
  put({m.tf}, "UnconnectedGradients", en);
}

// A string element as tensor.cc's PrintOneElement(print_v2) gives it: quoted, with
// strings::Utf8SafeCEscape (UTF-8 bytes kept, control characters escaped).
std::string tf_print_quoted(const std::string& s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    switch (c) {
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      case '"': out += "\\\""; break;
      case '\'': out += "\\'"; break;
      case '\\': out += "\\\\"; break;
      default:
        if (c < 0x20 || c == 0x7f) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\%03o", c);
          out += buf;
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  return out + "\"";
}

// tf.print: TF's own element formatting ("[1 2.5]"), written to the output.
std::string tf_print_scalar(const TensorValue& t, int64_t i) {
  switch (t.dtype) {
    case DType::Bool: return t.data[i] != 0 ? "1" : "0";
    case DType::String: return tf_print_quoted(t.strings[static_cast<size_t>(i)]);
    case DType::Int32:
    case DType::Int64: return std::to_string(static_cast<int64_t>(t.data[i]));
    default: {
      char buf[64];
      const int digits = t.dtype == DType::Float32 ? 6 : 15;
      std::snprintf(buf, sizeof buf, "%.*g", digits, t.data[i]);
      const double back = std::strtod(buf, nullptr);
      const bool same = t.dtype == DType::Float32 ? static_cast<float>(back) == static_cast<float>(t.data[i]) : back == t.data[i];
      if (!same) std::snprintf(buf, sizeof buf, "%.*g", t.dtype == DType::Float32 ? 9 : 17, t.data[i]);
      return buf;
    }
  }
}

// tf.print's layout (tensor.cc's PrintOneDimV2): the first and last `summarize`
// elements of each dimension, "..." between; dimensions apart by blank lines.
std::string tf_print_value(const TensorValue& t, int64_t summarize = 3) {
  if (t.rank() == 0) return tf_print_scalar(t, 0);
  const std::vector<int64_t> strides = strides_of(t.shape);
  const size_t rank = t.shape.size();
  auto spacing = [rank](size_t dim) {
    if (dim + 1 == rank) return std::string(" ");
    return std::string(rank - dim - 1, '\n') + std::string(dim + 1, ' ');
  };
  std::function<std::string(size_t, int64_t)> rec = [&](size_t dim, int64_t base) {
    if (dim == rank) return tf_print_scalar(t, base);
    const int64_t n = t.shape[dim];
    const int64_t ends = summarize < 0 ? n : summarize;
    const int64_t start_of_end = std::max(ends, n - ends);
    std::string s = "[";
    for (int64_t k = 0; k < ends && k < n; ++k) {
      if (k > 0) s += spacing(dim);
      s += rec(dim + 1, base + k * strides[dim]);
    }
    if (n > 2 * ends) s += spacing(dim) + "...";
    for (int64_t k = start_of_end; k < n; ++k) s += spacing(dim) + rec(dim + 1, base + k * strides[dim]);
    return s + "]";
  };
  return rec(0, 0);
}

// ---------------------------------------------------------------------------------
// tf.custom_gradient (eager mode, as custom_gradient.py's _eager_mode_decorator): the
// function runs as usual; its flat results go through an identity, and a tape on which
// one of its flat positional arguments (or a trainable variable it read) is watched
// records the op from those to the identity's outputs, with the Python grad_fn as its
// gradient. Here that is one CustomGradient op from (arguments, variables, results) to
// copies of the results: for a tape that has the arguments or variables it calls grad_fn
// (attr `custom_tapes`); for a tape that only has the results, TF's record_operation
// skipped it and that tape backpropagates through the identity into the results.

struct CustomGradientKeys {
  std::mutex m;
  std::unordered_map<int64_t, ModuleState*> owner;
  int64_t next = 1;
};
CustomGradientKeys& custom_gradient_keys() {
  static CustomGradientKeys k;
  return k;
}

std::vector<TensorId> custom_gradient_grad(GradContext& ctx) {
  const int64_t key = ctx.attrs().get_int("key");
  std::function<std::vector<TensorId>(GradContext&)> fn;
  {
    auto& keys = custom_gradient_keys();
    std::lock_guard<std::mutex> lock(keys.m);
    auto it = keys.owner.find(key);
    if (it != keys.owner.end()) {
      auto f = it->second->custom_gradients.find(key);
      if (f != it->second->custom_gradients.end()) fn = f->second;
    }
  }
  if (!fn) throw TfError("RuntimeError", "the gradient function of this tf.custom_gradient call is gone");
  const std::vector<int64_t> custom = ctx.attrs().get_ints("custom_tapes");
  if (std::find(custom.begin(), custom.end(), ctx.engine().current_grad_tape()) != custom.end()) return fn(ctx);
  // The identity: each result gets its copy's gradient; arguments and variables none.
  const size_t n_in = static_cast<size_t>(ctx.attrs().get_int("num_inputs"));
  std::vector<TensorId> grads(ctx.op().inputs.size(), kNoId);
  for (size_t k = n_in; k < grads.size(); ++k) grads[k] = ctx.grad(k - n_in);
  return grads;
}

void register_custom_gradient_op() {
  static std::once_flag once;
  std::call_once(once, [] {
    if (OpRegistry::instance().find("CustomGradient")) return;
    OpDef def;
    def.type = "CustomGradient";
    def.forward = [](const std::vector<const TensorValue*>& ins, const Attrs& attrs) {
      const size_t n = static_cast<size_t>(attrs.get_int("num_inputs"));
      std::vector<TensorValue> outs;
      for (size_t i = n; i < ins.size(); ++i) outs.push_back(*ins[i]);
      return outs;
    };
    def.grad = custom_gradient_grad;
    def.rule = "the gradient function given to tf.custom_gradient";
    OpRegistry::instance().add(std::move(def));
  });
}

Value custom_gradient_call(Interpreter& in, const Value& f, const std::string& fname, CallArgs& a) {
  Engine& e = in.engine();
  if (e.tracing() && !a.kwargs.empty())  // _graph_mode_decorator's first check
    in.raise("ValueError",
             "The custom_gradient decorator currently supports keywords arguments only when eager execution is "
             "enabled.");
  const size_t ops_before = e.log().ops.size();
  const Value out = in.call(f, a.args, a.kwargs);
  // `result, grad_fn = f(*args)`: Python's unpacking, so a returned tensor is iterated
  // (a scalar raises "Cannot iterate over a scalar tensor.").
  if (!is_sequence(out) && !is_tensorish(out))
    in.raise("TypeError", "cannot unpack non-iterable " + in.type_name(out) + " object");
  const std::vector<Value> pair = in.iterate(out);
  if (pair.size() > 2) in.raise("ValueError", "too many values to unpack (expected 2)");
  if (pair.size() < 2)
    in.raise("ValueError", "not enough values to unpack (expected 2, got " + std::to_string(pair.size()) + ")");
  const Value result = pair[0], grad_fn = pair[1];
  // Inputs: the flat positional arguments (Python numbers too, as constants), then the
  // trainable variables the function read (VariableWatcher hears only those) that are
  // not arguments; keyword arguments only exclude variables.
  std::vector<Value> flat_args, flat_kwargs;
  for (const Value& v : a.args) flatten_nest(in, v, flat_args);
  for (const auto& kv : a.kwargs) flatten_nest(in, kv.second, flat_kwargs);
  std::vector<TensorId> inputs;
  for (const Value& v : flat_args) inputs.push_back(convert_to_tensor(in, v, std::nullopt, HintMode::Strict, "constant"));
  std::vector<TensorId> variables;
  const auto& ops = e.log().ops;
  for (size_t i = ops_before; i < ops.size(); ++i) {
    if (ops[i].type != "ReadVariableOp" || ops[i].inputs.empty()) continue;
    const TensorId h = ops[i].inputs[0];
    if (!e.is_variable(h) || !e.variable(h).trainable) continue;
    if (std::find(variables.begin(), variables.end(), h) != variables.end()) continue;
    bool is_arg = false;
    for (const auto* flat : {&flat_args, &flat_kwargs})
      for (const Value& v : *flat) is_arg = is_arg || (v.kind == VKind::Variable && v.id == h);
    if (!is_arg) variables.push_back(h);
  }
  // Traced, custom_gradient's _graph_mode_decorator sorts them by name; eagerly TF takes
  // them from a set (no order to match), and we keep the order they were read in.
  if (e.tracing())
    std::stable_sort(variables.begin(), variables.end(),
                     [&e](TensorId x, TensorId y) { return e.variable(x).name < e.variable(y).name; });
  std::vector<Value> var_values;
  for (TensorId h : variables) var_values.push_back(Value::variable(h));
  if (!variables.empty()) {
    bool accepts = false;
    const FunctionObj* gf = grad_fn.as<FunctionObj>();
    if (const BoundMethodObj* b = grad_fn.as<BoundMethodObj>()) gf = b->func.as<FunctionObj>();
    if (gf && gf->def)
      for (const auto& p : gf->def->params) accepts = accepts || p.name == "variables" || p.kind == ParamKind::VarKeyword;
    if (!accepts)
      in.raise("TypeError", "@tf.custom_gradient grad_fn must accept keyword argument 'variables', since function uses variables: " +
                                in.repr(in.make_list(var_values)));
  }
  const size_t arg_count = inputs.size();
  for (TensorId h : variables) inputs.push_back(e.read_variable(h));
  std::vector<Value> flat_result;
  flatten_nest(in, result, flat_result);
  for (const Value& r : flat_result) inputs.push_back(convert_to_tensor(in, r, std::nullopt, HintMode::Strict, "constant"));
  const size_t n_in = arg_count + variables.size();

  auto st = module_state(in);
  int64_t key;
  {
    auto& keys = custom_gradient_keys();
    std::lock_guard<std::mutex> lock(keys.m);
    key = keys.next++;
    keys.owner[key] = st.get();
  }
  Interpreter* interp = &in;
  std::vector<TensorId> input_ids = inputs;
  st->custom_gradients[key] = [interp, grad_fn, var_values, arg_count, n_in, input_ids](GradContext& ctx) {
    Interpreter& in2 = *interp;
    std::vector<Value> dys;
    for (size_t k = 0; k < ctx.op().outputs.size(); ++k) dys.push_back(Value::tensor(ctx.grad(k)));
    std::vector<TensorId> grads(ctx.op().inputs.size(), kNoId);
    try {
      std::vector<std::pair<std::string, Value>> kw;
      if (!var_values.empty()) kw.emplace_back("variables", in2.make_list(var_values));
      const Value r = in2.call(grad_fn, dys, kw);
      Value input_grads = r;
      std::vector<Value> var_grads;
      if (!var_values.empty()) {
        // `input_grads, variable_grads = grad_fn(...)`: Python's unpacking and its errors.
        std::vector<Value> two = in2.iterate(r);
        if (two.size() != 2)
          in2.raise("ValueError", two.size() > 2 ? "too many values to unpack (expected 2)"
                                                 : "not enough values to unpack (expected 2, got " + std::to_string(two.size()) + ")");
        input_grads = two[0];
        flatten_nest(in2, two[1], var_grads);
        if (var_grads.size() != var_values.size())
          in2.raise("ValueError", "Must return gradient for each variable from @custom_gradient grad_fn.");
      }
      std::vector<Value> flat;
      flatten_nest(in2, input_grads, flat);
      if (flat.size() != arg_count)
        in2.raise("ValueError", "custom_gradient function expected to return " + std::to_string(arg_count) +
                                    " gradients, but returned " + std::to_string(flat.size()) + " instead.");
      flat.insert(flat.end(), var_grads.begin(), var_grads.end());
      for (size_t k = 0; k < flat.size() && k < n_in; ++k) {
        if (flat[k].is_none()) continue;
        const DType d = in2.engine().value(input_ids[k]).dtype;
        grads[k] = convert_to_tensor(in2, flat[k], is_floating(d) ? std::optional<DType>(d) : std::nullopt,
                                     HintMode::Soft, "constant");
      }
    } catch (const PyException& err) {
      throw TfError(err.type, err.message);  // the gradient call cleans up, then re-raises it
    }
    return grads;
  };
  // The tapes that record the op itself: those on which an argument or variable is.
  // Traced, _graph_mode_decorator makes an IdentityN with the gradient override, which
  // every tape reaching it records: no result goes through as an identity.
  std::vector<int64_t> custom_tapes;
  for (TapeId t = 1; t <= static_cast<TapeId>(e.log().tapes.size()); ++t) {
    const Tape& tape = e.tape(t);
    if (!tape.recording()) continue;
    bool records = e.tracing();
    for (size_t k = 0; k < n_in && !records; ++k)
      records = tape.on_tape.count(inputs[k]) && is_trainable_dtype(e.value(inputs[k]).dtype);
    if (records) custom_tapes.push_back(t);
  }
  const std::vector<TensorId> outs = e.execute(
      "CustomGradient", inputs,
      Attrs{{"num_inputs", static_cast<int64_t>(n_in)}, {"key", key}, {"custom_tapes", custom_tapes}}, fname);
  std::vector<Value> wrapped;
  for (TensorId o : outs) wrapped.push_back(T(o));
  if (!is_nest(result)) return wrapped.at(0);
  size_t pos = 0;
  return pack_nest(in, result, wrapped, pos);
}

// What @tf.custom_gradient returns. On a method it binds as custom_gradient.py's Bind
// does (__get__): the function is bound to the instance, so `self` is no input.
Value custom_gradient_wrapper(Interpreter& in, const Value& f) {
  std::string fname = "custom_gradient";
  if (const FunctionObj* fo = f.as<FunctionObj>()) fname = fo->name;
  if (const BoundMethodObj* b = f.as<BoundMethodObj>())
    if (const FunctionObj* fo = b->func.as<FunctionObj>()) fname = fo->name;
  auto [v, obj] = new_native(in, "function", "function");
  obj->attrs.set("__call__", native_fn(in, fname, [f, fname](Interpreter& in2, CallArgs& ca) {
    return custom_gradient_call(in2, f, fname, ca);
  }));
  if (!f.as<BoundMethodObj>())
    obj->attrs.set("__get__", native_fn(in, fname + ".__get__", [f](Interpreter& in2, CallArgs& ca) {
      if (ca.args.empty()) return custom_gradient_wrapper(in2, f);
      return custom_gradient_wrapper(in2, Value::object(std::make_shared<BoundMethodObj>(ca.args[0], f)));
    }));
  obj->attrs.set("__name__", Value::str(fname));
  obj->repr = [fname] { return "<function " + fname + ">"; };
  return v;
}

// tf.print of a non-string argument: print_v2 pformats the structure with each tensor
// replaced by its formatted value (no quotes around it); dict keys in sorted order.
std::string tf_print_structure(Interpreter& in, const Value& v, int64_t summarize) {
  if (is_arrayish(v)) return tf_print_value(peek_value(in, v), summarize);
  if (is_sequence(v)) {
    const auto& items = seq_items(v);
    const bool tuple = v.as<ListObj>()->okind == OKind::Tuple;
    std::string out = tuple ? "(" : "[";
    for (size_t i = 0; i < items.size(); ++i) out += (i ? ", " : "") + tf_print_structure(in, items[i], summarize);
    if (tuple && items.size() == 1) out += ",";
    return out + (tuple ? ")" : "]");
  }
  if (const DictObj* d = v.as<DictObj>()) {
    std::string out = "{";
    bool first = true;
    for (size_t i : sorted_dict_order(in, *d)) {
      out += (first ? "" : ", ") + in.repr(d->items[i].first) + ": " + tf_print_structure(in, d->items[i].second, summarize);
      first = false;
    }
    return out + "}";
  }
  return in.repr(v);
}

void install_misc(Interpreter& in, const Modules& m) {
  register_custom_gradient_op();
  put({m.tf}, "custom_gradient", native_fn(in, "tf.custom_gradient", [](Interpreter& in2, CallArgs& a) {
        if (a.args.empty()) in2.raise("TypeError", "custom_gradient() missing 1 required positional argument: 'f'");
        return custom_gradient_wrapper(in2, a.args[0]);
      }));
  put({m.tf}, "GradientTape", native_fn(in, "tf.GradientTape", make_tape));
  put({m.tf}, "gradients", native_fn(in, "tf.gradients", graph_gradients));
  // tf.IndexedSlices: for isinstance() on a gather's gradient, and made by hand.
  put({m.tf}, "IndexedSlices", native_fn(in, "tf.IndexedSlices", [](Interpreter& in2, CallArgs& a) {
        Args args(in2, a, "IndexedSlices", {"values", "indices", "dense_shape"}, 2);
        const TensorId values = arg_tensor(in2, args[0]);
        const TensorId indices = arg_tensor(in2, args[1]);
        if (!args.has(2))
          in2.raise("ValueError", "tf.IndexedSlices without a dense_shape is not supported in tape scripts");
        const TensorId shape = arg_tensor(in2, args[2]);
        const TensorValue& sv = in2.engine().value(shape);
        if (!is_integer(sv.dtype) || sv.rank() != 1 || sv.size() < 1)
          in2.raise("ValueError", "dense_shape must be a vector of integers");
        return make_indexed_slices(in2, values, indices, shape);
      }));
  put({m.tf}, "TensorShape", native_fn(in, "tf.TensorShape", [](Interpreter& in2, CallArgs& a) {
        Args args(in2, a, "TensorShape", {"dims"}, 1);
        if (args[0].is_none()) in2.raise("ValueError", "tf.TensorShape(None) (an unknown rank) is not supported in tape scripts");
        if (is_sequence(args[0])) {  // dims may be None (unknown): kept as -1 in the object
          Shape dims;
          for (const Value& d : seq_items(args[0])) {
            if (d.is_none()) {
              dims.push_back(-1);
              continue;
            }
            const int64_t n = int_arg(in2, d, "dims");
            if (n < 0) in2.raise("ValueError", "Dimension " + std::to_string(n) + " must be >= 0");
            dims.push_back(n);
          }
          return shape_object(in2, dims);
        }
        return shape_object(in2, shape_arg(in2, args[0], "dims"));  // no tensor is made
      }));
  put({m.tf}, "print", native_fn(in, "tf.print", [](Interpreter& in2, CallArgs& a) {
        std::string sep = " ", end = "\n";
        if (const Value* s = a.kw("sep")) sep = in2.str(*s);
        if (const Value* e = a.kw("end")) end = in2.str(*e);
        int64_t summarize = 3;
        if (const Value* sm = a.kw("summarize"); sm && !sm->is_none()) summarize = int_arg(in2, *sm, "summarize");
        std::string text;
        for (size_t i = 0; i < a.args.size(); ++i) {
          if (i) text += sep;
          const Value& v = a.args[i];
          // print_v2 passes a lone string scalar tensor through as the text itself.
          const bool lone_string = a.args.size() == 1 && is_arrayish(v) && peek_value(in2, v).dtype == DType::String &&
                                   peek_value(in2, v).rank() == 0;
          text += lone_string ? peek_value(in2, v).strings.at(0)
                  : is_arrayish(v) ? tf_print_value(peek_value(in2, v), summarize)
                  : v.kind == VKind::Str ? in2.str(v)
                                         : tf_print_structure(in2, v, summarize);
        }
        // tf.print is an op of the graph: it prints when the graph runs (every call of a
        // tf.function, after its trace; not in a branch the condition does not take).
        auto st = module_state(in2);
        if (st->shadow_branch > 0) return Value::none();
        if (!st->traces.empty()) {
          st->pending_tf_prints.push_back(text + end);
          return Value::none();
        }
        const int replay = in2.replay_depth();
        in2.replay_depth() = 0;
        in2.output_line(text + end);
        in2.replay_depth() = replay;
        return Value::none();
      }));
  m.tf->attrs.set("newaxis", Value::none());
  m.tf->attrs.set("__version__", Value::str("2.17.0"));
  // nest
  def(in, *m.nest, "flatten", "tf.nest.flatten", [](Interpreter& in2, CallArgs& a) {
    Args args(in2, a, "flatten", {"structure", "expand_composites"}, 1);
    std::vector<Value> out;
    flatten_nest(in2, args[0], out);
    return in2.make_list(std::move(out));
  });
  def(in, *m.nest, "pack_sequence_as", "tf.nest.pack_sequence_as", [](Interpreter& in2, CallArgs& a) {
    Args args(in2, a, "pack_sequence_as", {"structure", "flat_sequence", "expand_composites"}, 2);
    std::vector<Value> flat = in2.iterate(args[1]);
    std::vector<Value> leaves;
    flatten_nest(in2, args[0], leaves);
    if (leaves.size() != flat.size())
      in2.raise("ValueError", "The target structure is of type `" + in2.type_name(args[0]) + "`\n  " + in2.repr(args[0]) +
                                  "\nHowever the input is a sequence (" + in2.type_name(args[1]) + ") of length " +
                                  std::to_string(flat.size()) + ".");
    size_t pos = 0;
    return pack_nest(in2, args[0], flat, pos);
  });
  def(in, *m.nest, "map_structure", "tf.nest.map_structure", [](Interpreter& in2, CallArgs& a) {
    if (a.args.size() < 2) in2.raise("TypeError", "map_structure() needs a function and a structure");
    std::vector<Value> leaves;
    flatten_nest(in2, a.args[1], leaves);
    std::vector<std::vector<Value>> others;
    for (size_t k = 2; k < a.args.size(); ++k) {
      others.emplace_back();
      flatten_nest(in2, a.args[k], others.back());
      if (others.back().size() != leaves.size())
        in2.raise("ValueError", "The two structures don't have the same nested structure.");
    }
    std::vector<Value> mapped;
    for (size_t i = 0; i < leaves.size(); ++i) {
      std::vector<Value> call_args{leaves[i]};
      for (const auto& o : others) call_args.push_back(o[i]);
      mapped.push_back(in2.call(a.args[0], std::move(call_args)));
    }
    size_t pos = 0;
    return pack_nest(in2, a.args[1], mapped, pos);
  });
  // tf.errors: the exception classes TF raises, for `except tf.errors.InvalidArgumentError`.
  auto errors = std::make_shared<ModuleObj>("tensorflow.errors");
  for (const char* name : {"InvalidArgumentError", "NotFoundError", "UnimplementedError", "InternalError",
                           "ResourceExhaustedError", "OutOfRangeError", "OpError"})
    errors->attrs.set(name, Value::object(in.exception_class(name)));
  m.tf->attrs.set("errors", Value::object(errors));
}

}  // namespace

// control_flow_ops.cpp: tf.cond, tf.while_loop.
void install_control_flow_ops(Interpreter& in, ModuleObj& tf);

void forget_custom_gradients(const ModuleState& st) {
  auto& keys = custom_gradient_keys();
  std::lock_guard<std::mutex> lock(keys.m);
  for (const auto& kv : st.custom_gradients) keys.owner.erase(kv.first);
}

// nn_ops._get_sequence: an int or a list of 1, 2 or 4 ints as the 4 NHWC entries.
std::vector<int64_t> nhwc_sequence(Interpreter& in, const Value& v, const std::string& name) {
  std::vector<int64_t> s;
  if (v.kind == VKind::None) return {1, 1, 1, 1};
  if (v.kind == VKind::Int) s = {v.i};
  else
    for (const Value& d : in.iterate(v)) s.push_back(int_arg(in, d, name));
  if (s.size() == 1) return {1, s[0], s[0], 1};
  if (s.size() == 2) return {1, s[0], s[1], 1};
  if (s.size() == 4) return s;
  in.raise("ValueError", name + " should be of length 1, 2 or 4. Received: " + name + "=" + in.repr(v) + " of length " +
                             std::to_string(s.size()));
}

// A padding string ("SAME"/"VALID", any case) for NHWC data.
std::string nhwc_padding(Interpreter& in, const Value& padding, const Value& data_format) {
  if (data_format.kind != VKind::None && in.str(data_format) != "NHWC")
    in.raise("ValueError", "data_format " + in.repr(data_format) + " is not supported in tape scripts (only \"NHWC\")");
  if (padding.kind != VKind::Str)
    in.raise("ValueError", "explicit padding lists are not supported in tape scripts (use \"SAME\" or \"VALID\")");
  std::string upper;
  for (char ch : in.str(padding)) upper += static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
  return upper;
}

// The attrs of a convolution called as (input, filters, strides, padding, data_format,
// dilations): NHWC sequences, the padding upper-cased ("VALID" when not given).
Attrs conv_attrs(Interpreter& in, const Args& args) {
  return Attrs{{"strides", nhwc_sequence(in, args.get(2, Value::none()), "strides")},
               {"padding", args.has(3) ? nhwc_padding(in, args[3], args.get(4, Value::none())) : std::string("VALID")},
               {"dilations", nhwc_sequence(in, args.get(5, Value::none()), "dilations")}};
}

// tf.nn.conv2d and the 2-D poolings (NHWC).
void install_conv(Interpreter& in, const Modules& m) {
  put({m.nn}, "conv2d", native_fn(in, "tf.nn.conv2d", [](Interpreter& in2, CallArgs& a) {
        Args args(in2, a, "conv2d", {"input", "filters", "strides", "padding", "data_format", "dilations", "name"}, 4);
        const std::vector<TensorId> xw = convert_together(in2, {&args[0], &args[1]});
        return T(in2.engine().execute1("Conv2D", {xw[0], xw[1]}, conv_attrs(in2, args), "tf.nn.conv2d"));
      }));
  // nn_impl.depthwise_conv2d: DepthwiseConv2dNative (TF wraps a dilated one in
  // SpaceToBatchND; here the op takes the dilations, to the same values).
  put({m.nn}, "depthwise_conv2d", native_fn(in, "tf.nn.depthwise_conv2d", [](Interpreter& in2, CallArgs& a) {
        Args args(in2, a, "depthwise_conv2d", {"input", "filter", "strides", "padding", "data_format", "dilations", "name"}, 4);
        const std::vector<TensorId> xw = convert_together(in2, {&args[0], &args[1]});
        const Attrs attrs = conv_attrs(in2, args);
        const std::vector<int64_t> strides = attrs.get_ints("strides");
        if (strides[1] != strides[2])
          in2.raise("ValueError", "Current implementation only supports equal length strides in the row and column "
                                  "dimensions.");
        return T(in2.engine().execute1("DepthwiseConv2dNative", {xw[0], xw[1]}, attrs, "tf.nn.depthwise_conv2d"));
      }));

  // nn_ops.convolution_v2 for 2-D inputs (a dilated one runs Conv2D with its dilations;
  // TF goes through SpaceToBatchND there, to the same values).
  put({m.nn}, "convolution", native_fn(in, "tf.nn.convolution", [](Interpreter& in2, CallArgs& a) {
        Args args(in2, a, "convolution", {"input", "filters", "strides", "padding", "data_format", "dilations", "name"}, 2);
        const std::vector<TensorId> xw = convert_together(in2, {&args[0], &args[1]});
        if (in2.engine().value(xw[0]).rank() != 4)
          in2.raise("ValueError", "tf.nn.convolution of a rank-" + std::to_string(in2.engine().value(xw[0]).rank()) +
                                      " input is not supported in tape scripts (only 2-D convolutions, NHWC)");
        return T(in2.engine().execute1("Conv2D", {xw[0], xw[1]}, conv_attrs(in2, args), "tf.nn.convolution"));
      }));
  for (const auto& [name, type] : {std::pair{"max_pool2d", "MaxPool"}, std::pair{"avg_pool2d", "AvgPool"},
                                   std::pair{"max_pool", "MaxPool"}, std::pair{"avg_pool", "AvgPool"}}) {
    const std::string qual = std::string("tf.nn.") + name, op = type, fname = name;
    put({m.nn}, name, native_fn(in, qual, [qual, op, fname](Interpreter& in2, CallArgs& a) {
          Args args(in2, a, fname, {"input", "ksize", "strides", "padding", "data_format", "name"}, 4);
          const TensorId x = arg_tensor(in2, args[0]);
          if ((fname == "max_pool" || fname == "avg_pool") && in2.engine().value(x).rank() != 4)
            in2.raise("ValueError", "tf.nn." + fname + " of a rank-" + std::to_string(in2.engine().value(x).rank()) +
                                        " input is not supported in tape scripts (only 2-D pooling, NHWC)");
          const std::vector<int64_t> ksize = nhwc_sequence(in2, args[1], "ksize");
          for (int64_t k : ksize)
            if (k == 0)  // nn_ops' check before the op
              in2.raise("ValueError", "`ksize` cannot be zero. Received: ksize=[" + std::to_string(ksize[0]) + ", " +
                                          std::to_string(ksize[1]) + ", " + std::to_string(ksize[2]) + ", " +
                                          std::to_string(ksize[3]) + "]");
          Attrs attrs{{"ksize", ksize},
                      {"strides", nhwc_sequence(in2, args[2], "strides")},
                      {"padding", nhwc_padding(in2, args[3], args.get(4, Value::none()))}};
          return T(in2.engine().execute1(op, {x}, attrs, qual));
        }));
  }
}

// tf.linalg's matrix functions: det, inv, solve, triangular_solve, cholesky, band_part.
void install_linalg(Interpreter& in, ModuleObj& linalg) {
  put({&linalg}, "det", native_fn(in, "tf.linalg.det", [](Interpreter& in2, CallArgs& a) {
        Args args(in2, a, "det", {"input", "name"}, 1);
        return T(in2.engine().execute1("MatrixDeterminant", {arg_tensor(in2, args[0])}, {}, "tf.linalg.det"));
      }));
  put({&linalg}, "inv", native_fn(in, "tf.linalg.inv", [](Interpreter& in2, CallArgs& a) {
        Args args(in2, a, "inv", {"input", "adjoint", "name"}, 1);
        const bool adjoint = args.has(1) && in2.truthy(args[1]);
        return T(in2.engine().execute1("MatrixInverse", {arg_tensor(in2, args[0])}, Attrs{{"adjoint", adjoint}},
                                       "tf.linalg.inv"));
      }));
  put({&linalg}, "solve", native_fn(in, "tf.linalg.solve", [](Interpreter& in2, CallArgs& a) {
        Args args(in2, a, "solve", {"matrix", "rhs", "adjoint", "name"}, 2);
        const std::vector<TensorId> ab = convert_together(in2, {&args[0], &args[1]});
        return T(in2.engine().execute1("MatrixSolve", {ab[0], ab[1]}, Attrs{{"adjoint", args.has(2) && in2.truthy(args[2])}},
                                       "tf.linalg.solve"));
      }));
  put({&linalg}, "triangular_solve", native_fn(in, "tf.linalg.triangular_solve", [](Interpreter& in2, CallArgs& a) {
        Args args(in2, a, "triangular_solve", {"matrix", "rhs", "lower", "adjoint", "name"}, 2);
        const std::vector<TensorId> ab = convert_together(in2, {&args[0], &args[1]});
        const Attrs attrs{{"lower", !args.has(2) || in2.truthy(args[2])}, {"adjoint", args.has(3) && in2.truthy(args[3])}};
        return T(in2.engine().execute1("MatrixTriangularSolve", {ab[0], ab[1]}, attrs, "tf.linalg.triangular_solve"));
      }));
  // (the prelude's tf.linalg.slogdet wraps the two outputs in TF's namedtuple)
  put({&linalg}, "_ts_slogdet", native_fn(in, "tf.linalg.slogdet", [](Interpreter& in2, CallArgs& a) {
        Args args(in2, a, "slogdet", {"input", "name"}, 1);
        const std::vector<TensorId> out =
            in2.engine().execute("LogMatrixDeterminant", {arg_tensor(in2, args[0])}, {}, "tf.linalg.slogdet");
        return in2.make_tuple({T(out[0]), T(out[1])});
      }));
  put({&linalg}, "cholesky", native_fn(in, "tf.linalg.cholesky", [](Interpreter& in2, CallArgs& a) {
        Args args(in2, a, "cholesky", {"input", "name"}, 1);
        return T(in2.engine().execute1("Cholesky", {arg_tensor(in2, args[0])}, {}, "tf.linalg.cholesky"));
      }));
  put({&linalg}, "band_part", native_fn(in, "tf.linalg.band_part", [](Interpreter& in2, CallArgs& a) {
        Args args(in2, a, "band_part", {"input", "num_lower", "num_upper", "name"}, 3);
        const Attrs attrs{{"num_lower", int_arg(in2, args[1], "num_lower")}, {"num_upper", int_arg(in2, args[2], "num_upper")}};
        return T(in2.engine().execute1("MatrixBandPart", {arg_tensor(in2, args[0])}, attrs, "tf.linalg.band_part"));
      }));
}

void install_tf_module(Interpreter& in) {
  // The hooks and tf.random's natives hold the shared state (seeded streams, dtype objects).
  auto st = module_state(in);
  install_tensor_hooks(in);
  auto tf = std::make_shared<ModuleObj>("tensorflow");
  auto math = std::make_shared<ModuleObj>("tensorflow.math");
  auto nn = std::make_shared<ModuleObj>("tensorflow.nn");
  auto random = std::make_shared<ModuleObj>("tensorflow.random");
  auto image = std::make_shared<ModuleObj>("tensorflow.image");
  auto dtypes = std::make_shared<ModuleObj>("tensorflow.dtypes");
  auto nest = std::make_shared<ModuleObj>("tensorflow.nest");
  auto linalg = std::make_shared<ModuleObj>("tensorflow.linalg");
  const Modules m{tf.get(), math.get(), nn.get(), random.get(), image.get(), dtypes.get(), nest.get()};
  install_dtypes(in, m);
  install_math(in, m);
  install_creation(in, m);
  install_random(in, m, st);
  install_unconnected(in, m);
  install_misc(in, m);
  install_conv(in, m);
  install_control_flow_ops(in, *tf);
  install_linalg(in, *linalg);
  if (const Value* mm = tf->attrs.find("matmul")) linalg->attrs.set("matmul", *mm);
  if (const Value* ey = tf->attrs.find("eye")) linalg->attrs.set("eye", *ey);
  if (const Value* es = tf->attrs.find("einsum")) linalg->attrs.set("einsum", *es);
  for (const auto& [name, mod] : {std::pair{"math", math}, std::pair{"nn", nn}, std::pair{"random", random},
                                  std::pair{"image", image}, std::pair{"dtypes", dtypes}, std::pair{"nest", nest},
                                  std::pair{"linalg", linalg}})
    tf->attrs.set(name, Value::object(mod));
  in.register_module("tensorflow", tf);
  in.register_module("tf", tf);
}

}  // namespace ts::script
