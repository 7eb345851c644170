// Tensor semantics for the interpreter (Interpreter::Hooks): operators on EagerTensors
// and tf.Variables, their attributes and methods, indexing (StridedSlice, so gradients
// flow), iteration, truthiness, printing and conversion. NdArray values are handed to
// np_module.cpp. TF 2.17's rules: the Python operand of `x * 3` converts with x's dtype
// (strictly: `Cannot convert 2.5 to EagerTensor of dtype int32`); `/` is truediv
// (integers are cast to float64 first); a Variable in an expression is read first.
#include <cmath>

#include "../engine.h"
#include "../format.h"
#include "../op_registry.h"
#include "tf_util.h"

namespace ts::script {

namespace {

// The tensor a Tensor or Variable operand stands for (a Variable is read: ReadVariableOp).
TensorId operand(Interpreter& in, const Value& v) {
  return v.kind == VKind::Variable ? in.engine().read_variable(v.id) : v.id;
}

bool is_comparison(const std::string& op) {
  return op == "<" || op == "<=" || op == ">" || op == ">=" || op == "==" || op == "!=";
}

// `a < t` runs t.__gt__(a) in Python: the comparison seen from the tensor's side.
std::string mirrored(const std::string& op) {
  if (op == "<") return ">";
  if (op == "<=") return ">=";
  if (op == ">") return "<";
  if (op == ">=") return "<=";
  return op;
}

const char* op_type_of(const std::string& op) {
  if (op == "+") return "AddV2";
  if (op == "-") return "Sub";
  if (op == "*") return "Mul";
  if (op == "//") return "FloorDiv";
  if (op == "%") return "FloorMod";
  if (op == "**") return "Pow";
  if (op == "<") return "Less";
  if (op == "<=") return "LessEqual";
  if (op == ">") return "Greater";
  if (op == ">=") return "GreaterEqual";
  if (op == "==") return "Equal";
  if (op == "!=") return "NotEqual";
  return nullptr;
}

[[noreturn]] void unsupported_operands(Interpreter& in, const std::string& op, const Value& a, const Value& b) {
  in.raise("TypeError", "unsupported operand type(s) for " + op + ": '" + value_type_name(in, a) + "' and '" +
                            value_type_name(in, b) + "'");
}


TensorId matmul(Interpreter& in, TensorId x, TensorId y, const std::string& label, bool ta = false, bool tb = false) {
  Engine& e = in.engine();
  const Shape& sx = e.value(x).shape;
  const Shape& sy = e.value(y).shape;
  check_matmul_size(in, sx, sy, ta, tb);
  const bool batched = sx.size() > 2 || sy.size() > 2;
  if (batched && OpRegistry::instance().find("BatchMatMulV2"))
    return e.execute1("BatchMatMulV2", {x, y}, Attrs{{"adj_x", ta}, {"adj_y", tb}}, label);
  return e.execute1("MatMul", {x, y}, Attrs{{"transpose_a", ta}, {"transpose_b", tb}}, label);
}

Value tensor_binary(Interpreter& in, const std::string& op, const Value& a, const Value& b) {
  if (!is_tensorish(a) && !is_tensorish(b)) return ndarray_binary(in, op, a, b);
  Engine& e = in.engine();
  // The tensor whose method Python calls: `a` unless only `b` is a tensor (reflected).
  const bool reflected = !is_tensorish(a);
  const Value& self = reflected ? b : a;
  const Value& other = reflected ? a : b;
  std::string sym = op;
  if (is_comparison(op) && reflected) sym = mirrored(op);
  if ((sym == "==" || sym == "!=") && other.is_none()) return Value::boolean(sym == "!=");
  if (!is_arrayish(other) && !other.is_number() && other.kind != VKind::Str && !is_sequence(other)) {
    if (sym == "==" || sym == "!=") return Value::boolean(sym == "!=");
    // (A user object's own operator methods were asked by Interpreter::binary first.)
    // Anything else fails to convert, with TF's ValueError.
  }
  const DType dt = value_dtype(in, self);
  const TensorId sid = operand(in, self);
  // truediv and _add_dispatch convert the second operand with a dtype *hint* (a float
  // added to an int tensor stays float, and AddV2 refuses the pair); the others strictly.
  const HintMode mode = (sym == "/" || sym == "+") && !reflected ? HintMode::Soft : HintMode::Strict;
  const TensorId oid = convert_to_tensor(in, other, dt, mode, "constant");
  // Operand order as written for arithmetic; the tensor first for (mirrored) comparisons.
  TensorId x = sid, y = oid;
  if (reflected && !is_comparison(op)) std::swap(x, y);

  // A broadcast far past the tensor-size cap is refused before the kernel allocates it.
  try {
    const Shape bs = broadcast_shapes(e.value(x).shape, e.value(y).shape);
    if (sym != "@") check_new_shape(in, bs, DTypeFlavor::Tf);
  } catch (const std::exception&) {
    // incompatible shapes: the op raises TF's error below
  }
  if (sym == "/") return Value::tensor(truediv(in, x, y, "/"));
  if (sym == "@") return Value::tensor(matmul(in, x, y, "@"));
  if (sym == "&" || sym == "|" || sym == "^") {
    // Tensor.__and__ & co.: logical ops on bools (math_ops._and, _or, logical_xor).
    if (e.value(x).dtype != DType::Bool || e.value(y).dtype != DType::Bool)
      in.raise("ValueError", "bitwise " + sym + " of " + std::string(dtype_name(e.value(x).dtype)) +
                                 " tensors (tf.bitwise) is not supported in tape scripts");
    if (sym == "&") return Value::tensor(e.execute1("LogicalAnd", {x, y}, {}, sym));
    if (sym == "|") return Value::tensor(e.execute1("LogicalOr", {x, y}, {}, sym));
    const TensorId any = e.execute1("LogicalOr", {x, y}, {}, sym), both = e.execute1("LogicalAnd", {x, y}, {}, sym);
    return Value::tensor(e.execute1("LogicalAnd", {any, e.execute1("LogicalNot", {both}, {}, sym)}, {}, sym));
  }
  const char* type = op_type_of(sym);
  if (!type) unsupported_operands(in, op, a, b);
  if (sym == "==" || sym == "!=") {
    // TF 2's __eq__ uses incompatible_shape_error=False: unbroadcastable shapes give False.
    try {
      (void)broadcast_shapes(e.value(x).shape, e.value(y).shape);
    } catch (const std::exception&) {
      return Value::tensor(e.constant(make_scalar(DType::Bool, sym == "!=" ? 1.0 : 0.0), sym));
    }
  }
  return Value::tensor(e.execute1(binary_op_for(type, e.value(x).dtype), {x, y}, {}, sym));
}

Value tensor_unary(Interpreter& in, const std::string& op, const Value& a) {
  if (!is_tensorish(a)) return ndarray_unary(in, op, a);
  Engine& e = in.engine();
  const DType dt = value_dtype(in, a);
  if (op == "+") return a.kind == VKind::Variable ? Value::tensor(operand(in, a)) : a;
  if (op == "-") return Value::tensor(e.execute1("Neg", {operand(in, a)}, {}, "-"));
  if (op == "abs") return Value::tensor(e.execute1("Abs", {operand(in, a)}, {}, "abs"));
  if (op == "~") {
    if (dt == DType::Bool) return Value::tensor(e.execute1("LogicalNot", {operand(in, a)}, {}, "~"));
    if (is_integer(dt)) {  // bitwise not: -x - 1
      const TensorId neg = e.execute1("Neg", {operand(in, a)}, {}, "~");
      return Value::tensor(e.execute1("Sub", {neg, e.constant(make_scalar(dt, 1.0), "constant")}, {}, "~"));
    }
  }
  in.raise("TypeError", "bad operand type for unary " + op + ": '" + value_type_name(in, a) + "'");
}

// ---------------------------------------------------------------------------------
// Attributes

bool numpy_only_name(const std::string& n) {
  static const char* names[] = {"reshape", "astype", "T", "mean", "sum", "max", "min", "item", "tolist",
                                "flatten", "size", "transpose", "squeeze", "ravel", "argmax", "copy", "all", "any"};
  for (const char* x : names)
    if (n == x) return true;
  return false;
}

// Keras 3.7's Variable.__repr__ (also its str): path, shape, dtype and the value as
// f"{value}" of its NumPy array (a scalar as the Python number: 0.10000000149011612).
std::string keras_variable_text(const VariableInfo& vi, const TensorValue& value) {
  return "<Variable path=" + vi.path + ", shape=" + format_shape(vi.shape) + ", dtype=" + std::string(dtype_name(vi.dtype)) +
         ", value=" + format_numpy_default(value) + ">";
}

Value method(Interpreter& in, const std::string& qualified, NativeFn fn) { return native_fn(in, qualified, std::move(fn)); }

// Variable.assign / assign_add / assign_sub: the value converts to the variable's dtype.
Value assign_method(Interpreter& in, const Value& self, const std::string& which, const char* op_type) {
  return method(in, "ResourceVariable." + which, [self, which, op_type](Interpreter& in2, CallArgs& a) {
    Engine& e = in2.engine();
    // TF names the update `delta` in assign_add/assign_sub; Keras 3 calls it `value`.
    const char* first = which == "assign" || e.variable(self.id).keras ? "value" : "delta";
    Args args(in2, a, which, {first, "use_locking", "name", "read_value"}, 1);
    const VariableInfo& vi = e.variable(self.id);
    const TensorId v = convert_to_tensor_exact(in2, args[0], vi.dtype, vi.name + "." + which);
    // In the branch a traced tf.function's `if` does not take, the update never runs.
    if (module_state(in2)->shadow_branch == 0) e.assign(self.id, v, op_type);
    if (args.given(3) && !in2.truthy(args[3])) return Value::none();
    e.variable_accessed(self.id);  // _lazy_read: the variable counts as accessed
    // Keras 3's Variable.assign* return the value assigned (a tensor).
    if (e.variable(self.id).keras) return Value::tensor(e.variable(self.id).versions.back());
    // TF returns an _UnreadVariable: the same variable, printed as 'UnreadVariable'.
    Value unread = self;
    unread.b = true;
    return unread;
  });
}

std::optional<Value> tensor_getattr(Interpreter& in, const Value& self, const std::string& name) {
  if (self.kind == VKind::NdArray) return ndarray_getattr(in, self, name);
  Engine& e = in.engine();
  const bool var = self.kind == VKind::Variable;
  const std::string type = var ? "ResourceVariable" : "EagerTensor";
  if (name == "numpy") {
    if (!var && graph_tensor_name(in, self.id))
      in.raise("AttributeError", "'SymbolicTensor' object has no attribute 'numpy'");
    if (var && tracing_graph(in))
      return method(in, type + ".numpy", [](Interpreter& in2, CallArgs&) -> Value {
        in2.raise("NotImplementedError", "numpy() is only available when eager execution is enabled.");
      });
    return method(in, type + ".numpy", [self](Interpreter& in2, CallArgs& a) {
      Args(in2, a, "numpy", {});
      Engine& e2 = in2.engine();
      return Value::ndarray(e2.to_host(operand(in2, self), ".numpy()"));
    });
  }
  if (name == "ref" || name == "experimental_ref") {
    // A hashable stand-in keyed by the tensor's identity (tensors themselves are unhashable).
    return method(in, type + "." + name, [self](Interpreter& in2, CallArgs& a) {
      Args(in2, a, "ref", {});
      auto r = std::make_shared<NativeObj>("Reference");
      r->type_name = "Reference";
      r->attrs.set("_ts_wrapped", self);
      r->attrs.set("deref", in2.builtin("Reference.deref", [self](Interpreter&, CallArgs&) { return self; }));
      r->attrs.set("__eq__", in2.builtin("Reference.__eq__", [self](Interpreter&, CallArgs& b) {
        const auto* o = b.args.empty() ? nullptr : b.args[0].as<NativeObj>();
        const Value* w = o && o->tag == "Reference" ? o->attrs.find("_ts_wrapped") : nullptr;
        return Value::boolean(w && w->kind == self.kind && w->id == self.id);
      }));
      Interpreter* ip = &in2;
      r->repr = [ip, self] { return "<Reference wrapping " + ip->repr(self) + ">"; };
      return Value::object(r);
    });
  }
  if (name == "shape") return shape_object(in, value_shape(in, self));
  if (name == "dtype") {
    // Keras 3's Variable.dtype is a string ("float32"), standardize_dtype's result.
    if (var && e.variable(self.id).keras && self.origin != kKerasInnerVariable)
      return Value::str(std::string(dtype_name(e.variable(self.id).dtype)));
    return tf_dtype_object(in, value_dtype(in, self));
  }
  if (name == "ndim") return Value::integer(static_cast<int64_t>(value_shape(in, self).size()));
  if (name == "device") return Value::str("/job:localhost/replica:0/task:0/device:CPU:0");
  if (name == "get_shape")
    return method(in, type + ".get_shape", [self](Interpreter& in2, CallArgs&) { return shape_object(in2, value_shape(in2, self)); });
  if (name == "__len__")
    return method(in, type + ".__len__", [self](Interpreter& in2, CallArgs&) { return Value::integer(tensor_len(in2, self)); });
  if (!var && name == "assign") {
    // `v[0].assign(x)`: ResourceStridedSliceAssign on the variable the slice came from.
    auto st = module_state(in);
    auto it = st->variable_slices.find(self.id);
    if (it != st->variable_slices.end()) {
      const TensorId var_id = it->second.first;
      const Attrs attrs = it->second.second;
      return method(in, "EagerTensor.assign", [var_id, attrs](Interpreter& in2, CallArgs& a) {
        Args args(in2, a, "assign", {"value", "name"}, 1);
        Engine& e2 = in2.engine();
        const VariableInfo& vi = e2.variable(var_id);
        const TensorValue cur = e2.value(vi.versions.back());
        const TensorValue val = e2.value(convert_to_tensor_exact(in2, args[0], vi.dtype, vi.name + "[...].assign"));
        // Where the slice's elements sit in the variable: slice an iota of its shape.
        Eigen::ArrayXd iota(cur.data.size());
        for (Eigen::Index i = 0; i < iota.size(); ++i) iota[i] = static_cast<double>(i);
        const TensorValue positions = make_tensor(DType::Float64, cur.shape, std::move(iota));
        const TensorValue where = run_kernel("StridedSlice", {&positions}, attrs);
        auto dims = [](const Shape& sh) {  // TensorShape::DebugString: "[2,3]"
          std::string out = "[";
          for (size_t i = 0; i < sh.size(); ++i) out += (i ? "," : "") + std::to_string(sh[i]);
          return out + "]";
        };
        if (where.shape != val.shape)
          in2.raise("InvalidArgumentError", "sliced l-value shape " + dims(where.shape) + " does not match r-value shape " +
                                                dims(val.shape) + ". Automatic broadcasting not yet implemented. "
                                                "[Op:ResourceStridedSliceAssign]");
        TensorValue next = cur;
        for (Eigen::Index k = 0; k < where.data.size(); ++k) next.data[static_cast<Eigen::Index>(where.data[k])] = val.data[k];
        if (module_state(in2)->shadow_branch == 0)
          e2.assign(var_id, e2.constant(std::move(next), vi.name + "[...].assign"), "AssignVariableOp");
        Value unread = Value::variable(var_id);
        unread.b = true;
        return unread;
      });
    }
  }
  if (!var) {
    if (name == "name")
      in.raise("AttributeError", "Tensor.name is undefined when eager execution is enabled.");
    if (numpy_only_name(name))
      in.raise("AttributeError", "EagerTensor object has no attribute '" + name +
                                     "'. If you are looking for numpy-related methods, please run the following: "
                                     "tf.experimental.numpy.experimental_enable_numpy_behavior()");
    return std::nullopt;
  }
  const VariableInfo& vi = e.variable(self.id);
  if (name == "name") {
    if (vi.keras && self.origin == kKerasInnerVariable) return Value::str(vi.path + ":0");
    return Value::str(self.b ? "UnreadVariable" : vi.name);
  }
  if (name == "path") return Value::str(vi.path.empty() ? vi.name : vi.path);
  if (name == "trainable") {
    if (vi.keras && self.origin != kKerasInnerVariable) {
      const auto& flags = module_state(in)->keras_trainable;
      if (auto it = flags.find(self.id); it != flags.end()) return Value::boolean(it->second);
    }
    return Value::boolean(vi.trainable);
  }
  if (name == "assign") return assign_method(in, self, "assign", "AssignVariableOp");
  if (name == "assign_add") return assign_method(in, self, "assign_add", "AssignAddVariableOp");
  if (name == "assign_sub") return assign_method(in, self, "assign_sub", "AssignSubVariableOp");
  if (name == "value" && vi.keras && self.origin != kKerasInnerVariable) {
    Value inner = Value::variable(self.id);  // KerasVariable.value: the tf.Variable it wraps
    inner.origin = kKerasInnerVariable;
    return inner;
  }
  if (name == "read_value" || name == "value")
    return method(in, "ResourceVariable." + name, [self, name](Interpreter& in2, CallArgs& a) {
      Args(in2, a, name, {});
      Engine& e2 = in2.engine();
      return Value::tensor(e2.read_variable(self.id, e2.variable(self.id).name + "." + name + "()"));
    });
  if (name == "constraint") return Value::none();
  if (numpy_only_name(name))
    in.raise("AttributeError", "'ResourceVariable' object has no attribute '" + name + "'");
  return std::nullopt;
}

Value tensor_getitem(Interpreter& in, const Value& self, const Value& key) {
  if (self.kind == VKind::NdArray) return ndarray_getitem(in, self, key);
  // _slice_helper: a bool or a bool tensor/array as the whole key is boolean_mask.
  if (key.kind == VKind::Bool || (is_arrayish(key) && peek_value(in, key).dtype == DType::Bool)) {
    const Value mask_fn = in.getattr(Value::object(in.module("tf")), "boolean_mask");
    return in.call(mask_fn, {self.kind == VKind::Variable ? Value::tensor(operand(in, self)) : self, key});
  }
  const SliceSpec spec = slice_spec(in, key, false);
  const TensorId t = in.engine().execute1("StridedSlice", {operand(in, self)}, spec.attrs, spec.text);
  if (self.kind == VKind::Variable) module_state(in)->variable_slices[t] = {self.id, spec.attrs};
  return Value::tensor(t);
}

std::string tensor_str(Interpreter& in, const Value& v, bool repr) {
  Engine& e = in.engine();
  switch (v.kind) {
    case VKind::Tensor: {
      const TensorValue& t = e.value(v.id);
      // A tensor of a graph being traced (tf.function) is symbolic: no value.
      if (auto name = graph_tensor_name(in, v.id)) {
        const std::string dt(dtype_name(t.dtype));
        const std::string shape = graph_tensor_shape(in, v.id).value_or(format_shape(t.shape));
        // Tensor.__str__ leaves out a shape of unknown rank; __repr__ shows "<unknown>".
        return repr ? "<tf.Tensor '" + *name + "' shape=" + shape + " dtype=" + dt + ">"
                    : "Tensor(\"" + *name + "\"" + (shape == "<unknown>" ? "" : ", shape=" + shape) + ", dtype=" + dt + ")";
      }
      return repr ? repr_tf_tensor(t) : format_tf_tensor(t);
    }
    case VKind::Variable: {
      const VariableInfo& vi = e.variable(v.id);
      if (!vi.keras && tracing_graph(in)) {  // graph mode: BaseResourceVariable.__repr__ shows no value
        const std::string name = v.b ? "UnreadVariable" : vi.name.find(':') == std::string::npos ? vi.name + ":0" : vi.name;
        return "<tf.Variable '" + name + "' shape=" + format_shape(vi.shape) + " dtype=" + std::string(dtype_name(vi.dtype)) + ">";
      }
      if (vi.keras && v.origin == kKerasInnerVariable) return format_variable(vi.path + ":0", peek_value(in, v));
      if (vi.keras) return keras_variable_text(vi, peek_value(in, v));
      if (v.b) {  // an _UnreadVariable (what assign* returns): no ":0" suffix
        const std::string text = format_variable("_:0", peek_value(in, v));
        return "<tf.Variable 'UnreadVariable'" + text.substr(std::string("<tf.Variable '_:0'").size());
      }
      return format_variable(vi.name, peek_value(in, v));
    }
    case VKind::NdArray: {
      const TensorValue& t = e.value(v.id);
      if (repr && t.rank() == 0 && module_state(in)->zero_d_arrays.count(v.id)) return repr_numpy_0d_array(t);
      return repr ? repr_numpy(t) : format_numpy(t);
    }
    default: return in.repr(v);
  }
}

std::vector<Value> tensor_iterate(Interpreter& in, const Value& v) {
  if (v.kind == VKind::NdArray) return ndarray_iterate(in, v);
  const Shape s = value_shape(in, v);
  if (s.empty()) in.raise("TypeError", "Cannot iterate over a scalar tensor.");
  Engine& e = in.engine();
  const TensorId t = operand(in, v);
  std::vector<Value> out;
  for (int64_t i = 0; i < s[0]; ++i) {
    const std::string label = "[" + std::to_string(i) + "]";
    out.push_back(Value::tensor(e.execute1("StridedSlice", {t},
                                           Attrs{{"begin", std::vector<int64_t>{i}},
                                                 {"end", std::vector<int64_t>{i + 1}},
                                                 {"strides", std::vector<int64_t>{1}},
                                                 {"shrink_axis_mask", int64_t{1}}},
                                           label)));
  }
  return out;
}

bool tensor_truthy(Interpreter& in, const Value& v) {
  const TensorValue& t = peek_value(in, v);
  const int64_t n = t.size();
  if (n > 1)
    in.raise("ValueError", "The truth value of an array with more than one element is ambiguous. Use a.any() or a.all()");
  if (n == 0) return false;
  if (t.dtype == DType::String) return !t.strings[0].empty();
  return t.data[0] != 0.0;
}

}  // namespace

void install_tensor_hooks(Interpreter& in) {
  auto st = module_state(in);
  if (st->hooks_installed) return;
  st->hooks_installed = true;
  // Every hook holds the module state, so it lives as long as the interpreter's hooks.
  Interpreter::Hooks& h = in.hooks();
  h.tensor_binary = [st](Interpreter& i, const std::string& op, const Value& a, const Value& b) {
    return guard_tf(i, [&] { return tensor_binary(i, op, a, b); });
  };
  h.tensor_unary = [st](Interpreter& i, const std::string& op, const Value& a) {
    return guard_tf(i, [&] { return tensor_unary(i, op, a); });
  };
  h.tensor_getattr = [st](Interpreter& i, const Value& self, const std::string& name) {
    return guard_tf(i, [&] { return tensor_getattr(i, self, name); });
  };
  h.tensor_setattr = [st](Interpreter& i, const Value& self, const std::string& name, const Value& v) {
    // Only a Keras variable's `trainable` is settable (a tf.Variable's is a read-only property).
    if (self.kind != VKind::Variable || self.origin == kKerasInnerVariable || !i.engine().variable(self.id).keras)
      return false;
    if (name != "trainable") return false;
    st->keras_trainable[self.id] = i.truthy(v);
    return true;
  };
  h.tensor_getitem = [st](Interpreter& i, const Value& self, const Value& key) {
    return guard_tf(i, [&] { return tensor_getitem(i, self, key); });
  };
  h.tensor_str = [st](Interpreter& i, const Value& v, bool repr) {
    // A tf.Variable's repr/str reads its value (read_value): an access a tape watches.
    if (v.kind == VKind::Variable && !v.b) i.engine().variable_accessed(v.id);
    return guard_tf(i, [&] { return tensor_str(i, v, repr); });
  };
  h.tensor_iterate = [st](Interpreter& i, const Value& v) {
    return guard_tf(i, [&] { return tensor_iterate(i, v); });
  };
  h.tensor_truthy = [st](Interpreter& i, const Value& v) {
    if (v.kind == VKind::Variable) i.engine().variable_accessed(v.id);  // bool(self.read_value())
    return guard_tf(i, [&] { return tensor_truthy(i, v); });
  };
  h.to_tensor = [st](Interpreter& i, const Value& v, std::optional<DType> d) {
    return guard_tf(i, [&] { return convert_to_tensor(i, v, d, HintMode::Strict, "constant"); });
  };
  h.tensor_index = [st](Interpreter& i, const Value& v) -> std::optional<int64_t> {
    // EagerTensor.__index__ is self._numpy().__index__(): only an integer scalar array
    // has one. A NumPy scalar has one when it is an integer (or, deprecated, a bool);
    // a SymbolicTensor has none.
    if (v.kind == VKind::Tensor && graph_tensor_name(i, v.id)) return std::nullopt;
    const TensorValue& t = i.engine().value(v.id);
    const bool scalar_type = v.kind == VKind::NdArray && t.rank() == 0 && !st->zero_d_arrays.count(v.id);
    if (t.rank() == 0 && (is_integer(t.dtype) || (scalar_type && t.dtype == DType::Bool)))
      return static_cast<int64_t>(t.data[0]);
    if (scalar_type) i.raise("TypeError", "'numpy." + value_type_name(i, v) + "' object cannot be interpreted as an integer");
    i.raise("TypeError", "only integer scalar arrays can be converted to a scalar index");
  };
}

}  // namespace ts::script
