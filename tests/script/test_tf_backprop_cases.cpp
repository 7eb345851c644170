// Tape scripts against real TensorFlow 2.17: cases ported from backprop_test.py,
// cond_v2's gradient and variants of the autodiff guide's snippets.
#include <catch2/catch.hpp>

#include "engine/run.h"
#include "script_test_util.h"

TEST_CASE("backprop: a tensor `if` in a tf.function gives zeros to what only the untaken branch used", "[backprop]") {
  // cond_v2's _IfGrad: _create_zeros_for_none_grads gives zeros where one branch has a
  // gradient and the other has None. Eagerly (no tf.function) the guide's None stays.
  CHECK(out("v0 = tf.Variable(2.0)\n"
            "v1 = tf.Variable(3.0)\n"
            "v2 = tf.Variable(4.0)\n"
            "@tf.function\n"
            "def f(x):\n"
            "  if x > 0:\n"
            "    r = v0 * x\n"
            "  else:\n"
            "    r = v1 * x\n"
            "  return r\n"
            "with tf.GradientTape() as tape:\n"
            "  y = f(tf.constant(2.0))\n"
            "print(y.numpy(), tape.gradient(y, [v0, v1, v2]))\n"
            // a replay of the same trace, the other branch taken
            "x = tf.constant(-2.0)\n"
            "with tf.GradientTape() as tape:\n"
            "  tape.watch(x)\n"
            "  y = f(x)\n"
            "print(y.numpy(), [g.numpy() for g in tape.gradient(y, [v0, v1, x])])\n"
            "with tf.GradientTape() as tape:\n"
            "  y = f(tf.constant(5.0))\n"
            "print(tape.gradient(y, v1))\n"
            "with tf.GradientTape(persistent=True) as tape:\n"
            "  tape.watch(x)\n"
            "  if x > 0.0:\n"
            "    result = v0\n"
            "  else:\n"
            "    result = v1 ** 2\n"
            "print(tape.gradient(result, [v0, v1]))\n") ==
        Lines{"4.0 [<tf.Tensor: shape=(), dtype=float32, numpy=2.0>, <tf.Tensor: shape=(), dtype=float32, numpy=0.0>, None]",
              "-6.0 [0.0, -2.0, 3.0]", "tf.Tensor(0.0, shape=(), dtype=float32)",
              "[None, <tf.Tensor: shape=(), dtype=float32, numpy=6.0>]"});
  // A vector variable gets zeros of its shape; a variable the other branch only cast to
  // an integer has no gradient there either, so it stays None.
  CHECK(out("w = tf.Variable([1.0, 2.0])\n"
            "u = tf.Variable(3.0)\n"
            "@tf.function\n"
            "def g(x):\n"
            "  if x > 0:\n"
            "    r = x * 2.0\n"
            "  else:\n"
            "    r = tf.reduce_sum(w) + tf.cast(tf.cast(u, tf.int32), tf.float32)\n"
            "  return r\n"
            "x = tf.constant(1.0)\n"
            "with tf.GradientTape() as tape:\n"
            "  tape.watch(x)\n"
            "  y = g(x)\n"
            "dw, du, dx = tape.gradient(y, [w, u, x])\n"
            "print(dw, du, dx.numpy())\n") ==
        Lines{"tf.Tensor([0. 0.], shape=(2,), dtype=float32) None 2.0"});
}

TEST_CASE("backprop: the outputs of a traced tensor `if` are cond_v2's Identity tensors", "[backprop]") {
  CHECK(out("@tf.function\n"
            "def f(x):\n"
            "  if x > 0:\n"
            "    r = x * 2.0\n"
            "  else:\n"
            "    r = x * 3.0\n"
            "  print(r)\n"
            "  if r > 1.0:\n"
            "    r = r + 1.0\n"
            "  print(r)\n"
            "  return r\n"
            "print(f(tf.constant(1.0)).numpy())\n") ==
        Lines{"Tensor(\"cond/Identity:0\", shape=(), dtype=float32)",
              "Tensor(\"cond_1/Identity:0\", shape=(), dtype=float32)", "3.0"});
}

TEST_CASE("backprop: a Python number as target or source fails as TF 2.17's gradient() does", "[backprop]") {
  // backprop_util.IsTrainable calls dtypes.as_dtype on each target, then each source:
  // _ANY_TO_TF is keyed by DataType numbers too (3 is DT_INT32, 1 is DT_FLOAT), so 3.0
  // is a non-trainable dtype and the vlog call reads `t.dtype`; 2.5 and 0 name no dtype;
  // 1.0 passes and TFE_Py_TapeGradient finds no tensor `_id`.
  const std::string setup =
      "x = tf.constant(2.0)\n"
      "with tf.GradientTape() as t:\n"
      "  t.watch(x)\n"
      "  y = x * x\n";
  CHECK(error_of(setup + "t.gradient(3.0, x)\n") == "AttributeError: 'float' object has no attribute 'dtype'");
  CHECK(error_of(setup + "t.gradient(3, x)\n") == "AttributeError: 'int' object has no attribute 'dtype'");
  CHECK(error_of(setup + "t.gradient(1.0, x)\n") == "AttributeError: 'float' object has no attribute '_id'");
  CHECK(error_of(setup + "t.gradient([y, 1.0], x)\n") == "AttributeError: 'float' object has no attribute '_id'");
  CHECK(error_of(setup + "t.gradient(2.5, x)\n") ==
        "TypeError: Cannot convert the argument `type_value`: 2.5 to a TensorFlow DType.");
  CHECK(error_of(setup + "t.gradient(0, x)\n") ==
        "TypeError: Cannot convert the argument `type_value`: 0 to a TensorFlow DType.");
  CHECK(error_of(setup + "t.gradient(y, [x, 3.0])\n") == "AttributeError: 'float' object has no attribute 'dtype'");
  CHECK(error_of(setup + "t.gradient(y, [x, 1.0])\n") == "AttributeError: 'float' object has no attribute '_id'");
  // Targets are checked before sources; the tape is not used up by the failed call.
  CHECK(out(setup +
            "try:\n"
            "  t.gradient(2.5, 3)\n"
            "except TypeError as e:\n"
            "  print(e)\n"
            "print(t.gradient(y, x).numpy())\n") ==
        Lines{"Cannot convert the argument `type_value`: 2.5 to a TensorFlow DType.", "4.0"});
}

TEST_CASE("backprop: the gradient of a gather is a tf.IndexedSlices", "[backprop]") {
  // GatherV2's / ResourceGather's gradient functions return IndexedSlices(values,
  // indices, dense_shape); tape.gradient hands it back as it is (indexed_slices.py's
  // __str__; no numpy(), no arithmetic; tf.convert_to_tensor makes it dense).
  CHECK(out("v = tf.Variable([[0., 1, 2], [2, 3, 4], [4, 5, 6], [6, 7, 8]])\n"
            "with tf.GradientTape() as tape:\n"
            "  r = tf.gather(v, [1, 3])\n"
            "g = tape.gradient(r, v)\n"
            "print(type(g).__name__, g.shape, g.dtype)\n"
            "print(g)\n"
            "print(g.indices.numpy(), g.dense_shape.numpy())\n"
            "print(tf.convert_to_tensor(g).numpy().tolist())\n"
            "try:\n"
            "  g.numpy()\n"
            "except AttributeError as e:\n"
            "  print(e)\n"
            "try:\n"
            "  g * 2.0\n"
            "except TypeError as e:\n"
            "  print(e)\n") ==
        Lines{"IndexedSlices (4, 3) <dtype: 'float32'>",
              "IndexedSlices(indices=tf.Tensor([1 3], shape=(2,), dtype=int32), values=tf.Tensor(",
              "[[1. 1. 1.]", " [1. 1. 1.]], shape=(2, 3), dtype=float32), dense_shape=tf.Tensor([4 3], shape=(2,), dtype=int32))",
              "[1 3] [4 3]", "[[0.0, 0.0, 0.0], [1.0, 1.0, 1.0], [0.0, 0.0, 0.0], [1.0, 1.0, 1.0]]",
              "'IndexedSlices' object has no attribute 'numpy'",
              "unsupported operand type(s) for *: 'IndexedSlices' and 'float'"});
  // A watched tensor too; repeated indices stay apart; a scalar index gives one slice;
  // a gather along another axis, or another use of the source, gives a dense tensor;
  // an optimizer applies it as the dense gradient.
  CHECK(out("x = tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])\n"
            "with tf.GradientTape(persistent=True) as t:\n"
            "  t.watch(x)\n"
            "  a = tf.gather(x, [0, 0, 2]) * [[1.0, 2.0]]\n"
            "  b = tf.gather(x, 1)\n"
            "  c = tf.gather(x, [1], axis=1)\n"
            "  d = tf.gather(x, [2]) * 3.0 + x[0]\n"
            "ga = t.gradient(a, x)\n"
            "print(ga.indices.numpy(), ga.values.numpy().tolist())\n"
            "gb = t.gradient(b, x)\n"
            "print(gb.indices.numpy(), gb.values.shape)\n"
            "print(type(t.gradient(c, x)).__name__, type(t.gradient(d, x)).__name__)\n"
            "v = tf.Variable([[1.0, 2.0], [3.0, 4.0]])\n"
            "opt = tf.keras.optimizers.SGD(learning_rate=0.1)\n"
            "with tf.GradientTape() as tape:\n"
            "  loss = tf.reduce_sum(tf.gather(v, [1]) ** 2)\n"
            "grads = tape.gradient(loss, [v])\n"
            "opt.apply_gradients(zip(grads, [v]))\n"
            "print(v.numpy().tolist())\n") ==
        Lines{"[0 0 2] [[1.0, 2.0], [1.0, 2.0], [1.0, 2.0]]", "[1] (1, 2)", "EagerTensor EagerTensor",
              "[[1.0, 2.0], [2.4000000953674316, 3.200000047683716]]"});
}

TEST_CASE("backprop: IndexedSlices only for a gather along an axis given as 0, through reads and identities",
          "[backprop]") {
  // _GatherV2Grad tests axis_static == 0 before any normalising: axis=-1 of a vector is
  // dense. ReadVariableOp's and Identity's gradients pass IndexedSlices on unchanged.
  CHECK(out("x = tf.constant([1.0, 2.0, 3.0])\n"
            "v = tf.Variable([1.0, 2.0, 3.0])\n"
            "with tf.GradientTape(persistent=True) as tape:\n"
            "  tape.watch(x)\n"
            "  y = tf.reduce_sum(tf.gather(x, [0, 2], axis=-1))\n"
            "  z = tf.reduce_sum(tf.gather(v.read_value(), [0, 2]))\n"
            "  u = tf.reduce_sum(tf.gather(tf.identity(x), [1]))\n"
            "  w = tf.reduce_sum(tf.gather(x, [1])) + x[0]\n"
            "print(type(tape.gradient(y, x)).__name__, tape.gradient(y, x).numpy())\n"
            "print(type(tape.gradient(z, v)).__name__, tf.convert_to_tensor(tape.gradient(z, v)).numpy())\n"
            "print(type(tape.gradient(u, x)).__name__)\n"
            "print(type(tape.gradient(w, x)).__name__, tape.gradient(w, x).numpy())\n") ==
        Lines{"EagerTensor [1. 0. 1.]", "IndexedSlices [1. 0. 1.]", "IndexedSlices", "EagerTensor [1. 1. 0.]"});
}

TEST_CASE("backprop: a gradient call inside another's backward pass has its own call id", "[backprop]") {
  // A tf.custom_gradient whose gradient function computes a gradient on its own tape.
  const ts::RunResult r = ts::run_script(
      "v = tf.Variable([1.0, 2.0, 3.0])\n"
      "@tf.custom_gradient\n"
      "def sq(x):\n"
      "  def grad(dy):\n"
      "    with tf.GradientTape() as t2:\n"
      "      t2.watch(x)\n"
      "      z = x * x\n"
      "    return dy * t2.gradient(z, x)\n"
      "  return x * x, grad\n"
      "with tf.GradientTape() as tape:\n"
      "  y = tf.reduce_sum(sq(tf.gather(v, [0, 2])))\n"
      "g = tape.gradient(y, v)\n"
      "print(type(g).__name__, tf.convert_to_tensor(g).numpy())\n",
      "n.py");
  REQUIRE_FALSE(r.error);
  CHECK(r.output_lines() == Lines{"IndexedSlices [2. 0. 6.]"});
  REQUIRE(r.log().gradient_calls.size() == 2);
  CHECK(r.log().gradient_calls[0].id != r.log().gradient_calls[1].id);
  int started = 0;
  for (const ts::Event& e : r.log().events)
    if (e.kind == ts::EventKind::GradientCallStarted) ++started;
  CHECK(started == 2);
}

TEST_CASE("backprop: batch_jacobian on a used non-persistent tape raises backprop.py's own message", "[backprop]") {
  // batch_jacobian's string literals join without a space ("used tocompute"), unlike
  // gradient's and jacobian's; TF checks it before looking at the target.
  const std::string script =
      "x = tf.constant([[1.0, 2.0]])\n"
      "with tf.GradientTape() as t:\n"
      "  t.watch(x)\n"
      "  y = x * x\n"
      "g = t.gradient(y, x)\n"
      "for f in [t.batch_jacobian, t.jacobian]:\n"
      "  try:\n"
      "    f(y, x)\n"
      "  except RuntimeError as e:\n"
      "    print(e)\n";
  CHECK(out(script) ==
        Lines{"A non-persistent GradientTape can only be used tocompute one set of gradients (or jacobians)",
              "A non-persistent GradientTape can only be used to compute one set of gradients (or jacobians)"});
}

TEST_CASE("backprop: tf.UnconnectedGradients members print as enum members", "[backprop]") {
  // A plain enum.Enum: str() is 'Class.MEMBER', repr() adds the value.
  CHECK(out("print(tf.UnconnectedGradients.ZERO, repr(tf.UnconnectedGradients.NONE))\n") ==
        Lines{"UnconnectedGradients.ZERO <UnconnectedGradients.NONE: 'none'>"});
}

TEST_CASE("backprop: softmax_cross_entropy_with_logits differentiates as TF's fused op", "[backprop]") {
  // nn_grad's _SoftmaxCrossEntropyWithLogitsGrad scales the kept backprop,
  // softmax(logits) - labels, which is the derivative only when labels sum to 1.
  CHECK(out("labels = tf.constant([[2., 0.]])\n"
            "logits = tf.constant([[0., 0.]])\n"
            "with tf.GradientTape() as t:\n"
            "  t.watch(logits)\n"
            "  loss = tf.nn.softmax_cross_entropy_with_logits(labels=labels, logits=logits)\n"
            "print(loss.numpy(), t.gradient(loss, logits).numpy())\n"
            // labels and logits the same tensor: both gradient terms reach it (rounded at
            // each float32 step of xent_op.h and log_softmax, as NumPy float32 gives them)
            "x = tf.constant([[1., 2.], [3., 4.]])\n"
            "with tf.GradientTape() as t:\n"
            "  t.watch(x)\n"
            "  loss = tf.nn.softmax_cross_entropy_with_logits(labels=x, logits=x)\n"
            "print(t.gradient(loss, x).numpy())\n"
            // rank 1: one row, a scalar loss
            "z = tf.constant([1., 2., 3.])\n"
            "with tf.GradientTape() as t:\n"
            "  t.watch(z)\n"
            "  loss = tf.nn.softmax_cross_entropy_with_logits(labels=[0., 0., 1.], logits=z)\n"
            "print(loss.shape, t.gradient(loss, z).numpy())\n") ==
        Lines{"[1.3862944] [[-1.5  0.5]]", "[[ 0.58220303 -0.9556798 ]", " [-1.417797   -2.9556797 ]]",
              "() [ 0.09003057  0.24472848 -0.33475906]"});
}

TEST_CASE("backprop: ops made ready by one op run in its input order", "[backprop]") {
  // tape.h puts an op that becomes ready at the front of its op stack, so the gathers of
  // x's two uses contribute their slices in program order.
  CHECK(out("x = tf.constant([1.0, 2.0, 3.0])\n"
            "with tf.GradientTape() as t:\n"
            "  t.watch(x)\n"
            "  y = tf.gather(x, [0]) * 2.0 + tf.gather(x, [2]) * 3.0\n"
            "g = t.gradient(y, x)\n"
            "print(g.indices.numpy(), g.values.numpy())\n"
            "with tf.GradientTape() as t:\n"
            "  t.watch(x)\n"
            "  y = tf.reduce_sum(tf.gather(x, [0])) + tf.reduce_sum(tf.gather(x, [1, 1]))\n"
            "print(t.gradient(y, x).indices.numpy())\n") == Lines{"[0 2] [2. 3.]", "[0 1 1]"});
}

TEST_CASE("backprop: a variable target is read inside the tape, so only a watched variable gets 1", "[backprop]") {
  CHECK(out("u = tf.Variable(3.0)\n"
            "with tf.GradientTape(watch_accessed_variables=False) as tape:\n"
            "  y = u * 2.0\n"
            "print(tape.gradient(u, u))\n"
            "k = tf.Variable(3.0, trainable=False)\n"
            "with tf.GradientTape() as tape:\n"
            "  y = k * 2.0\n"
            "print(tape.gradient(k, k))\n"
            // a trainable variable the block never read is watched by the read itself
            "w = tf.Variable(2.0)\n"
            "with tf.GradientTape() as tape:\n"
            "  pass\n"
            "print(tape.gradient(w, w).numpy(), len(tape.watched_variables()))\n") ==
        Lines{"None", "None", "1.0 1"});
  CHECK(error_of("w = tf.Variable(2.0)\n"
                 "with tf.GradientTape(persistent=True) as tape:\n"
                 "  y = w * w\n"
                 "  g = tape.gradient(w, w)\n") ==
        "ValueError: Tape is still recording, This can happen if you try to re-enter an already-active tape.");
}

TEST_CASE("backprop: watching an integer variable warns as for a tensor", "[backprop]") {
  ts::RunResult r = ts::run_script("v = tf.Variable(3)\n"
                                   "with tf.GradientTape() as tape:\n"
                                   "  tape.watch(v)\n"
                                   "  y = v * 2\n"
                                   "print(tape.gradient(y, v))\n",
                                   "test.py");
  REQUIRE_FALSE(r.error);
  CHECK(r.output_lines() == Lines{"None"});
  REQUIRE(r.warnings().size() == 1);
  CHECK(r.warnings()[0].first == 3);
  CHECK(r.warnings()[0].second ==
        "WARNING:tensorflow:The dtype of the watched tensor must be floating (e.g. tf.float32), got tf.int32");
}

TEST_CASE("backprop: tensors compare element-wise in `in` and cannot be dict keys", "[backprop]") {
  CHECK(out("x = tf.constant(1.)\n"
            "y = tf.constant(1.)\n"
            "print(x in [y], x in (2., 1.), 1.0 in [x], x not in [y], x in [x])\n"
            "print([x, y].index(y), [tf.constant(2.), x].count(1.0))\n") ==
        Lines{"True True True False True", "0 1"});
  CHECK(error_of("x = tf.constant([1., 2.])\nprint(x in [tf.constant([1., 3.])])\n") ==
        "ValueError: The truth value of an array with more than one element is ambiguous. Use a.any() or a.all()");
  CHECK(error_of("d = {tf.constant(1.): 1}\n") == "TypeError: Tensor is unhashable. Instead, use tensor.ref() as the key.");
  CHECK(error_of("d = {}\nd[tf.Variable(1.)] = 2\n") ==
        "TypeError: Variable is unhashable. Instead, use variable.ref() as the key. (Variable: <tf.Variable "
        "'Variable:0' shape=() dtype=float32, numpy=1.0>)");
}

TEST_CASE("backprop: embedding_lookup's gradient is IndexedSlices; tf.gradients refuses eager mode", "[backprop]") {
  // backprop_test's testAggregateGradients family looks embeddings up this way.
  CHECK(out("emb = tf.Variable([[1., 2.], [3., 4.], [5., 6.]])\n"
            "with tf.GradientTape() as t:\n"
            "  y = tf.reduce_sum(tf.nn.embedding_lookup(emb, [0, 2, 0]))\n"
            "g = t.gradient(y, emb)\n"
            "print(type(g).__name__, tf.convert_to_tensor(g).numpy().tolist())\n") ==
        Lines{"IndexedSlices [[2.0, 2.0], [0.0, 0.0], [1.0, 1.0]]"});
  CHECK(error_of("x = tf.constant(1.)\ntf.gradients(x * x, x)\n") ==
        "RuntimeError: tf.gradients is not supported when eager execution is enabled. Use tf.GradientTape instead.");
}

TEST_CASE("backprop: a zero upstream passes no NaN through Sqrt, Rsqrt and Reciprocal (the tf.where trap)", "[backprop]") {
  // cwise_ops_gradients.h: scalar_sqrt/rsqrt/inverse_gradient_op return 0 when dy is 0,
  // even where y is inf (x = 0) or NaN (x < 0). Pow and RealDiv have no such guard.
  CHECK(out("x = tf.constant([0.0, 1.0, -1.0])\n"
            "with tf.GradientTape(persistent=True) as t:\n"
            "  t.watch(x)\n"
            "  a = tf.where(x > 0, tf.sqrt(x), tf.zeros_like(x))\n"
            "  b = tf.where(x > 0, tf.math.rsqrt(x), tf.zeros_like(x))\n"
            "  c = tf.where(x > 0, tf.math.reciprocal(x), tf.zeros_like(x))\n"
            "  d = tf.where(x > 0, x ** 0.5, tf.zeros_like(x))\n"
            "  e = tf.sqrt(x)\n"
            "for y in (a, b, c, d):\n"
            "  print(t.gradient(y, x).numpy())\n"
            "print(t.gradient(e, x, output_gradients=tf.constant([1.0, 1.0, 0.0])).numpy())\n") ==
        Lines{"[0.  0.5 0. ]", "[ 0.  -0.5  0. ]", "[ 0. -1.  0.]", "[nan 0.5 nan]", "[inf 0.5 0. ]"});
  CHECK(out("x = tf.constant(4.0)\n"
            "with tf.GradientTape() as t:\n  t.watch(x)\n  y = tf.math.rsqrt(x)\n"
            "print(y.numpy(), t.gradient(y, x).numpy())\n") == Lines{"0.5 -0.0625"});
}

TEST_CASE("backprop: softplus's gradient is TF's SoftplusGrad, exactly 0 far below zero in float32", "[backprop]") {
  // softplus_op.h: dy / (exp(-x) + 1); exp(100) overflows float32, so the result is 0,
  // where sigmoid(-100) would be a denormal.
  CHECK(out("x = tf.constant([0.0, 100.0, -100.0])\n"
            "with tf.GradientTape() as t:\n  t.watch(x)\n  y = tf.nn.softplus(x)\n"
            "print(t.gradient(y, x).numpy())\n"
            "x64 = tf.constant([-100.0], dtype=tf.float64)\n"
            "with tf.GradientTape() as t:\n  t.watch(x64)\n  y = tf.nn.softplus(x64)\n"
            "print(t.gradient(y, x64).numpy() > 0)\n") ==
        Lines{"[0.5 1.  0. ]", "[ True]"});
}

TEST_CASE("backprop: tf.gather with no index still connects params (IndexedSlices with no rows)", "[backprop]") {
  CHECK(out("p = tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])\n"
            "with tf.GradientTape() as t:\n"
            "  t.watch(p)\n"
            "  a = tf.gather(p, tf.constant([], dtype=tf.int32))\n"
            "g = t.gradient(a, p)\n"
            "print(a.shape, type(g).__name__, g.values.shape, g.indices.numpy(), g.dense_shape.numpy())\n") ==
        Lines{"(0, 2) IndexedSlices (0, 2) [] [3 2]"});
}

// From a probe of TF's control-flow tests (cond_v2_test.testSecondDerivative,
// while_v2's captures, _CaseGrad) and of backprop_test's API cases.
TEST_CASE("backprop: a second derivative through a traced cond gives zeros where the other branch is not linear",
          "[backprop]") {
  const std::string nested =
      "def second(f, v):\n"
      "  x = tf.constant(v)\n"
      "  with tf.GradientTape() as t2:\n"
      "    t2.watch(x)\n"
      "    with tf.GradientTape() as t1:\n"
      "      t1.watch(x)\n"
      "      y = f(x)\n"
      "    g = t1.gradient(y, x)\n"
      "  return g, t2.gradient(g, x)\n";
  CHECK(out(nested +
            "@tf.function\n"
            "def cube_or_id(a):\n"
            "  if a > 0:\n"
            "    return a * a * a\n"
            "  return a\n"
            "@tf.function\n"
            "def both_linear(a):\n"
            "  if a > 0:\n"
            "    return 3.0 * a\n"
            "  return 2.0 * a\n"
            "print(*second(cube_or_id, 3.0))\n"
            "print(*second(cube_or_id, -3.0))\n"
            "print(*second(both_linear, 2.0))\n") ==
        Lines{"tf.Tensor(27.0, shape=(), dtype=float32) tf.Tensor(18.0, shape=(), dtype=float32)",
              "tf.Tensor(1.0, shape=(), dtype=float32) tf.Tensor(0.0, shape=(), dtype=float32)",
              "tf.Tensor(3.0, shape=(), dtype=float32) None"});
  // Only the branch that did not run reads the variable: its zeros come out of the
  // gradient's If (which takes x when that branch's gradient reads it), so the second
  // derivative reaches x and is zeros; a linear use leaves the gradient no x to take.
  CHECK(out("x = tf.Variable(2.0)\n"
            "@tf.function\n"
            "def f(p, cube):\n"
            "  if p > 0:\n"
            "    return tf.constant(1.0)\n"
            "  elif cube:\n"
            "    return x * x * x\n"
            "  return 5.0 * x\n"
            "for cube in (True, False):\n"
            "  with tf.GradientTape() as t2:\n"
            "    with tf.GradientTape() as t1:\n"
            "      y = f(tf.constant(1), cube)\n"
            "    g = t1.gradient(y, x)\n"
            "  print(g, t2.gradient(g, x))\n") ==
        Lines{"tf.Tensor(0.0, shape=(), dtype=float32) tf.Tensor(0.0, shape=(), dtype=float32)",
              "tf.Tensor(0.0, shape=(), dtype=float32) None"});
}

TEST_CASE("backprop: a traced while_loop's captures and a traced switch_case's other branches get zeros",
          "[backprop]") {
  CHECK(out("v = tf.Variable(2.0)\n"
            "@tf.function\n"
            "def f(x, z):\n"
            "  def c(i, a):\n"
            "    return i < 0\n"
            "  def b(i, a):\n"
            "    return i + 1, a * v + tf.stop_gradient(z)\n"
            "  return tf.while_loop(c, b, (0, x))[1]\n"
            "x = tf.constant(1.0)\n"
            "z = tf.constant(3.0)\n"
            "with tf.GradientTape() as t:\n"
            "  t.watch(z)\n"
            "  y = f(x, z)\n"
            "print([g.numpy() for g in t.gradient(y, [v, z])])\n"
            "@tf.function\n"
            "def s(i, a, b):\n"
            "  def f0():\n"
            "    return a * a\n"
            "  def f1():\n"
            "    return b * 3.0\n"
            "  return tf.switch_case(i, [f0, f1])\n"
            "a = tf.constant(2.0)\n"
            "b = tf.constant(5.0)\n"
            "with tf.GradientTape() as t:\n"
            "  t.watch([a, b])\n"
            "  y = s(tf.constant(0), a, b)\n"
            "print(t.gradient(y, [a, b]))\n") ==
        Lines{"[0.0, 0.0]",
              "[<tf.Tensor: shape=(), dtype=float32, numpy=4.0>, <tf.Tensor: shape=(), dtype=float32, numpy=0.0>]"});
}

TEST_CASE("backprop: custom_gradient in a tf.function hands its variables sorted by name", "[backprop]") {
  CHECK(out("bb = tf.Variable(1.0, name='bb')\n"
            "aa = tf.Variable(1.0, name='aa')\n"
            "@tf.custom_gradient\n"
            "def f(x):\n"
            "  def grad(dy, variables):\n"
            "    print([v.name for v in variables])\n"
            "    return dy, [dy * 10., dy * 20.]\n"
            "  return x * bb * aa, grad\n"
            "@tf.function\n"
            "def g(x):\n"
            "  return f(x)\n"
            "x = tf.constant(1.0)\n"
            "with tf.GradientTape() as t:\n"
            "  t.watch(x)\n"
            "  y = g(x)\n"
            "print([d.numpy() for d in t.gradient(y, [bb, aa])])\n") ==
        Lines{"['aa:0', 'bb:0']", "[20.0, 10.0]"});
}

TEST_CASE("backprop: a Python 2 and 2.0 are one tf.function trace (Literal compares by ==)", "[backprop]") {
  CHECK(out("@tf.function\n"
            "def f(x):\n"
            "  print('Tracing with', x)\n"
            "  return x\n"
            "f(2)\n"
            "f(2.0)\n"
            "f(True)\n"
            "f(1)\n"
            "print(f.experimental_get_tracing_count())\n") == Lines{"Tracing with 2", "Tracing with True", "2"});
  // The reused trace runs with the values it was made with: f(1.0) gives f(1)'s int32 result.
  CHECK(out("@tf.function\n"
            "def f(x):\n"
            "  return tf.constant(x) * 2\n"
            "print(f(1))\n"
            "print(f(1.0))\n") ==
        Lines{"tf.Tensor(2, shape=(), dtype=int32)", "tf.Tensor(2, shape=(), dtype=int32)"});
}

TEST_CASE("backprop: inside a trace tensors are SymbolicTensors; a first call that made variables leaves two traces",
          "[backprop]") {
  CHECK(out("@tf.function\n"
            "def f(x):\n"
            "  print(type(x).__name__)\n"
            "  return x\n"
            "f(tf.constant(1.0))\n"
            "print(type(tf.constant(1.0)).__name__)\n") == Lines{"SymbolicTensor", "EagerTensor"});
  // polymorphic_function keeps the variable-creating trace and the one without creation.
  CHECK(out("class M(tf.Module):\n"
            "  def __init__(self):\n"
            "    self.v = None\n"
            "  @tf.function\n"
            "  def __call__(self, x):\n"
            "    if self.v is None:\n"
            "      self.v = tf.Variable(2.0)\n"
            "    return self.v * x\n"
            "m = M()\n"
            "print(m(tf.constant(3.0)).numpy(), m(tf.constant(4.0)).numpy())\n"
            "print(m.__call__.experimental_get_tracing_count())\n") == Lines{"6.0 8.0", "2"});
  CHECK(out("v = []\n"
            "@tf.function\n"
            "def f(x):\n"
            "  if not v:\n"
            "    v.append(tf.Variable(1.0))\n"
            "  return v[0] * x\n"
            "f(tf.constant(1.0))\n"
            "print(f.experimental_get_tracing_count())\n") == Lines{"2"});
}

TEST_CASE("backprop: output_gradients are converted one by one without the target's dtype", "[backprop]") {
  CHECK(out("x = tf.constant([1.0, 2.0])\n"
            "with tf.GradientTape() as g:\n"
            "  g.watch(x)\n"
            "  y = x * x\n"
            "print(g.gradient(y, x, output_gradients=[3.0, 4.0]))\n") ==
        Lines{"tf.Tensor([ 6. 12.], shape=(2,), dtype=float32)"});
  CHECK(error_of("x = tf.constant([1.0, 2.0])\n"
                 "with tf.GradientTape() as g:\n"
                 "  g.watch(x)\n"
                 "  y = x * x\n"
                 "g.gradient(y, x, output_gradients=np.array([3., 4.]))\n")
            .find("cannot compute Mul as input #1(zero-based) was expected to be a double tensor but is a float tensor") !=
        std::string::npos);
  CHECK(error_of("x = tf.constant(1.0)\n"
                 "with tf.GradientTape() as g:\n"
                 "  g.watch(x)\n"
                 "  y = x * x\n"
                 "g.gradient(y, x, unconnected_gradients=None)\n") ==
        "ValueError: Unknown value for unconnected_gradients: None");
  CHECK(error_of("x = tf.constant(1.0)\n"
                 "with tf.GradientTape() as g:\n"
                 "  g.watch(x)\n"
                 "  y = x * x\n"
                 "g.gradient(y, x)\n"
                 "g.watch(x)\n") == "AttributeError: 'NoneType' object has no attribute '_tape'");
}

TEST_CASE("backprop: jacobian runs in pfor: its ValueErrors and parallel_iterations checks are pfor's", "[backprop]") {
  const std::string tape = "x = tf.constant([1.0, 2.0])\n"
                           "with tf.GradientTape(persistent=True) as g:\n"
                           "  g.watch(x)\n"
                           "  y = x * x\n";
  const std::string wrapped = "ValueError: Encountered an exception while vectorizing the jacobian computation. "
                              "Vectorization can be disabled by setting experimental_use_pfor to False.";
  CHECK(error_of(tape + "g.jacobian(y, x, unconnected_gradients='nonsense')\n") == wrapped);
  CHECK(error_of(tape + "g.jacobian(y, x, parallel_iterations=1)\n") == wrapped);
  CHECK(error_of(tape + "g.jacobian(y, x, parallel_iterations=0, experimental_use_pfor=False)\n") ==
        "TypeError: 'parallel_iterations' must be a positive integer.");
  CHECK(error_of(tape + "g.jacobian(y, x, unconnected_gradients='nonsense', experimental_use_pfor=False)\n") ==
        "ValueError: Unknown value for unconnected_gradients: 'nonsense'");
  CHECK(out(tape + "print(g.jacobian(y, x, parallel_iterations=2).numpy().tolist())\n") ==
        Lines{"[[2.0, 0.0], [0.0, 4.0]]"});
}

TEST_CASE("backprop: the jacobian of a target with no element is an empty tensor when connected", "[backprop]") {
  CHECK(out("x = tf.zeros([1, 0])\n"
            "with tf.GradientTape(persistent=True) as g:\n"
            "  g.watch(x)\n"
            "  y = x ** 2\n"
            "  z = tf.zeros([1, 0])\n"
            "print(g.jacobian(y, x).shape, g.jacobian(z, x), g.batch_jacobian(y, x).shape)\n") ==
        Lines{"(1, 0, 1, 0) None (1, 0, 0)"});
}

// array_grad._ConcatGradHelper, _CastGrad and IndexedSlices.__neg__ keep a gather's
// IndexedSlices gradient sparse.
TEST_CASE("backprop: IndexedSlices pass through concat (rows or columns), cast and negation", "[backprop]") {
  CHECK(out("a = tf.constant([[1., 2.], [3., 4.]])\n"
            "b = tf.constant([[5., 6.]])\n"
            "with tf.GradientTape(persistent=True) as t:\n"
            "  t.watch([a, b])\n"
            "  y = tf.gather(tf.concat([a, b], 0), [0, 2, 2])\n"
            "  w = tf.gather(tf.concat([a, a], 1), [1])\n"
            "  k = tf.gather(tf.cast(a, tf.float64), [1])\n"
            "  n = tf.gather(-a, [1])\n"
            "ga, gb = t.gradient(y, [a, b])\n"
            "print(ga.indices.numpy(), gb.indices.numpy(), gb.dense_shape.numpy())\n"
            "gw = t.gradient(w, a)\n"
            "print(gw.indices.numpy(), gw.values.shape)\n"
            "gk = t.gradient(k, a)\n"
            "print(type(gk).__name__, gk.values.dtype)\n"
            "print(t.gradient(n, a).values.numpy(), tf.convert_to_tensor(t.gradient(n, a)).numpy().tolist())\n") ==
        Lines{"[0] [0 0] [1 2]", "[1 1] (2, 2)", "IndexedSlices <dtype: 'float32'>", "[[-1. -1.]] [[0.0, 0.0], [-1.0, -1.0]]"});
}

// custom_gradient.py's _eager_mode_decorator: only positional arguments are the op's
// inputs, only trainable variables are watched, and a tape without an argument or
// variable on it skips record_operation and differentiates through the identity.
TEST_CASE("backprop: custom_gradient inputs are the positional arguments and trainable variables", "[backprop]") {
  const std::string f =
      "x = tf.constant(2.0)\n"
      "@tf.custom_gradient\n"
      "def f(x, scale=1.0):\n"
      "  def grad(dy):\n"
      "    return dy * 100.0\n"
      "  return x * scale, grad\n";
  CHECK(out(f + "with tf.GradientTape() as t:\n  t.watch(x)\n  y = f(x, scale=3.0)\nprint(t.gradient(y, x))\n") ==
        Lines{"tf.Tensor(100.0, shape=(), dtype=float32)"});
  // No positional input: nothing to record the op from; the ordinary gradient of x*scale.
  CHECK(out(f + "with tf.GradientTape() as t:\n  t.watch(x)\n  y = f(x=x, scale=3.0)\nprint(t.gradient(y, x))\n") ==
        Lines{"tf.Tensor(3.0, shape=(), dtype=float32)"});
  CHECK(out("w = tf.Variable(5.0, trainable=False)\n"
            "@tf.custom_gradient\n"
            "def g(x):\n"
            "  def grad(dy):\n"
            "    return dy * 7.0\n"
            "  return x * w, grad\n"
            "x = tf.constant(1.0)\n"
            "with tf.GradientTape() as t:\n  t.watch(x)\n  y = g(x)\nprint(t.gradient(y, x))\n") ==
        Lines{"tf.Tensor(7.0, shape=(), dtype=float32)"});
}

TEST_CASE("backprop: a tape with only custom_gradient's result on it goes through the identity", "[backprop]") {
  const std::string h =
      "x = tf.constant(3.0)\n"
      "c = tf.constant(1.0)\n"
      "@tf.custom_gradient\n"
      "def h(a):\n"
      "  def grad(dy):\n"
      "    return dy * 100.0\n"
      "  return a * x * x, grad\n";
  CHECK(out(h + "with tf.GradientTape() as t:\n  t.watch(x)\n  y = h(c)\nprint(t.gradient(y, x))\n") ==
        Lines{"tf.Tensor(6.0, shape=(), dtype=float32)"});
  // Two tapes at once: the one watching the argument records the op, the other does not.
  CHECK(out(h + "with tf.GradientTape() as t1:\n  with tf.GradientTape() as t2:\n    t1.watch(c)\n    t2.watch(x)\n"
                "    y = h(c)\nprint(t1.gradient(y, c).numpy(), t2.gradient(y, x).numpy())\n") ==
        Lines{"100.0 6.0"});
}

TEST_CASE("backprop: a variables grad_fn's result is unpacked as Python unpacks it", "[backprop]") {
  const std::string u =
      "u = tf.Variable(2.0)\n"
      "x = tf.constant(1.0)\n"
      "@tf.custom_gradient\n"
      "def h(x):\n"
      "  def grad(dy, variables=None):\n"
      "    return RESULT\n"
      "  return x * u, grad\n"
      "with tf.GradientTape() as t:\n  t.watch(x)\n  y = h(x)\n"
      "g = t.gradient(y, [x, u])\n";
  auto with = [&](const std::string& r) {
    std::string s = u;
    s.replace(s.find("RESULT"), 6, r);
    return s;
  };
  CHECK(error_of(with("dy * 2.0")) == "TypeError: Cannot iterate over a scalar tensor.");
  CHECK(error_of(with("[dy, [dy], dy]")) == "ValueError: too many values to unpack (expected 2)");
  CHECK(out(with("dy * 2.0, [dy * 100.0]") + "print([v.numpy() for v in g])\n") == Lines{"[2.0, 100.0]"});
}

TEST_CASE("backprop: a traced custom_gradient is recorded by every tape that reaches it", "[backprop]") {
  // _graph_mode_decorator's IdentityN carries the override: no identity path to the results.
  CHECK(out("c = tf.constant(3.0)\n"
            "@tf.custom_gradient\n"
            "def f(x):\n"
            "  def grad(dy):\n"
            "    return dy * 100.0\n"
            "  return x * c, grad\n"
            "@tf.function\n"
            "def g():\n"
            "  return f(1.0)\n"
            "with tf.GradientTape() as t:\n"
            "  t.watch(c)\n"
            "  y = g()\n"
            "print(t.gradient(y, c))\n") == Lines{"None"});
}

TEST_CASE("backprop: a tape's gradient for a tensor it never had is dropped, whatever other tapes watched",
          "[backprop]") {
  // tape.h ComputeGradient: once a tensor's consumers have run, a tensor missing from this
  // tape's tensor_tape_ loses its gradient ("has no associated op. Deleting gradient").
  CHECK(out("x = tf.constant(3.)\n"
            "y = tf.constant(2.)\n"
            "with tf.GradientTape() as outer:\n"
            "  outer.watch(x)\n"
            "  with tf.GradientTape() as inner:\n"
            "    inner.watch(y)\n"
            "    z = x * y\n"
            "  print(inner.gradient(z, [x, y]))\n"
            "print(outer.gradient(z, x))\n") ==
        Lines{"[None, <tf.Tensor: shape=(), dtype=float32, numpy=3.0>]", "tf.Tensor(2.0, shape=(), dtype=float32)"});
  // An earlier tape, still alive, that watched x changes nothing for a later one.
  CHECK(out("x = tf.constant(3.)\n"
            "y = tf.constant(5.)\n"
            "with tf.GradientTape(persistent=True) as t1:\n"
            "  t1.watch(x)\n"
            "with tf.GradientTape() as t2:\n"
            "  t2.watch(y)\n"
            "  r = x * y\n"
            "print(t2.gradient(r, [x, y]))\n") == Lines{"[None, <tf.Tensor: shape=(), dtype=float32, numpy=3.0>]"});
  // A target that is also a source and feeds a recorded op: its seed is dropped with it.
  CHECK(out("x = tf.constant(3.)\n"
            "y = tf.constant(5.)\n"
            "with tf.GradientTape() as t:\n"
            "  t.watch(y)\n"
            "  r = x * y\n"
            "print(t.gradient([r, x], [x, y]))\n") == Lines{"[None, <tf.Tensor: shape=(), dtype=float32, numpy=3.0>]"});
  // Unconsumed target = source stays ones (InitialGradients' sources_that_are_targets).
  CHECK(out("x = tf.constant(3.)\n"
            "with tf.GradientTape() as t:\n"
            "  pass\n"
            "print(t.gradient(x, x))\n") == Lines{"tf.Tensor(1.0, shape=(), dtype=float32)"});
}

TEST_CASE("backprop: tf.stop_gradient runs with every tape paused", "[backprop]") {
  // array_ops.stop_gradient wraps its op in record.stop_recording()
  // (backprop_test.py test_stop_gradient_hides_downstream_ops).
  CHECK(out("@tf.custom_gradient\n"
            "def boom(x):\n"
            "  def grad(_):\n"
            "    raise AssertionError('Unexpectedly ran the backward function')\n"
            "  return x, grad\n"
            "@tf.function\n"
            "def f(x):\n"
            "  return boom(x)\n"
            "x = tf.constant(1.0)\n"
            "with tf.GradientTape() as tape:\n"
            "  tape.watch(x)\n"
            "  y = f(tf.stop_gradient(x))\n"
            "print(tape.gradient(y, x))\n") == Lines{"None"});
  // An op with no gradient after it is never reached, so no LookupError.
  CHECK(out("x = tf.constant([[[1.0, 2.0], [3.0, 4.0]]])\n"
            "with tf.GradientTape() as tape:\n"
            "  tape.watch(x)\n"
            "  y = tf.image.adjust_contrast(tf.stop_gradient(x), 2.0)\n"
            "print(tape.gradient(y, x))\n") == Lines{"None"});
  // A variable read for it is watched by no tape; a later read is.
  CHECK(out("v = tf.Variable(1.0)\n"
            "with tf.GradientTape() as t:\n"
            "  y = tf.stop_gradient(v) * 2.0\n"
            "print(t.watched_variables(), t.gradient(y, v))\n"
            "with tf.GradientTape() as t:\n"
            "  y = tf.stop_gradient(v) * v\n"
            "print(len(t.watched_variables()), t.gradient(y, v))\n") ==
        Lines{"() None", "1 tf.Tensor(1.0, shape=(), dtype=float32)"});
}

TEST_CASE("backprop: batch_jacobian with parallel_iterations needs a persistent tape when pfor tiles", "[backprop]") {
  // pfor runs loop_fn twice when 2 <= parallel_iterations <= rows; backprop.py's loop_fn
  // refuses the second run on a non-persistent tape (testBatchJacobianParallelIterations).
  const std::string s = "with tf.GradientTape(persistent=P) as t:\n"
                        "  x = tf.constant([[3.0]])\n"
                        "  t.watch(x)\n"
                        "  z = tf.tile(x * x, [1, 16])\n"
                        "print(t.batch_jacobian(z, x, parallel_iterations=N).shape)\n";
  auto with = [&](const std::string& p, const std::string& n) {
    std::string r = s;
    r.replace(r.find('P'), 1, p);
    r.replace(r.find('N'), 1, n);
    return r;
  };
  const std::string err =
      "RuntimeError: GradientTape must be created with persistent=True to compute the batch_jacobian with "
      "parallel_iterations.";
  CHECK(error_of(with("False", "8")) == err);
  CHECK(error_of(with("False", "16")) == err);
  CHECK(out(with("False", "17")) == Lines{"(1, 16, 1)"});  // more than the rows: one run
  CHECK(out(with("True", "8")) == Lines{"(1, 16, 1)"});
}

TEST_CASE("backprop: a traced custom_gradient refuses keyword arguments", "[backprop]") {
  CHECK(out("@tf.custom_gradient\n"
            "def f(x, y=None):\n"
            "  def g(dy):\n"
            "    return dy * 10.\n"
            "  return x * y, g\n"
            "@tf.function\n"
            "def call(x, y):\n"
            "  return f(x, y=y)\n"
            "try:\n"
            "  call(tf.constant(3.), tf.constant(5.))\n"
            "except ValueError as e:\n"
            "  print(str(e).splitlines()[-1].strip())\n") ==
        Lines{"ValueError: The custom_gradient decorator currently supports keywords arguments only when eager "
              "execution is enabled."});
}

TEST_CASE("backprop: creation functions given tensors compute with ops a tape records", "[backprop]") {
  // linspace_nd, random_normal (rnd * stddev + mean) and random_uniform
  // (rnd * (maxval - minval) + minval) are built from differentiable ops; Range is
  // registered not differentiable.
  CHECK(out("a = tf.constant(0.0)\nb = tf.constant(1.0)\n"
            "with tf.GradientTape(persistent=True) as tape:\n"
            "  tape.watch([a, b])\n"
            "  l = tf.linspace(a, b, 5)\n"
            "  ls = tf.reduce_sum(l)\n"
            "  n = tf.reduce_sum(tf.random.normal([4], mean=a, stddev=b, seed=1))\n"
            "  u = tf.reduce_sum(tf.random.uniform([4], minval=a, maxval=b, seed=1))\n"
            "  r = tf.reduce_sum(tf.range(a, b * 3.0))\n"
            "print(l.numpy(), [g.numpy() for g in tape.gradient(ls, [a, b])])\n"
            "print(tape.gradient(n, a).numpy())\n"
            "gu = tape.gradient(u, [a, b])\n"
            "print(round(float(gu[0] + gu[1]), 5))\n"
            "print(tape.gradient(r, a), tf.range(a, b * 3.0).numpy())\n") ==
        Lines{"[0.   0.25 0.5  0.75 1.  ] [2.5, 2.5]", "4.0", "4.0", "None [0. 1. 2.]"});
  const ts::RunResult r = ts::run_script("a = tf.constant(1.0)\n"
                                 "with tf.GradientTape() as tape:\n"
                                 "  tape.watch(a)\n"
                                 "  r = tf.reduce_sum(tf.range(a, 4.0))\n"
                                 "print(tape.gradient(r, a))\n",
                                 "t.py");
  REQUIRE(r.log().gradient_calls.size() == 1);
  REQUIRE(r.log().gradient_calls[0].results[0].diagnosis);
  CHECK(ts::cause_code(r.log().gradient_calls[0].results[0].diagnosis->code) == std::string("NON_DIFFERENTIABLE_OP"));
}

TEST_CASE("backprop: creation functions given tensors keep TF's dtypes and conversion errors", "[backprop]") {
  // random_normal broadcasts a tensor mean (the reparameterisation trick); math_ops.range
  // takes the widest argument dtype; conversions to the op's dtype are ValueErrors.
  CHECK(out("m = tf.constant([0., 10.])\n"
            "print(tf.random.normal([2], mean=m, stddev=0.0).numpy())\n"
            "print(tf.range(tf.constant(3, tf.int64)).dtype, tf.range(tf.constant(2., tf.float64)).dtype, "
            "tf.range(3).dtype, tf.range(1.0, 3).dtype)\n") ==
        Lines{"[ 0. 10.]", "<dtype: 'int64'> <dtype: 'float64'> <dtype: 'int32'> <dtype: 'float32'>"});
  const std::string conv = "ValueError: Tensor conversion requested dtype float32 for Tensor with dtype float64: "
                           "<tf.Tensor: shape=(), dtype=float64, numpy=1.0>";
  CHECK(error_of("tf.random.normal([2], mean=tf.constant(1., tf.float64))\n") == conv);
  CHECK(error_of("tf.linspace(tf.constant(0.), tf.constant(1., tf.float64), 3)\n") == conv);
}

TEST_CASE("backprop: batch_jacobian sums each batch row's element over the batch, as its loop_fn does", "[backprop]") {
  // backprop.py gathers column i of the [batch, -1] target and differentiates it whole:
  // rows that depend on other batch entries get those contributions too.
  CHECK(out("x = tf.constant([[1.], [2.]])\n"
            "with tf.GradientTape(persistent=True) as g:\n"
            "  g.watch(x)\n"
            "  y = x * tf.reduce_sum(x)\n"
            "  r = tf.concat([x[1:], x[:1]], axis=0)\n"
            "  s = x * x\n"
            "print(g.batch_jacobian(y, x).numpy().tolist(), g.batch_jacobian(r, x).numpy().tolist())\n"
            "print(g.batch_jacobian(s, x, experimental_use_pfor=False).numpy().tolist())\n") ==
        Lines{"[[[6.0]], [[6.0]]] [[[1.0]], [[1.0]]]", "[[[2.0]], [[4.0]]]"});
  CHECK(error_of("x = tf.constant([[1., 2.]])\n"
                 "with tf.GradientTape(persistent=True) as g:\n"
                 "  g.watch(x)\n"
                 "  y = x * x\n"
                 "g.batch_jacobian(y, [x])\n") == "AttributeError: 'list' object has no attribute 'shape'");
}

TEST_CASE("backprop: jacobian of a source with respect to itself goes through the tape", "[backprop]") {
  // backprop.py reshapes the target with the tape recording: unwatched, nothing records it.
  CHECK(out("x = tf.constant([1., 2.])\n"
            "v = tf.Variable([1., 2.])\n"
            "with tf.GradientTape(persistent=True, watch_accessed_variables=False) as g:\n"
            "  y = x * 2.\n"
            "print(g.jacobian(x, x), g.jacobian(v, v))\n"
            "with tf.GradientTape(persistent=True) as g:\n"
            "  g.watch(x)\n"
            "print(g.jacobian(x, x).numpy().tolist())\n") ==
        Lines{"None None", "[[1.0, 0.0], [0.0, 1.0]]"});
}

TEST_CASE("backprop: experimental_use_pfor=False on a non-persistent tape is allowed while tracing", "[backprop]") {
  // backprop.py refuses it only when context.executing_eagerly(): in a tf.function the
  // while_loop body is traced once.
  CHECK(out("@tf.function\n"
            "def f(x):\n"
            "  with tf.GradientTape() as g:\n"
            "    g.watch(x)\n"
            "    z = x * x\n"
            "  return g.jacobian(z, x, experimental_use_pfor=False)\n"
            "print(f(tf.constant([1., 2.])).numpy().tolist())\n") == Lines{"[[2.0, 0.0], [0.0, 4.0]]"});
  CHECK(error_of("x = tf.constant([1., 2.])\n"
                 "with tf.GradientTape() as g:\n"
                 "  g.watch(x)\n"
                 "  z = x * x\n"
                 "g.jacobian(z, x, experimental_use_pfor=False)\n")
            .rfind("RuntimeError: GradientTape must be created with persistent=True", 0) == 0);
}
