// tf.cond and tf.while_loop against TF 2.17 (cond.py, cond_v2.py, while_loop.py,
// while_v2.py): eager runs only what the predicate picks, a tf.function traces both
// branches (zeros for what only the untaken one used), while_loop's structure rules.
// Tape scripts refuse `lambda`, so the branches and loop bodies are `def`s.
#include <catch2/catch.hpp>

#include "engine/run.h"
#include "script_test_util.h"

using namespace ts;

namespace {

// (cause code, line) of each None/zero result of the run's gradient calls, in order.
std::vector<std::pair<std::string, int>> causes(const std::string& script) {
  const RunResult r = run_script(script, "c.py");
  if (r.error) FAIL_CHECK(r.error->format());
  std::vector<std::pair<std::string, int>> out;
  for (const GradientCall& c : r.log().gradient_calls)
    for (const SourceResult& s : c.results)
      if (s.diagnosis) out.emplace_back(cause_code(s.diagnosis->code), s.diagnosis->line);
  return out;
}

}  // namespace

TEST_CASE("tf.cond eagerly runs only the taken branch; the tape sees only its ops", "[control_flow]") {
  const std::string script =
      "x = tf.constant(2.0)\n"
      "v = tf.Variable(3.0)\n"
      "w = tf.Variable(5.0)\n"
      "def t():\n"
      "  return x * v\n"
      "def f():\n"
      "  return x * w\n"
      "with tf.GradientTape(persistent=True) as tape:\n"
      "  tape.watch(x)\n"
      "  c = x * 1.0\n"
      "  y = tf.cond(c > 0, t, f)\n"
      "print(y)\n"
      "print(tape.gradient(y, [v, w]))\n"
      "print(tape.gradient(y, c))\n";
  CHECK(out(script) == Lines{"tf.Tensor(6.0, shape=(), dtype=float32)",
                             "[<tf.Tensor: shape=(), dtype=float32, numpy=2.0>, None]", "None"});
  // w appears only in the branch that did not run (its line); c only decided the branch.
  CHECK(causes(script) ==
        std::vector<std::pair<std::string, int>>{{"UNCONNECTED", 7}, {"CONTROL_FLOW_ONLY", 11}});
  // A Python predicate picks too; the result is what the branch returned, nest and all.
  CHECK(out("x = tf.constant(2.0)\n"
            "def t():\n"
            "  return (x, [x * 2.0])\n"
            "def f():\n"
            "  return (x, [x * 3.0])\n"
            "print(tf.cond(False, t, f))\n"
            "print(tf.cond(x < 0, true_fn=t, false_fn=f)[1][0].numpy())\n") ==
        Lines{"(<tf.Tensor: shape=(), dtype=float32, numpy=2.0>, [<tf.Tensor: shape=(), dtype=float32, numpy=6.0>])",
              "6.0"});
}

TEST_CASE("tf.cond's argument errors are TF's", "[control_flow]") {
  CHECK(error_of("def t():\n  return 1\ntf.cond(True, t)\n") == "TypeError: cond(): 'false_fn' argument required");
  CHECK(error_of("def t():\n  return 1\ntf.cond(True, false_fn=t)\n") == "TypeError: cond(): 'true_fn' argument required");
  CHECK(error_of("def t():\n  return 1\ntf.cond(True, t, 3)\n") == "TypeError: 'false_fn' must be callable.");
  // Eagerly the predicate is NumPy's truth value.
  CHECK(error_of("def t():\n  return 1\ntf.cond(tf.constant([True, False]), t, t)\n") ==
        "ValueError: The truth value of an array with more than one element is ambiguous. Use a.any() or a.all()");
}

TEST_CASE("tf.cond in a tf.function traces both branches; the untaken one's variables get zeros", "[control_flow]") {
  CHECK(out("v = tf.Variable(3.0)\n"
            "w = tf.Variable(5.0)\n"
            "def t():\n"
            "  print('tracing t')\n"
            "  return v * 2.0\n"
            "def f():\n"
            "  print('tracing f')\n"
            "  return w * 2.0\n"
            "@tf.function\n"
            "def g(a):\n"
            "  r = tf.cond(a > 0, t, f)\n"
            "  print(r)\n"
            "  return r\n"
            "with tf.GradientTape() as tape:\n"
            "  y = g(tf.constant(1.0))\n"
            "print(y.numpy(), tape.gradient(y, [v, w]))\n"
            "with tf.GradientTape() as tape:\n"
            "  y = g(tf.constant(-1.0))\n"
            "print(y.numpy(), [d.numpy() for d in tape.gradient(y, [v, w])])\n") ==
        Lines{"tracing t", "tracing f", "Tensor(\"cond/Identity:0\", shape=(), dtype=float32)",
              "6.0 [<tf.Tensor: shape=(), dtype=float32, numpy=2.0>, <tf.Tensor: shape=(), dtype=float32, numpy=0.0>]",
              "10.0 [0.0, 2.0]"});
  // The untaken branch runs in shadow: its variable updates do not happen.
  CHECK(out("v = tf.Variable(1.0)\n"
            "def t():\n"
            "  v.assign_add(10.0)\n"
            "  return tf.constant(1.0)\n"
            "def f():\n"
            "  return tf.constant(2.0)\n"
            "@tf.function\n"
            "def g(a):\n"
            "  return tf.cond(a, t, f)\n"
            "print(g(tf.constant(False)).numpy(), v.numpy())\n") == Lines{"2.0 1.0"});
}

TEST_CASE("tf.cond in a tf.function: cond_v2's errors for a Python bool, structures and dtypes", "[control_flow]") {
  CHECK(error_of("def t():\n  return 1.0\n@tf.function\ndef g():\n  return tf.cond(True, t, t)\ng()\n") ==
        "TypeError: in user code:\n\n    File \"test.py\", line 5, in g  *\n        return tf.cond(True, t, t)\n\n"
        "    TypeError: ('pred must not be a Python bool', True)\n");
  // Tensor names inside the branch graphs are not TF's (see the report); the rest is.
  const std::string head =
      "TypeError: in user code:\n\n    File \"test.py\", line 7, in g  *\n        return tf.cond(a > 0, t, f)\n\n"
      "    TypeError: true_fn and false_fn arguments to tf.cond must have the same number, type, and overall "
      "structure of return values.\n    \n    true_fn output: Tensor(";
  const std::string dtypes = error_of(
      "def t():\n  return tf.constant(1.0)\ndef f():\n  return tf.constant(1)\n"
      "@tf.function\ndef g(a):\n  return tf.cond(a > 0, t, f)\ng(tf.constant(1.0))\n");
  CHECK_THAT(dtypes, Catch::StartsWith(head) && Catch::Contains("    Error details:\n    Tensor(") &&
                         Catch::EndsWith(", shape=(), dtype=int32) have different types\n"));
  const std::string structures = error_of(
      "def t():\n  return tf.constant(1.0)\ndef f():\n  return [tf.constant(1.0), tf.constant(2.0)]\n"
      "@tf.function\ndef g(a):\n  return tf.cond(a > 0, t, f)\ng(tf.constant(1.0))\n");
  CHECK_THAT(structures,
             Catch::StartsWith(head) &&
                 Catch::Contains("    Error details:\n    The two structures don't have the same nested structure.\n"
                                 "    \n    First structure: type=SymbolicTensor str=Tensor(") &&
                 Catch::Contains("    More specifically: Substructure \"type=list str=[<tf.Tensor '") &&
                 Catch::EndsWith("\" is not\n    Entire first structure:\n    .\n    Entire second structure:\n    [., .]\n"));
}

TEST_CASE("tf.while_loop eagerly: the Python loop, gradients through every iteration", "[control_flow]") {
  // x -> x^2 -> x^4 -> x^8 at x = 2: 256; d(x^8)/dx = 8 x^7 = 1024.
  CHECK(out("x = tf.constant(2.0)\n"
            "def c(i, x):\n"
            "  return i < 3\n"
            "def b(i, x):\n"
            "  return (i + 1, x * x)\n"
            "with tf.GradientTape() as tape:\n"
            "  tape.watch(x)\n"
            "  i, y = tf.while_loop(c, b, [0, x])\n"
            "print(i, y)\n"
            "print(tape.gradient(y, x))\n") ==
        Lines{"tf.Tensor(3, shape=(), dtype=int32) tf.Tensor(256.0, shape=(), dtype=float32)",
              "tf.Tensor(1024.0, shape=(), dtype=float32)"});
  // The result is the container the body returned (a list even for tuple loop vars);
  // maximum_iterations stops the loop early.
  CHECK(out("def c(v):\n  return v < 10\n"
            "def b(v):\n  return [v + 1]\n"
            "def b2(v):\n  return [v + 1]\n"
            "print(tf.while_loop(c, b, [tf.constant(0)]))\n"
            "print(tf.while_loop(c, b, (tf.constant(0),)))\n"
            "print(tf.while_loop(c, b2, [tf.constant(0)], maximum_iterations=3))\n"
            "x = tf.constant(2.0)\n"
            "def c2(i, x):\n  return i < 3\n"
            "def b3(i, x):\n  return (i + 1, x * x)\n"
            "with tf.GradientTape() as tape:\n"
            "  tape.watch(x)\n"
            "  i, y = tf.while_loop(c2, b3, (0, x), maximum_iterations=2)\n"
            "print(i.numpy(), y.numpy(), tape.gradient(y, x).numpy())\n") ==
        Lines{"[<tf.Tensor: shape=(), dtype=int32, numpy=10>]", "[<tf.Tensor: shape=(), dtype=int32, numpy=10>]",
              "[<tf.Tensor: shape=(), dtype=int32, numpy=3>]", "2 16.0 32.0"});
  // A source that only decided the loop's condition gets CONTROL_FLOW_ONLY at its line.
  CHECK(causes("n = tf.constant(3.0)\n"
               "x = tf.constant(2.0)\n"
               "def c(i, x):\n"
               "  return i < n\n"
               "def b(i, x):\n"
               "  return (i + 1.0, x * 2.0)\n"
               "with tf.GradientTape() as tape:\n"
               "  tape.watch(n)\n"
               "  i, y = tf.while_loop(c, b, [0.0, x])\n"
               "print(tape.gradient(y, n))\n") == std::vector<std::pair<std::string, int>>{{"CONTROL_FLOW_ONLY", 9}});
}

TEST_CASE("tf.while_loop's errors are TF's", "[control_flow]") {
  const std::string defs = "def c(i, x):\n  return i < 3\ndef bad(i, x):\n  return (i + 1, [x])\n";
  CHECK(error_of(defs + "tf.while_loop(c, bad, [0, tf.constant(2.0)])\n") ==
        "ValueError: The two structures don't have the same nested structure.\n\n"
        "First structure: type=list str=[TensorSpec(shape=(), dtype=tf.int32, name=None), TensorSpec(shape=(), "
        "dtype=tf.float32, name=None)]\n\n"
        "Second structure: type=list str=[1, [<tf.Tensor: shape=(), dtype=float32, numpy=2.0>]]\n\n"
        "More specifically: Substructure \"type=list str=[<tf.Tensor: shape=(), dtype=float32, numpy=2.0>]\" is a "
        "sequence, while substructure \"type=TensorSpec str=TensorSpec(shape=(), dtype=tf.float32, name=None)\" is "
        "not\nEntire first structure:\n[., .]\nEntire second structure:\n[., [.]]");
  CHECK(error_of(defs + "tf.while_loop(c, 3, [0])\n") == "TypeError: 'body' must be callable.");
  CHECK(error_of(defs + "tf.while_loop(c, bad, [0], parallel_iterations=0)\n") ==
        "TypeError: 'parallel_iterations' must be a positive integer.");
  // `not loop_vars`, then len(loop_vars): a zero scalar is "not provided", another has no len().
  CHECK(error_of(defs + "tf.while_loop(c, bad, tf.constant(0))\n") == "ValueError: 'loop_vars' must be provided.");
  CHECK(error_of(defs + "tf.while_loop(c, bad, tf.constant(3))\n") == "TypeError: Scalar tensor has no `len()`");
  CHECK(error_of(defs + "tf.while_loop(c, bad, [0], maximum_iterations=[1, 2])\n") ==
        "ValueError: 'maximum_iterations' must be a scalar. Received shape: (2,)");
}

TEST_CASE("tf.while_loop in a tf.function: traced once, loop_vars' structure, While outputs", "[control_flow]") {
  CHECK(out("def c(v):\n  return v < 10\n"
            "def b(v):\n  print('body')\n  return v + 1\n"
            "@tf.function\n"
            "def f(x):\n"
            "  r = tf.while_loop(c, b, (x,))\n"
            "  print(r)\n"
            "  return r\n"
            "print(f(tf.constant(0)))\n"
            "print(f(tf.constant(4)))\n"
            "print(f(tf.constant(20)))\n") ==
        Lines{"body", "(<tf.Tensor 'while:2' shape=() dtype=int32>,)", "(<tf.Tensor: shape=(), dtype=int32, numpy=10>,)",
              "(<tf.Tensor: shape=(), dtype=int32, numpy=10>,)", "(<tf.Tensor: shape=(), dtype=int32, numpy=20>,)"});
  CHECK(out("x = tf.constant(2.0)\n"
            "def c(i, x):\n  return i < 3\n"
            "def b(i, x):\n  return (i + 1, x * x)\n"
            "@tf.function\n"
            "def f(x):\n"
            "  return tf.while_loop(c, b, [0, x])\n"
            "with tf.GradientTape() as tape:\n"
            "  tape.watch(x)\n"
            "  i, y = f(x)\n"
            "print(i.numpy(), y.numpy(), tape.gradient(y, x).numpy())\n") == Lines{"3 256.0 1024.0"});
}

TEST_CASE("a traced `if` whose one branch returns takes the code after it into the other branch",
          "[control_flow]") {
  // AutoGraph's ConditionalReturnRewriter: `if c: return a` then `return b` is
  // `if c: return a else: return b`, one cond with a return on both sides.
  const std::string script =
      "@tf.function\n"
      "def f(x):\n"
      "  if x > 0:\n"
      "    return x * x\n"
      "  return -x\n"
      "@tf.function\n"
      "def g(x):\n"
      "  if x > 0:\n"
      "    y = x * 3.0\n"
      "  else:\n"
      "    return x - 1.0\n"
      "  z = y + 1.0\n"
      "  return z\n"
      "x = tf.constant(2.0)\n"
      "with tf.GradientTape(persistent=True) as tape:\n"
      "  tape.watch(x)\n"
      "  a = f(x)\n"
      "  b = f(-x)\n"
      "  c = g(x)\n"
      "  d = g(-x)\n"
      "print(a.numpy(), b.numpy(), c.numpy(), d.numpy())\n"
      "print([g.numpy() for g in tape.gradient([a, b, c, d], [x, x, x, x])])\n";
  CHECK(out(script) == Lines{"4.0 2.0 7.0 -3.0", "[7.0, 7.0, 7.0, 7.0]"});
  // Each target alone: 2x at 2, 1 through -(-x), 3, and -1 through (-x) - 1.
  CHECK(out(script + "print([tape.gradient(t, x).numpy() for t in [a, b, c, d]])\n").back() == "[4.0, 1.0, 3.0, -1.0]");
  // Code after the `if` that does not return leaves the other branch without a return value.
  const RunResult r = run_script(
      "@tf.function\n"
      "def h(x):\n"
      "  if x > 0:\n"
      "    return x\n"
      "  y = 2.0 * x\n"
      "print(h(tf.constant(2.0)))\n",
      "h.py");
  REQUIRE(r.error);
  CHECK(r.error->type == "ValueError");
  CHECK(r.error->message.find("the else branch must also have a return statement.") != std::string::npos);
}

TEST_CASE("the untaken branch of a traced cond is traced, not run: value errors there do not raise",
          "[control_flow]") {
  // TF's If op runs one branch; the other is only a graph. Here it runs in shadow on the
  // real values, so an index out of range or an integer division by zero it meets is
  // not the call's error.
  CHECK(out("@tf.function\n"
            "def g(x, i):\n"
            "  if i < 3:\n"
            "    y = tf.gather(x, i)\n"
            "  else:\n"
            "    y = x[0]\n"
            "  return y\n"
            "xs = tf.constant([1.0, 2.0, 3.0])\n"
            "print(g(xs, tf.constant(1)).numpy(), g(xs, tf.constant(5)).numpy())\n"
            "@tf.function\n"
            "def h(n):\n"
            "  if n > 0:\n"
            "    r = 10 // n\n"
            "  else:\n"
            "    r = n\n"
            "  return r\n"
            "print(h(tf.constant(2)).numpy(), h(tf.constant(0)).numpy())\n"
            "def t():\n"
            "  return tf.gather(xs, tf.constant(7))\n"
            "def f():\n"
            "  return xs[0]\n"
            "@tf.function\n"
            "def k(i):\n"
            "  return tf.cond(i < 3, t, f)\n"
            "print(k(tf.constant(5)).numpy())\n"
            // a while_loop that never runs still traces its body, without running it for real
            "def c(i, a):\n"
            "  return i < 0\n"
            "def b(i, a):\n"
            "  return i + 1, a + tf.gather(xs, 5)\n"
            "@tf.function\n"
            "def w():\n"
            "  return tf.while_loop(c, b, [0, 1.0])\n"
            "print([v.numpy() for v in w()])\n") == Lines{"2.0 1.0", "5 0", "1.0", "[0, 1.0]"});
  // Errors of the trace itself still surface: a branch returning None against a tensor.
  CHECK(error_of("x = tf.constant(2.0)\n"
                 "def t():\n"
                 "  return x * 2.0\n"
                 "def f():\n"
                 "  return None\n"
                 "@tf.function\n"
                 "def g():\n"
                 "  return tf.cond(x > 0, t, f)\n"
                 "print(g())\n")
            .find("Lengths of branch outputs of cond must match.\n"
                  "    len(graphs[0].outputs): 1\n"
                  "    len(graphs[1].outputs): 0") != std::string::npos);
}

TEST_CASE("control flow: a traced while_loop keeps its loop vars' dtype and shape; eager loops do not check", "[control_flow]") {
  // while_v2_test's testVerifyInputOutputTypesMatch and the shape check of
  // _check_shapes_compat, inside a tf.function; the same loops run eagerly.
  const std::string body = "def c(x):\n  return tf.reduce_sum(x) < 10\n"
                           "def to64(x):\n  return tf.cast(x, tf.float64) + 1\n"
                           "def grow(x):\n  return tf.expand_dims(x, 0)\n";
  CHECK(error_of(body + "@tf.function\ndef f():\n  return tf.while_loop(c, to64, [tf.constant(1.0)])\nf()\n")
            .find("TypeError: Loop var Const:0 enters the loop with type <dtype: 'float32'> but has type <dtype: "
                  "'float64'> after 1 iteration. Const:0 type should remain constant.") != std::string::npos);
  CHECK(error_of(body + "@tf.function\ndef f():\n  return tf.while_loop(c, grow, [tf.constant([1.0])])\nf()\n")
            .find("ValueError: Input tensor `Const:0` enters the loop with shape (1,), but has shape (1, 1) after one "
                  "iteration.") != std::string::npos);
  CHECK(out(body + "def to64t(x):\n  return (to64(x),)\nprint(tf.while_loop(c, to64t, [tf.constant(1.0)])[0].dtype)\n") ==
        Lines{"<dtype: 'float64'>"});
  // tf.while_loop passes return_same_structure=True: eagerly, a body's bare tensor is
  // not packed into a list but iterated by list() (while_loop.py), so a scalar raises.
  CHECK(error_of(body + "tf.while_loop(c, to64, [tf.constant(1.0)])\n") == "TypeError: Cannot iterate over a scalar tensor.");
  // A non-tensor result is refused by graph building after the body, not in user code.
  CHECK(error_of("@tf.function\ndef f(x):\n  return x, object()\nf(tf.constant(1.0))\n")
            .rfind("TypeError: To be compatible with tf.function, Python functions must return zero or more Tensors", 0) == 0);
}

TEST_CASE("control flow: map_fn, vectorized_map and switch_case give TF's values and gradients", "[control_flow]") {
  CHECK(out("x = tf.constant([[1., 2.], [3., 4.], [5., 6.]])\n"
            "def f(row):\n"
            "  return tf.reduce_sum(row * row)\n"
            "with tf.GradientTape() as t:\n"
            "  t.watch(x)\n"
            "  y = tf.map_fn(f, x)\n"
            "print(y.numpy(), t.gradient(y, x).numpy().tolist())\n"
            "def g(pair):\n"
            "  a, b = pair\n"
            "  return a * b, a + b\n"
            "p, s = tf.map_fn(g, (tf.constant([1., 2.]), tf.constant([3., 4.])))\n"
            "print(p.numpy(), s.numpy(), tf.vectorized_map(f, x).numpy())\n"
            "def b0():\n  return tf.constant(10)\n"
            "def b1():\n  return tf.constant(20)\n"
            "print(int(tf.switch_case(tf.constant(1), [b0, b1])), int(tf.switch_case(tf.constant(5), [b0, b1])),\n"
            "      int(tf.switch_case(tf.constant(7), {0: b0, 1: b1}, default=b0)))\n") ==
        Lines{"[ 5. 25. 61.] [[2.0, 4.0], [6.0, 8.0], [10.0, 12.0]]", "[3. 8.] [4. 6.] [ 5. 25. 61.]", "20 20 10"});
  CHECK(error_of("def f(v):\n  return v\ntf.map_fn(f, tf.constant(1.0))\n") ==
        "ValueError: Elements in elems must be 1+ dimensional Tensors, not scalars");
}

TEST_CASE("control flow: an eager TensorArray stores tensors, so gradients flow through write and stack", "[control_flow]") {
  CHECK(out("x = tf.constant(2.0)\n"
            "with tf.GradientTape() as t:\n"
            "  t.watch(x)\n"
            "  ta = tf.TensorArray(tf.float32, size=3)\n"
            "  for i in range(3):\n"
            "    ta = ta.write(i, x ** (i + 1))\n"
            "  y = tf.reduce_sum(ta.stack())\n"
            "print(ta.stack().numpy(), int(ta.size()), float(t.gradient(y, x)))\n"
            "tb = tf.TensorArray(tf.float32, size=0, dynamic_size=True).unstack([[1., 2.], [3., 4.]])\n"
            "print(tb.read(1).numpy(), tb.concat().numpy(), tf.TensorArray(tf.int32, size=0).stack().shape)\n"
            "try:\n"
            "  tf.TensorArray(tf.float32, size=1).write(2, 1.0)\n"
            "except tf.errors.OutOfRangeError as e:\n"
            "  print(e)\n") ==
        // read(1) cleared slot 1 (clear_after_read), so concat fills it with zeros.
        Lines{"[2. 4. 8.] 3 17.0", "[3. 4.] [1. 2. 0. 0.] (0,)",
              "Tried to write to index 2 but array is not resizeable and size is: 1 "});
}

TEST_CASE("tf.function: a call that does not fit the signature fails before tracing", "[tf.function]") {
  // function_type_utils.bind_function_inputs wraps inspect's reason.
  const std::string f = "@tf.function\ndef f(x, y=2.0):\n  return x * y\n";
  CHECK(error_of(f + "f(1.0, 2.0, 3.0)\n") ==
        "TypeError: Binding inputs to tf.function failed due to `too many positional arguments`. Received args: "
        "(1.0, 2.0, 3.0) and kwargs: {} for signature: (x, y=<captured_default_value>).");
  CHECK(error_of(f + "f(y=1.0)\n") ==
        "TypeError: Binding inputs to tf.function failed due to `missing a required argument: 'x'`. Received args: () "
        "and kwargs: {'y': 1.0} for signature: (x, y=<captured_default_value>).");
  CHECK(error_of(f + "f(1.0, z=1.0)\n") ==
        "TypeError: Binding inputs to tf.function failed due to `got an unexpected keyword argument 'z'`. Received "
        "args: (1.0,) and kwargs: {'z': 1.0} for signature: (x, y=<captured_default_value>).");
  CHECK(out(f + "print(f(tf.constant(2.0)).numpy(), f(2.0, y=3.0).numpy())\n") == Lines{"4.0 6.0"});
}

TEST_CASE("tf.function: mixing dtypes fails in graph construction, as a TypeError", "[tf.function]") {
  // op_def_library._apply_op_helper checks the inputs against the first one's type attr.
  const std::string e = error_of("@tf.function\ndef f(x):\n  return x + tf.constant([1, 2])\nf(tf.constant([1.0, 2.0]))\n");
  CHECK(e.rfind("TypeError: in user code:", 0) == 0);
  CHECK(e.find("TypeError: Input 'y' of 'AddV2' Op has type int32 that does not match type float32 of argument 'x'.") !=
        std::string::npos);
  CHECK(error_of("@tf.function\ndef g(a):\n  return tf.matmul(a, tf.constant([[1]]))\ng(tf.constant([[1.0]]))\n")
            .find("Input 'b' of 'MatMul' Op has type int32 that does not match type float32 of argument 'a'.") !=
        std::string::npos);
  // Eagerly the same sum is the kernel's InvalidArgumentError.
  CHECK(error_of("tf.constant([1.0, 2.0]) + tf.constant([1, 2])\n").rfind("InvalidArgumentError: cannot compute AddV2", 0) ==
        0);
}

TEST_CASE("tf.function: shapes that do not broadcast fail in graph construction, naming the node", "[tf.function]") {
  // BroadcastBinaryOpOutputShapeFn's ValueError, with the NodeDef as the graph has it.
  const std::string e =
      error_of("@tf.function\ndef f(x):\n  return x + tf.constant([1.0, 2.0, 3.0])\nf(tf.constant([1.0, 2.0]))\n");
  CHECK(e.rfind("ValueError: in user code:", 0) == 0);
  CHECK(e.find("ValueError: Dimensions must be equal, but are 2 and 3 for '{{node add}} = AddV2[T=DT_FLOAT](x, Const)' "
               "with input shapes: [2], [3].") != std::string::npos);
  CHECK(error_of("@tf.function\ndef g(a, b):\n  return a * b\ng(tf.ones([2, 3]), tf.ones([4]))\n")
            .find("Dimensions must be equal, but are 3 and 4 for '{{node mul}} = Mul[T=DT_FLOAT](a, b)' with input "
                  "shapes: [2,3], [4].") != std::string::npos);
  // A Python number the operator converts lives in the op's scope.
  CHECK(error_of("@tf.function\ndef h(x):\n  return tf.ones([2]) * x + [1.0, 2.0, 3.0]\nh(2.0)\n")
            .find("for '{{node add}} = AddV2[T=DT_FLOAT](mul, add/y)'") != std::string::npos);
}

// AutoGraph's for over a tensor is a while_loop: its loop variables enter as tensors and
// keep their dtype and shape through an iteration (control_flow.py _verify_single_loop_var).
TEST_CASE("control flow: a traced loop's variables keep their dtype and shape", "[control_flow]") {
  auto loop = [](const std::string& init, const std::string& body) {
    return "@tf.function\n"
           "def f(x):\n"
           "  s = " + init + "\n"
           "  for i in tf.range(3):\n"
           "    s = " + body + "\n"
           "  return s\n"
           "try:\n"
           "  print(f(tf.constant([1.0])))\n"
           "except Exception as e:\n"
           "  print(type(e).__name__, str(e).splitlines()[-1].strip())\n";
  };
  CHECK(out(loop("tf.constant(0)", "tf.cast(s, tf.float32) + x")) ==
        Lines{"TypeError TypeError: 's' has dtype int32 before the loop, but dtype float32 after one iteration"});
  CHECK(out(loop("tf.constant([1.0])", "tf.concat([s, x], 0)")) ==
        Lines{"ValueError ValueError: 's' has shape (1,) before the loop, but shape (2,) after one iteration. Use "
              "tf.autograph.experimental.set_loop_options to set shape invariants."});
  // A Python number enters the loop as an int32 tensor.
  CHECK(out(loop("0", "s + x")) ==
        Lines{"TypeError TypeError: Input 'y' of 'AddV2' Op has type float32 that does not match type int32 of argument 'x'."});
  CHECK(out(loop("tf.constant([0.0])", "s + x")) == Lines{"tf.Tensor([3.], shape=(1,), dtype=float32)"});
}

TEST_CASE("control flow: a temporary a traced loop sets before using is no loop variable", "[control_flow]") {
  CHECK(out("@tf.function\n"
            "def f(x):\n"
            "  h = 0.0\n"
            "  for i in tf.range(3):\n"
            "    h = tf.ones([2]) * x\n"
            "    x = x + tf.reduce_sum(h)\n"
            "  return x\n"
            "print(f(tf.constant(1.0)).numpy())\n") == Lines{"27.0"});
  // A SymbolicTensor has no __index__; range() of one is AutoGraph's tf.range.
  CHECK(out("lst = [10, 20, 30]\n"
            "@tf.function\n"
            "def g(i):\n"
            "  return lst[i]\n"
            "try:\n"
            "  g(tf.constant(1))\n"
            "except TypeError as e:\n"
            "  print(str(e).splitlines()[-1].strip())\n"
            "@tf.function\n"
            "def h(n):\n"
            "  s = tf.constant(0)\n"
            "  for i in range(n):\n"
            "    s += i\n"
            "  return s\n"
            "print(h(tf.constant(4)).numpy())\n") ==
        Lines{"TypeError: list indices must be integers or slices, not SymbolicTensor", "6"});
}

TEST_CASE("tf.while_loop(back_prop=False) warns once that it is deprecated; eagerly it changes nothing", "[control_flow]") {
  ts::RunResult r = ts::run_script("x = tf.constant(2.)\n"
                                   "def c(v):\n  return v < 8.\n"
                                   "def b(v):\n  return (v * v,)\n"
                                   "for i in range(2):\n"
                                   "  with tf.GradientTape() as tape:\n"
                                   "    tape.watch(x)\n"
                                   "    y = tf.while_loop(c, b, [x], back_prop=False)[0]\n"
                                   "  print(tape.gradient(y, x).numpy())\n",
                                   "f.py");
  REQUIRE_FALSE(r.error);
  CHECK(r.output_lines() == Lines{"32.0", "32.0"});
  REQUIRE(r.warnings().size() == 1);
  CHECK(r.warnings()[0].second.rfind("WARNING:tensorflow:From f.py:9: calling while_loop_v2 (from "
                                     "tensorflow.python.ops.while_loop) with back_prop=False is deprecated and will be "
                                     "removed in a future version.\nInstructions for updating:\nback_prop=False is "
                                     "deprecated. Consider using tf.stop_gradient instead.",
                                     0) == 0);
}

TEST_CASE("switch_case checks its arguments as control_flow_switch_case does and takes (key, fn) pairs", "[control-flow]") {
  const std::string defs = "def b0():\n  return tf.constant(0.0)\ndef b1():\n  return tf.constant(10.0)\n";
  CHECK(error_of(defs + "tf.switch_case(1, [b0, b1])\n") == "TypeError: 'branch_index' must be a Tensor, got <class 'int'>");
  CHECK(error_of(defs + "tf.switch_case(tf.constant(1.0), [b0, b1])\n") ==
        "TypeError: 'branch_index' must be an integer Tensor, got <dtype: 'float32'>");
  CHECK(error_of(defs + "tf.switch_case(tf.constant(1), {0: b0, 2: b1})\n") ==
        "ValueError: branch indices (keys) must form contiguous range of [0 to 2) but found {0,2}");
  CHECK(error_of(defs + "tf.switch_case(tf.constant(1), [(0, b0), (0, b1)])\n") ==
        "ValueError: branch indices (keys) must form contiguous range of [0 to 2) but found {0,0}");
  CHECK(out(defs + "print(tf.switch_case(tf.constant(1), [(1, b1), (0, b0)]).numpy(), "
                   "tf.switch_case(tf.constant(7), [b0, b1]).numpy(), tf.switch_case(tf.constant(-1), [b1], default=b0).numpy())\n") ==
        Lines{"10.0 10.0 0.0"});
}

TEST_CASE("control flow: an eager TensorArray clears a slot it read (clear_after_read); a traced one keeps it", "[control-flow]") {
  // tensor_array_ops._EagerTensorArray.read and _maybe_zero.
  CHECK(out("x = tf.constant(5.0)\n"
            "with tf.GradientTape() as t:\n"
            "  t.watch(x)\n"
            "  ta = tf.TensorArray(tf.float32, size=1).write(0, x * 2.0)\n"
            "  r = ta.read(0)\n"
            "  s = ta.stack()\n"
            "print(r.numpy(), s.numpy(), t.gradient(s, x))\n"
            "keep = tf.TensorArray(tf.float32, size=1, clear_after_read=False).write(0, x)\n"
            "print(keep.read(0).numpy(), keep.read(0).numpy())\n"
            "@tf.function\n"
            "def fib(n):\n"
            "  ta = tf.TensorArray(tf.float32, size=0, dynamic_size=True)\n"
            "  ta = ta.unstack([0., 1.])\n"
            "  for i in range(2, n):\n"
            "    ta = ta.write(i, ta.read(i - 1) + ta.read(i - 2))\n"
            "  return ta.stack()\n"
            "print(fib(7).numpy())\n") ==
        Lines{"10.0 [0.] None", "5.0 5.0", "[0. 1. 1. 2. 3. 5. 8.]"});
  CHECK(error_of("ta = tf.TensorArray(tf.float32, size=1).write(0, 1.0)\nta.read(0)\nta.read(0)\n") ==
        "InvalidArgumentError: Could not read index 0 twice because it was cleared after a previous read (perhaps try "
        "setting clear_after_read = false?)");
  CHECK(error_of("tf.TensorArray(tf.float32, size=1).read(-1)\n") ==
        "OutOfRangeError: Reading from negative indices (index -1) is not allowed.");
}

TEST_CASE("control flow: a traced while on a tensor checks its loop variables as AutoGraph does; a loop that never ran leaves TF's runtime error", "[control-flow]") {
  // control_flow.py's _verify_single_loop_var runs for while_stmt as for for_stmt.
  const std::string growing = error_of("@tf.function\n"
                                       "def f(x, lim):\n"
                                       "  y = tf.constant([1.0])\n"
                                       "  while tf.reduce_sum(y) < lim:\n"
                                       "    y = tf.concat([y, y * x], 0)\n"
                                       "  return y\n"
                                       "f(tf.constant(2.0), tf.constant(5.0))\n");
  CHECK(growing.find("ValueError: in user code:") == 0);
  CHECK(growing.find("'y' has shape (1,) before the loop, but shape (2,) after one iteration.") != std::string::npos);
  CHECK(error_of("@tf.function\n"
                 "def g(n):\n"
                 "  x = tf.constant(1.0)\n"
                 "  i = 0\n"
                 "  while i < n:\n"
                 "    x = tf.cast(x, tf.float64) * 2.0\n"
                 "    i += 1\n"
                 "  return x\n"
                 "g(tf.constant(3))\n")
            .find("'x' has dtype float32 before the loop, but dtype float64 after one iteration") != std::string::npos);
  // A loop variable first set in the body, and a loop that runs zero times.
  const std::string zero = "@tf.function\n"
                           "def f(n):\n"
                           "  for i in tf.range(n):\n"
                           "    y = tf.cast(i, tf.float32) * 2.0\n"
                           "  return y\n"
                           "print(f(tf.constant(3)).numpy())\n"
                           "print(f(tf.constant(0)))\n";
  CHECK(error_of(zero) == "InvalidArgumentError: assertion failed: [loop must iterate at least once to initialize y]");
}

TEST_CASE("control flow: a traced loop that runs zero times gives its captures zero gradients, on every call",
          "[control-flow]") {
  // while_v2 traces the body once whatever the trip count; the loop variables leave
  // through a While op that takes the body's captures, so x's gradient is zeros, not
  // None. The body's Python runs at the trace only; its state changes never happen.
  CHECK(out("x = tf.Variable(2.0)\n"
            "@tf.function\n"
            "def f(n):\n"
            "  y = 0.0\n"
            "  i = tf.constant(0)\n"
            "  while i < n:\n"
            "    y = y + x * x\n"
            "    i += 1\n"
            "    print('traced')\n"
            "  return y\n"
            "@tf.function\n"
            "def g(n):\n"
            "  y = tf.constant(1.0)\n"
            "  for i in tf.range(n):\n"
            "    y = y * x\n"
            "    x.assign_add(1.0)\n"
            "  return y\n"
            "for fn, n in ((f, 0), (f, 0), (f, 2), (g, 0), (g, 0)):\n"
            "  with tf.GradientTape() as tape:\n"
            "    y = fn(tf.constant(n))\n"
            "  print(y.numpy(), tape.gradient(y, x).numpy(), x.numpy())\n") ==
        Lines{"traced", "0.0 0.0 2.0", "0.0 0.0 2.0", "8.0 8.0 2.0", "1.0 0.0 2.0", "1.0 0.0 2.0"});
  // tf.while_loop inside a tf.function: the second call (a replay of the trace) too.
  CHECK(out("x = tf.Variable(2.0)\n"
            "def c(i, y):\n"
            "  return i < 3\n"
            "def b(i, y):\n"
            "  return (i + 1, y + x * x)\n"
            "@tf.function\n"
            "def f(n):\n"
            "  return tf.while_loop(c, b, (n, tf.constant(0.0)))[1]\n"
            "for k in range(2):\n"
            "  with tf.GradientTape() as tape:\n"
            "    y = f(tf.constant(5))\n"
            "  print(tape.gradient(y, x))\n") ==
        Lines{"tf.Tensor(0.0, shape=(), dtype=float32)", "tf.Tensor(0.0, shape=(), dtype=float32)"});
}

TEST_CASE("control flow: a TensorArray is a while_loop variable and a cond output, eagerly and traced", "[control-flow]") {
  // cond_v2_test's testCondAndTensorArrayInFunction; while_loop.py keeps TensorArrays.
  CHECK(out("@tf.function\n"
            "def f():\n"
            "  x = tf.range(-5, 5)\n"
            "  output = tf.TensorArray(dtype=tf.int32, size=x.shape[0])\n"
            "  def loop_body(i, output):\n"
            "    def if_true():\n"
            "      return output.write(i, x[i] ** 2)\n"
            "    def if_false():\n"
            "      return output.write(i, x[i])\n"
            "    output = tf.cond(x[i] > 0, if_true, if_false)\n"
            "    return i + 1, output\n"
            "  def c(i, arr):\n"
            "    return i < x.shape[0]\n"
            "  _, output = tf.while_loop(c, loop_body, loop_vars=(tf.constant(0), output))\n"
            "  return output.stack()\n"
            "print(f().numpy())\n"
            "x = tf.constant(2.0)\n"
            "with tf.GradientTape() as t:\n"
            "  t.watch(x)\n"
            "  ta = tf.TensorArray(tf.float32, size=3)\n"
            "  def c(i, ta, y):\n"
            "    return i < 3\n"
            "  def b(i, ta, y):\n"
            "    return i + 1, ta.write(i, y * x), y * x\n"
            "  _, ta, y = tf.while_loop(c, b, [0, ta, tf.constant(1.0)])\n"
            "  s = tf.reduce_sum(ta.stack())\n"
            "print(type(ta).__name__, s.numpy(), t.gradient(s, x).numpy())\n") ==
        Lines{"[-5 -4 -3 -2 -1  0  1  4  9 16]", "TensorArray 14.0 17.0"});
}

TEST_CASE("tf.function: a returned fully known TensorShape converts to an int32 tensor", "[control-flow]") {
  // constant_op's registered TensorShape conversion (func_graph's convert()).
  CHECK(out("@tf.function\n"
            "def f(x):\n"
            "  return x.shape, x * 2.0\n"
            "s, y = f(tf.ones([2, 3]))\n"
            "print(s)\n") == Lines{"tf.Tensor([2 3], shape=(2,), dtype=int32)"});
}
