// Tape scripts against real TensorFlow 2.17 / Keras 3.7 / NumPy 1.26 behaviour: what
// Python's protocols do with natives (str/repr/==/bool), printing of TF values,
// formatting, and gradients in variants of the autodiff guide and backprop_test.py.
#include <catch2/catch.hpp>

#include "engine/run.h"
#include "script_test_util.h"

TEST_CASE("semantics: repr() and str() honour a native's __repr__/__str__", "[semantics]") {
  CHECK(out("x = tf.constant([[1.0, 2.0], [3.0, 4.0]])\n"
            "print(repr(x.shape), str(x.shape), x.shape)\n"
            "print(repr(x.dtype), str(x.dtype), x.dtype)\n"
            "print([x.shape, x.dtype])\n"
            "print(repr(x.numpy().dtype), x.numpy().dtype)\n") ==
        Lines{"TensorShape([2, 2]) (2, 2) (2, 2)", "tf.float32 <dtype: 'float32'> <dtype: 'float32'>",
              "[TensorShape([2, 2]), tf.float32]", "dtype('float32') float32"});
}

TEST_CASE("semantics: == calls a native's __eq__ from either side", "[semantics]") {
  CHECK(out("x = tf.constant([[1.0, 2.0]])\n"
            "print(x.shape == (1, 2), (1, 2) == x.shape, [1, 2] == x.shape, x.shape != (2, 1))\n"
            "print(x.dtype == tf.float32, tf.float32 == x.dtype, x.dtype == 'float32', x.dtype == tf.int32)\n"
            "print(x.shape in [(1, 2)], tf.float32 in [tf.int32, tf.float32])\n") ==
        Lines{"True True True True", "True True True False", "True True"});
}

TEST_CASE("semantics: user classes with __str__, __repr__, __eq__, __len__, __bool__", "[semantics]") {
  CHECK(out("class P:\n"
            "  def __init__(self, v):\n"
            "    self.v = v\n"
            "  def __str__(self):\n"
            "    return 'P(' + str(self.v) + ')'\n"
            "  def __repr__(self):\n"
            "    return 'P<' + repr(self.v) + '>'\n"
            "  def __eq__(self, o):\n"
            "    return isinstance(o, P) and self.v == o.v\n"
            "class Q:\n"
            "  def __bool__(self):\n"
            "    return False\n"
            "  def __len__(self):\n"
            "    return 5\n"
            "class R:\n"
            "  def __len__(self):\n"
            "    return 0\n"
            "class S:\n"
            "  def __repr__(self):\n"
            "    return 'S!'\n"
            "p = P('a')\n"
            "print(p, str(p), repr(p), [p], f'{p}', S(), str(S()))\n"
            "print(p == P('a'), p == P('b'), p != P('a'), P('a') in [P('a')])\n"
            "print(bool(Q()), bool(R()), len(Q()), 'yes' if Q() else 'no', not R())\n") ==
        Lines{"P(a) P(a) P<'a'> [P<'a'>] P(a) S! S!", "True False False True", "False False 5 no True"});
}

TEST_CASE("semantics: type names and Python numbers of host values", "[semantics]") {
  CHECK(out("x = tf.constant(2.5)\n"
            "a = x.numpy()\n"
            "print(type(a).__name__, type(tf.constant([1.0]).numpy()).__name__, type(np.array(1.0)).__name__)\n"
            "print(float(x), int(x), float(a), int(tf.constant([7])))\n") ==
        Lines{"float32 ndarray ndarray", "2.5 2 2.5 7"});
  ts::RunResult r = ts::run_script("float(tf.constant([1.0, 2.0]))\n", "test.py");
  REQUIRE(r.error);
  CHECK(r.error->type == "TypeError");
  CHECK(r.error->message == "only length-1 arrays can be converted to Python scalars");
}

TEST_CASE("semantics: formatting a tensor formats its NumPy value", "[semantics]") {
  // EagerTensor.__format__ is the NumPy value's (a float32 scalar formats through a Python
  // float: every digit of the float32); a variable has object.__format__.
  CHECK(out("x = tf.constant(3.14159)\n"
            "v = tf.Variable(2.0)\n"
            "print(f'{x}', f'{x:.2f}', '{}'.format(x), '{:.1f}'.format(x), f'{x!s}')\n"
            "print(f'{tf.constant([1.0, 2.0])}', f'{tf.constant(3)}', f'{tf.constant(1.5):>6.2f}|')\n"
            "print(f'{v}')\n"
            "print('%.2f' % x, '%s' % x.numpy(), '%.3f' % x.numpy(), '%d' % tf.constant(4))\n"
            "try:\n"
            "  f'{v:.2f}'\n"
            "except TypeError as e:\n"
            "  print(e)\n"
            "try:\n"
            "  f'{tf.constant([1.0, 2.0]):.2f}'\n"
            "except TypeError as e:\n"
            "  print(e)\n") ==
        Lines{"3.141590118408203 3.14 3.141590118408203 3.1 tf.Tensor(3.14159, shape=(), dtype=float32)",
              "[1. 2.] 3   1.50|",
              "<tf.Variable 'Variable:0' shape=() dtype=float32, numpy=2.0>",
              "3.14 3.14159 3.142 4",
              "unsupported format string passed to ResourceVariable.__format__",
              "unsupported format string passed to numpy.ndarray.__format__"});
}

TEST_CASE("semantics: assign returns an _UnreadVariable", "[semantics]") {
  CHECK(out("v = tf.Variable(1.0)\n"
            "r = v.assign(5.0)\n"
            "print(r)\n"
            "print(v.assign_add(1.0).name, type(v.assign_sub(1.0)).__name__, v.name)\n"
            "print(v.assign([2.0][0]).numpy(), v)\n") ==
        Lines{"<tf.Variable 'UnreadVariable' shape=() dtype=float32, numpy=5.0>", "UnreadVariable _UnreadVariable Variable:0",
              "2.0 <tf.Variable 'Variable:0' shape=() dtype=float32, numpy=2.0>"});
}

TEST_CASE("semantics: Keras 3.7 variables print path, shape, dtype and value", "[semantics]") {
  CHECK(out("layer = tf.keras.layers.Dense(2)\n"
            "layer(tf.constant([[1.0, 2.0, 3.0]]))\n"
            "print(layer.bias)\n"
            "print([layer.bias])\n") ==
        Lines{"<Variable path=dense/bias, shape=(2,), dtype=float32, value=[0. 0.]>",
              "[<Variable path=dense/bias, shape=(2,), dtype=float32, value=[0. 0.]>]"});
}

TEST_CASE("semantics: format(v, '') is str(v) for non-tensors", "[semantics]") {
  CHECK(out("class A:\n"
            "  def __str__(self):\n"
            "    return 'A!'\n"
            "print(f'{True} {None} {A()} {[1, True]} {1.5} {3}', '{} {}'.format(False, A()))\n") ==
        Lines{"True None A! [1, True] 1.5 3 False A!"});
}

TEST_CASE("semantics: batch_jacobian of an unconnected source is zeros; pfor off needs a persistent tape", "[semantics]") {
  CHECK(out("x = tf.constant([[1.0, 2.0], [3.0, 4.0]])\n"
            "y = tf.constant([[1.0], [2.0]])\n"
            "with tf.GradientTape(persistent=True) as t:\n"
            "  t.watch([x, y])\n"
            "  z = y * 2.0\n"
            "bj = t.batch_jacobian(z, x)\n"
            "print(bj.shape, bj.dtype, float(tf.reduce_sum(tf.abs(bj))))\n"
            "print(t.jacobian(z, x))\n") == Lines{"(2, 1, 2) <dtype: 'float32'> 0.0", "None"});
  CHECK(out("x = tf.constant([[1.0, 2.0]])\n"
            "with tf.GradientTape() as t:\n"
            "  t.watch(x)\n"
            "  z = x * 2.0\n"
            "try:\n"
            "  t.jacobian(z, x, experimental_use_pfor=False)\n"
            "except RuntimeError as e:\n"
            "  print(e)\n"
            "print(t.jacobian(z, x).shape)\n") ==
        Lines{"GradientTape must be created with persistent=True to compute the jacobian with eager execution enabled and "
              "with  experimental_use_pfor set to False.",
              "(1, 2, 1, 2)"});
}

TEST_CASE("semantics: a Keras layer with trainable=False lists every weight as non-trainable", "[semantics]") {
  CHECK(out("l = tf.keras.layers.Dense(2)\n"
            "l.build((None, 3))\n"
            "print(len(l.trainable_weights), len(l.non_trainable_weights))\n"
            "l.trainable = False\n"
            "print(len(l.trainable_weights), len(l.non_trainable_weights), len(l.weights))\n"
            "print(l)\n") == Lines{"2 0", "0 2 2", "<Dense name=dense, built=True>"});
}

TEST_CASE("semantics: while tf.function traces, its tensors are symbolic", "[semantics]") {
  // Arguments are placeholders named after the parameters; ops are named as TF's graph
  // names them; eager tensors captured from outside stay eager; variables show no value.
  CHECK(out("v = tf.Variable(1.0)\n"
            "c = tf.constant(5.0)\n"
            "@tf.function\n"
            "def f(x, y):\n"
            "  a = x + y\n"
            "  b = x * y\n"
            "  d = a + b\n"
            "  print('Tracing with', x, y)\n"
            "  print(a, repr(b), d.shape)\n"
            "  print([tf.square(d)], v, c)\n"
            "  try:\n"
            "    a.numpy()\n"
            "  except AttributeError as e:\n"
            "    print(e)\n"
            "  return d * v\n"
            "print(f(tf.constant(1.0), tf.constant(2.0)))\n"
            "print(f(tf.constant(3.0), tf.constant(4.0)))\n") ==
        Lines{"Tracing with Tensor(\"x:0\", shape=(), dtype=float32) Tensor(\"y:0\", shape=(), dtype=float32)",
              "Tensor(\"add:0\", shape=(), dtype=float32) <tf.Tensor 'mul:0' shape=() dtype=float32> ()",
              "[<tf.Tensor 'Square:0' shape=() dtype=float32>] <tf.Variable 'Variable:0' shape=() dtype=float32> "
              "tf.Tensor(5.0, shape=(), dtype=float32)",
              "'SymbolicTensor' object has no attribute 'numpy'",
              "tf.Tensor(5.0, shape=(), dtype=float32)",
              "tf.Tensor(19.0, shape=(), dtype=float32)"});
}

TEST_CASE("semantics: a custom_gradient function must return (result, grad_fn): Python unpacks what it returns",
          "[semantics]") {
  const std::string f = "@tf.custom_gradient\ndef k(x):\n  def grad(dy):\n    return dy * 2\n  return ";
  CHECK(error_of(f + "x * 3\nk(tf.constant(2.))\n") == "TypeError: Cannot iterate over a scalar tensor.");
  CHECK(error_of(f + "x * [1.0, 2.0, 3.0]\nk(tf.constant(2.))\n") == "ValueError: too many values to unpack (expected 2)");
  CHECK(error_of(f + "(x,)\nk(tf.constant(2.))\n") == "ValueError: not enough values to unpack (expected 2, got 1)");
  CHECK(error_of(f + "None\nk(tf.constant(2.))\n") == "TypeError: cannot unpack non-iterable NoneType object");
}

TEST_CASE("semantics: tf.custom_gradient replaces the gradient of a function", "[semantics]") {
  // backprop_test.py's testCustomGradient / testCustomGradientInEagerAndGraph, the
  // guide's log1pexp and a gradient clipped in the backward pass.
  CHECK(out("@tf.custom_gradient\n"
            "def my_mul(x, y):\n"
            "  result = x * y\n"
            "  def grad(dr):\n"
            "    return [dr * y, dr * x]\n"
            "  return result, grad\n"
            "x = tf.Variable(2.0)\n"
            "with tf.GradientTape() as t:\n"
            "  loss = my_mul(2., x.read_value())\n"
            "print(loss.numpy(), t.gradient(loss, x).numpy())\n"
            "@tf.custom_gradient\n"
            "def f(x):\n"
            "  y = x * x\n"
            "  def grad(dy):\n"
            "    return [4 * dy]\n"
            "  return y, grad\n"
            "c = tf.constant(1.0)\n"
            "with tf.GradientTape() as t:\n"
            "  t.watch(c)\n"
            "  g = f(c)\n"
            "print(t.gradient(g, c).numpy())\n"
            "@tf.custom_gradient\n"
            "def log1pexp(x):\n"
            "  e = tf.exp(x)\n"
            "  def grad(upstream):\n"
            "    return upstream * (1 - 1 / (1 + e))\n"
            "  return tf.math.log(1 + e), grad\n"
            "x = tf.constant(100.)\n"
            "with tf.GradientTape() as tape:\n"
            "  tape.watch(x)\n"
            "  y = log1pexp(x)\n"
            "print(tape.gradient(y, x).numpy())\n"
            "@tf.custom_gradient\n"
            "def clip(y):\n"
            "  def backward(dy):\n"
            "    return tf.clip_by_value(dy, -0.5, 0.5)\n"
            "  return y, backward\n"
            "v = tf.Variable(2.0)\n"
            "with tf.GradientTape() as t:\n"
            "  out = clip(v * v)\n"
            "print(t.gradient(out, v).numpy())\n") == Lines{"4.0 2.0", "4.0", "1.0", "2.0"});
  // Variables read inside: grad_fn takes `variables` and returns their gradients too.
  CHECK(out("w = tf.Variable(3.0)\n"
            "@tf.custom_gradient\n"
            "def g(x):\n"
            "  def grad(dy, variables=None):\n"
            "    return dy * 10.0, [dy * 100.0]\n"
            "  return x * w, grad\n"
            "x = tf.constant(1.0)\n"
            "with tf.GradientTape() as t:\n"
            "  t.watch(x)\n"
            "  y = g(x)\n"
            "print([d.numpy() for d in t.gradient(y, [x, w])])\n"
            "@tf.custom_gradient\n"
            "def bad(x):\n"
            "  def grad(dy):\n"
            "    return [dy, dy]\n"
            "  return x * 1.0, grad\n"
            "with tf.GradientTape() as t:\n"
            "  t.watch(x)\n"
            "  y = bad(x)\n"
            "try:\n"
            "  t.gradient(y, x)\n"
            "except ValueError as e:\n"
            "  print(e)\n") ==
        Lines{"[10.0, 100.0]", "custom_gradient function expected to return 1 gradients, but returned 2 instead."});
}

TEST_CASE("semantics: reduce_prod, gather, one_hot, squared_difference and ops TF composes in Python", "[semantics]") {
  CHECK(out("x = tf.Variable([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])\n"
            "with tf.GradientTape(persistent=True) as t:\n"
            "  a = tf.reduce_prod(x, axis=1)\n"
            "  g = tf.gather(x, [0, 0, 1])\n"
            "  s = tf.math.squared_difference(x, 2.0)\n"
            "  l = tf.nn.leaky_relu(x - 3.0)\n"
            "  n = tf.norm(x)\n"
            "print(a.numpy(), g.shape, tf.gather(x, 1).numpy(), tf.gather(x, [2], axis=1).shape)\n"
            "print(t.gradient(a, x).numpy().tolist())\n"
            "print(tf.convert_to_tensor(t.gradient(g, x)).numpy().tolist())\n"
            "print(t.gradient(s, x).numpy().tolist())\n"
            "print(t.gradient(l, x).numpy().tolist())\n"
            "print(round(float(n), 4), tf.nn.l2_loss(x).numpy(), tf.reduce_prod([1, 2, 3, 4]).numpy())\n"
            "print(tf.one_hot([0, 2], 3).numpy().tolist(), ~tf.constant(3))\n"
            "try:\n"
            "  tf.gather(x, [5])\n"
            "except tf.errors.InvalidArgumentError as e:\n"
            "  print(e)\n") ==
        Lines{"[  6. 120.] (3, 3) [4. 5. 6.] (2, 1)",
              "[[6.0, 3.0, 2.0], [30.0, 24.0, 20.0]]",
              "[[2.0, 2.0, 2.0], [1.0, 1.0, 1.0]]",
              "[[-2.0, 0.0, 2.0], [4.0, 6.0, 8.0]]",
              "[[0.20000000298023224, 0.20000000298023224, 0.20000000298023224], [1.0, 1.0, 1.0]]",
              "9.5394 45.5 24",
              "[[1.0, 0.0, 0.0], [0.0, 0.0, 1.0]] tf.Tensor(-4, shape=(), dtype=int32)",
              "{{function_node __wrapped__ResourceGather_device_/job:localhost/replica:0/task:0/device:CPU:0}} "
              "indices[0] = 5 is not in [0, 2) [Op:ResourceGather] name: "});
}

TEST_CASE("semantics: pad, slice, split, eye, logical ops, reduce_all/any, moments, clip_by_global_norm", "[semantics]") {
  CHECK(out("x = tf.Variable([[1.0, -2.0], [3.0, 4.0]])\n"
            "with tf.GradientTape(persistent=True) as t:\n"
            "  a = tf.pad(x, [[1, 0], [0, 1]])\n"
            "  b = tf.slice(x, [0, 1], [2, 1])\n"
            "  p1, p2 = tf.split(x, 2, axis=1)\n"
            "  c = p1 * 2 + p2 * 3\n"
            "  m, v = tf.nn.moments(x, axes=[0])\n"
            "print(a.shape, b.numpy().tolist(), t.gradient(b, x).numpy().tolist(), t.gradient(c, x).numpy().tolist())\n"
            "print(m.numpy(), v.numpy(), tf.eye(2).numpy().tolist())\n"
            "print(tf.math.logical_and(x > 0, x < 3).numpy().tolist(), tf.reduce_all(x > 0).numpy(), "
            "tf.reduce_any(x > 0, axis=1).numpy())\n"
            "cl, gn = tf.clip_by_global_norm([tf.constant([3.0, 4.0])], 1.0)\n"
            "print(cl[0].numpy(), gn.numpy())\n") ==
        Lines{"(3, 3) [[-2.0], [4.0]] [[0.0, 1.0], [0.0, 1.0]] [[2.0, 3.0], [2.0, 3.0]]",
              "[2. 1.] [1. 9.] [[1.0, 0.0], [0.0, 1.0]]", "[[True, False], [False, False]] False [ True  True]",
              "[0.6 0.8] 5.0"});
}

TEST_CASE("semantics: Keras 3 variable paths follow the name scopes of the layers that build them", "[semantics]") {
  CHECK(out("class MyModel(tf.keras.Model):\n"
            "  def __init__(self):\n"
            "    super().__init__()\n"
            "    self.d1 = tf.keras.layers.Dense(4)\n"
            "    self.w = self.add_weight(shape=(), initializer='ones')\n"
            "  def call(self, x):\n"
            "    return self.d1(x) * self.w\n"
            "m = MyModel()\n"
            "m(tf.ones([2, 3]))\n"
            "print([v.path for v in m.trainable_variables])\n"
            "s = tf.keras.Sequential([tf.keras.layers.Dense(2)])\n"
            "s(tf.ones([1, 3]))\n"
            "print([v.path for v in s.weights], [v.name for v in s.weights])\n"
            "s.trainable = False\n"
            "print(s.layers[0].trainable, len(s.trainable_variables), len(s.non_trainable_weights))\n") ==
        Lines{"['my_model/variable', 'my_model/dense/kernel', 'my_model/dense/bias']",
              "['sequential/dense_1/kernel', 'sequential/dense_1/bias'] ['kernel', 'bias']", "False 0 2"});
}

TEST_CASE("semantics: @property with @x.setter", "[semantics]") {
  CHECK(out("class A:\n"
            "  def __init__(self):\n"
            "    self._x = 1\n"
            "  @property\n"
            "  def x(self):\n"
            "    return self._x\n"
            "  @x.setter\n"
            "  def x(self, v):\n"
            "    self._x = v * 10\n"
            "a = A()\n"
            "a.x = 3\n"
            "print(a.x)\n") == Lines{"30"});
}

TEST_CASE("semantics: a tape watches the tf.Variables inside Keras variables", "[semantics]") {
  CHECK(out("layer = tf.keras.layers.Dense(2)\n"
            "with tf.GradientTape() as tape:\n"
            "  y = layer(tf.constant([[1., 2., 3.]]))\n"
            "w = tape.watched_variables()\n"
            "print([v.name for v in w], type(w[0]).__name__, layer.kernel.name, type(layer.kernel).__name__)\n"
            "print(w[1])\n") ==
        Lines{"['dense/kernel:0', 'dense/bias:0'] ResourceVariable kernel Variable",
              "<tf.Variable 'dense/bias:0' shape=(2,) dtype=float32, numpy=array([0., 0.], dtype=float32)>"});
}

TEST_CASE("semantics: AutoGraph inside a traced tf.function", "[semantics]") {
  // An `if` on a tensor traces both branches (Python prints of both, at trace time);
  // the taken branch's values and variable updates are what the call produces; tf.print
  // runs with the graph: after the trace's Python prints, on every call.
  CHECK(out("v = tf.Variable(0.0)\n"
            "@tf.function\n"
            "def f(x):\n"
            "  if x > 0:\n"
            "    v.assign(1.0)\n"
            "    tf.print('tf pos')\n"
            "    print('py pos')\n"
            "    y = x * 2\n"
            "  else:\n"
            "    v.assign(2.0)\n"
            "    tf.print('tf neg')\n"
            "    print('py neg')\n"
            "    y = -x\n"
            "  return y\n"
            "print(f(tf.constant(3.0)).numpy(), v.numpy())\n"
            "print(f(tf.constant(-3.0)).numpy(), v.numpy())\n") ==
        Lines{"py pos", "py neg", "tf pos", "6.0 1.0", "tf neg", "3.0 2.0"});
  CHECK(out("@tf.function\n"
            "def g(x):\n"
            "  if x > 0:\n"
            "    z = x\n"
            "  return z\n"
            "try:\n"
            "  g(tf.constant(1.0))\n"
            "except ValueError as e:\n"
            "  print(\"ValueError: 'z' must also be initialized in the else branch\" in str(e))\n") ==
        Lines{"True"});
  // A loop over a tensor is a tf.while_loop: its body is traced once. Outputs are tensors.
  CHECK(out("@tf.function\n"
            "def h(n):\n"
            "  s = tf.constant(0)\n"
            "  for i in tf.range(n):\n"
            "    print('body')\n"
            "    s += i\n"
            "  return s, 7\n"
            "print(h(tf.constant(4)))\n") ==
        Lines{"body", "(<tf.Tensor: shape=(), dtype=int32, numpy=6>, <tf.Tensor: shape=(), dtype=int32, numpy=7>)"});
}

TEST_CASE("semantics: frequent retracing logs TF's warning (5 of the last 5 calls, at most twice)", "[semantics]") {
  ts::RunResult r = ts::run_script("@tf.function\n"
                                   "def f(x):\n"
                                   "  return x * 2\n"
                                   "for i in range(12):\n"
                                   "  f(i)\n",
                                   "test.py");
  REQUIRE_FALSE(r.error);
  std::vector<std::string> hits;
  for (const auto& [line, text] : r.warnings())
    if (text.find("triggered tf.function retracing") != std::string::npos) hits.push_back(text.substr(0, 50));
  CHECK(hits == Lines{"WARNING:tensorflow:5 out of the last 5 calls to <f", "WARNING:tensorflow:6 out of the last 6 calls to <f"});
}

TEST_CASE("semantics: optimizer.iterations is Keras 3's int64 variable; EagerTensor attribute errors name the C type", "[semantics]") {
  CHECK(out("opt = tf.keras.optimizers.SGD(0.1)\n"
            "w = tf.Variable(1.0)\n"
            "with tf.GradientTape() as t:\n"
            "  l = (w - 3.0) ** 2\n"
            "r = opt.apply_gradients(zip(t.gradient(l, [w]), [w]))\n"
            "print(w.numpy(), opt.iterations, int(r))\n"
            "try:\n"
            "  tf.constant(3.0).assign(4.0)\n"
            "except AttributeError as e:\n"
            "  print(e)\n") ==
        Lines{"1.4 <Variable path=SGD/iteration, shape=(), dtype=int64, value=1> 1",
              "'tensorflow.python.framework.ops.EagerTensor' object has no attribute 'assign'"});
}

TEST_CASE("semantics: Keras 3 cross-entropy losses (the values of Keras's own examples)", "[semantics]") {
  CHECK(out("print(round(float(tf.keras.losses.BinaryCrossentropy()([[0., 1.], [0., 0.]], [[0.6, 0.4], [0.4, 0.6]])), 3))\n"
            "print(round(float(tf.keras.losses.CategoricalCrossentropy()([[0, 1, 0], [0, 0, 1]], "
            "[[0.05, 0.95, 0], [0.1, 0.8, 0.1]])), 3))\n"
            "print(round(float(tf.keras.losses.SparseCategoricalCrossentropy()([1, 2], [[0.05, 0.95, 0], [0.1, 0.8, 0.1]])), 3))\n"
            "x = tf.Variable([[0.6, 0.4]])\n"
            "with tf.GradientTape() as t:\n"
            "  l = tf.keras.losses.BinaryCrossentropy()([[0., 1.]], x)\n"
            "print(t.gradient(l, x).numpy(), isinstance(t, tf.GradientTape))\n") ==
        Lines{"0.815", "1.177", "1.177", "[[ 1.2500001 -1.25     ]] True"});
}

TEST_CASE("semantics: a slice of a variable can be assigned (ResourceStridedSliceAssign)", "[semantics]") {
  CHECK(out("v = tf.Variable([[1.0, 2.0], [3.0, 4.0]])\n"
            "r = v[0].assign([5.0, 6.0])\n"
            "v[1, 1].assign(9.0)\n"
            "v[:, 0].assign([7.0, 8.0])\n"
            "print(v.numpy().tolist(), r.name)\n"
            "try:\n"
            "  v[0].assign(1.0)\n"
            "except tf.errors.InvalidArgumentError as e:\n"
            "  print(e)\n") ==
        Lines{"[[7.0, 6.0], [8.0, 9.0]] UnreadVariable",
              // array_ops.strided_slice names the assign after its slice: parent_name + "_assign".
              "{{function_node __wrapped__ResourceStridedSliceAssign_device_/job:localhost/replica:0/task:0/device:"
              "CPU:0}} sliced l-value shape [2] does not match r-value shape []. Automatic broadcasting not yet "
              "implemented. [Op:ResourceStridedSliceAssign] name: strided_slice/_assign"});
}

TEST_CASE("semantics: builtins map, filter, reversed, pow, divmod; key=None", "[semantics]") {
  CHECK(out("print(list(map(float, [1, 2])), list(reversed([1, 2, 3])), pow(2, 3), divmod(7, 2), "
            "list(filter(None, [0, 1, 2])), max(1, 2, key=None))\n") ==
        Lines{"[1.0, 2.0] [3, 2, 1] 8 (3, 1) [1, 2] 2"});
}

TEST_CASE("semantics: tf.TensorSpec (input_signature accepted)", "[semantics]") {
  CHECK(out("@tf.function(input_signature=[tf.TensorSpec(shape=[None], dtype=tf.float32)])\n"
            "def f(x):\n"
            "  return x * 2\n"
            "print(f(tf.constant([1.0, 2.0])).numpy(), tf.TensorSpec(shape=[None], dtype=tf.float32))\n") ==
        Lines{"[2. 4.] TensorSpec(shape=(None,), dtype=tf.float32, name=None)"});
}

TEST_CASE("semantics: tf.print summarizes as TF does (3 at each end; blank lines between blocks)", "[semantics]") {
  CHECK(out("tf.print(tf.range(10))\n"
            "tf.print(tf.range(6))\n"
            "tf.print(tf.reshape(tf.range(8), [2, 2, 2]))\n"
            "tf.print(tf.range(10), summarize=-1)\n") ==
        Lines{"[0 1 2 ... 7 8 9]", "[0 1 2 3 4 5]", "[[[0 1]", "  [2 3]]", "", " [[4 5]", "  [6 7]]]",
              "[0 1 2 3 4 5 6 7 8 9]"});
}

TEST_CASE("semantics: type() of TF objects names their Python modules", "[semantics]") {
  CHECK(out("l = tf.keras.layers.Dense(1)\n"
            "l.build((None, 1))\n"
            "print(type(tf.GradientTape()), type(tf.float32), type(tf.constant(1.0).shape))\n"
            "print(type(l.kernel), type(tf.Variable(1.0).assign(2.0)))\n") ==
        Lines{"<class 'tensorflow.python.eager.backprop.GradientTape'> <class 'tensorflow.python.framework.dtypes.DType'> "
              "<class 'tensorflow.python.framework.tensor_shape.TensorShape'>",
              "<class 'keras.src.backend.tensorflow.core.Variable'> "
              "<class 'tensorflow.python.ops.resource_variable_ops._UnreadVariable'>"});
}

TEST_CASE("semantics: tf.Variables inside tf.function: singleton rule, second trace of a first call that made them", "[semantics]") {
  CHECK(out("@tf.function\n"
            "def f(x):\n"
            "  v = tf.Variable(1.0)\n"
            "  return v * x\n"
            "try:\n"
            "  f(tf.constant(2.0))\n"
            "except ValueError as e:\n"
            "  print('tf.function only supports singleton tf.Variables created on the first call' in str(e))\n"
            "class M(tf.Module):\n"
            "  def __init__(self):\n"
            "    self.v = None\n"
            "  @tf.function\n"
            "  def __call__(self, x):\n"
            "    print('tracing')\n"
            "    tf.print('run')\n"
            "    if self.v is None:\n"
            "      self.v = tf.Variable(2.0)\n"
            "    self.v.assign_add(1.0)\n"
            "    return self.v * x\n"
            "m = M()\n"
            "print(m(tf.constant(3.0)).numpy())\n"
            "print(m(tf.constant(4.0)).numpy())\n"
            "@tf.function\n"
            "def k(x):\n"
            "  if x.shape[0] == 2:\n"
            "    w = tf.Variable(1.0)\n"
            "  return x\n"
            "k(tf.ones([1]))\n"
            "try:\n"
            "  k(tf.ones([2]))\n"
            "except ValueError as e:\n"
            "  print(e)\n") ==
        Lines{"True", "tracing", "tracing", "run", "9.0", "run", "16.0",
              "Creating variables on a non-first call to a function decorated with tf.function."});
}

TEST_CASE("semantics: a Sequential model with a known input shape is built at once", "[semantics]") {
  CHECK(out("s = tf.keras.Sequential([tf.keras.layers.Dense(2, input_shape=(3,)), tf.keras.layers.Dense(1)])\n"
            "print(len(s.weights), [v.path for v in s.weights][:2], s.built)\n"
            "s2 = tf.keras.Sequential([tf.keras.Input(shape=(4,)), tf.keras.layers.Dense(3)])\n"
            "print([v.shape.as_list() for v in s2.trainable_variables], len(s2.layers))\n") ==
        Lines{"4 ['sequential/dense/kernel', 'sequential/dense/bias'] True", "[[4, 3], [3]] 1"});
}

TEST_CASE("semantics: `...` in a subscript is an ellipsis, for tensors, arrays and gradients", "[semantics]") {
  CHECK(out("import numpy as np\n"
            "x = tf.reshape(tf.range(6.0), (1, 2, 3))\n"
            "print(x[..., 0].numpy(), x[0, ...].shape, x[..., None].shape, x[:, ..., 1:].shape)\n"
            "print(np.arange(6).reshape(2, 3)[..., 1], ..., type(...).__name__)\n"
            "with tf.GradientTape() as t:\n"
            "  t.watch(x)\n"
            "  y = tf.reduce_sum(x[..., 1] * 2.0)\n"
            "print(t.gradient(y, x).numpy()[0])\n") ==
        Lines{"[[0. 3.]] (2, 3) (1, 2, 3, 1) (1, 2, 2)", "[1 4] Ellipsis ellipsis", "[[0. 2. 0.]", " [0. 2. 0.]]"});
}

TEST_CASE("semantics: tf.executing_eagerly is False only while a tf.function traces", "[semantics]") {
  CHECK(out("@tf.function\n"
            "def f(x):\n"
            "  print(tf.executing_eagerly())\n"
            "  return x\n"
            "print(tf.executing_eagerly())\n"
            "f(tf.constant(1.0))\n") == Lines{"True", "False"});
}

TEST_CASE("semantics: tensor.ref() keys a dict by identity", "[semantics]") {
  CHECK(out("x = tf.constant(1.0)\n"
            "v = tf.Variable(2.0)\n"
            "d = {x.ref(): 'x', v.ref(): 'v'}\n"
            "print(d[x.ref()], d[v.ref()], x.ref() == x.ref(), x.ref() == tf.constant(1.0).ref())\n"
            "print(x.ref(), x.ref().deref() is x, v.ref() in [r for r in d])\n") ==
        Lines{"x v True False", "<Reference wrapping <tf.Tensor: shape=(), dtype=float32, numpy=1.0>> True True"});
}

TEST_CASE("semantics: tf.function and tf.custom_gradient on methods bind self", "[semantics]") {
  // Function.__get__ / custom_gradient's Bind: the signature and the gradient's inputs
  // are the arguments after self; each instance traces for itself.
  CHECK(out("class N(tf.Module):\n"
            "  def __init__(self, w):\n"
            "    super().__init__()\n"
            "    self.w = tf.Variable(w)\n"
            "  @tf.function(input_signature=[tf.TensorSpec([], tf.float32)])\n"
            "  def __call__(self, x):\n"
            "    return self.w * x\n"
            "a, b = N(3.0), N(5.0)\n"
            "with tf.GradientTape() as t:\n"
            "  y = a(tf.constant(2.0)) + b(tf.constant(2.0))\n"
            "print(y.numpy(), [g.numpy() for g in t.gradient(y, [a.w, b.w])])\n"
            "class Model:\n"
            "  @tf.custom_gradient\n"
            "  def multiply(self, x1, x2):\n"
            "    def grad(dy):\n"
            "      return (dy * x1, dy * x2)\n"
            "    return x1 * x2, grad\n"
            "x1, x2 = tf.constant(3.), tf.constant(5.)\n"
            "with tf.GradientTape() as t:\n"
            "  t.watch([x1, x2])\n"
            "  y = Model().multiply(x1, x2)\n"
            "print([g.numpy() for g in t.gradient(y, [x1, x2])])\n") ==
        Lines{"16.0 [2.0, 2.0]", "[3.0, 5.0]"});
}

TEST_CASE("semantics: watching on a tape whose block never began fails as TF's does", "[semantics]") {
  // GradientTape._tape is None until __enter__: tape.watch(None, t) reads None._tape.
  CHECK(error_of("x = tf.constant(1.0)\nt = tf.GradientTape()\nt.watch(x)\n") ==
        "AttributeError: 'NoneType' object has no attribute '_tape'");
  // After the block it still watches (the C++ tape is kept), and records nothing more.
  CHECK(out("x = tf.constant(2.0)\nt = tf.GradientTape(persistent=True)\nwith t:\n  t.watch(x)\n  y = x * x\n"
            "t.watch(x)\nprint(t.gradient(y, x).numpy())\n") == Lines{"4.0"});
}

TEST_CASE("semantics: TensorShape with unknown dimensions; classes print as classes", "[semantics]") {
  CHECK(out("s = tf.TensorShape([2, None])\n"
            "print(s, repr(s), s.as_list(), s.is_fully_defined(), s.num_elements(), s[1], len(s))\n"
            "t = tf.TensorShape([2, 3])\nprint(t, t.num_elements(), t.is_fully_defined(), t == [2, 3], tf.TensorShape([3]))\n") ==
        Lines{"(2, None) TensorShape([2, None]) [2, None] False None None 2", "(2, 3) 6 True True (3,)"});
  CHECK(out("import numpy as np\nprint(np.float32, np.int64, tf.Variable)\n") ==
        Lines{"<class 'numpy.float32'> <class 'numpy.int64'> <class 'tensorflow.python.ops.variables.Variable'>"});
}

TEST_CASE("semantics: gradient inside stop_recording; jacobian inside a non-persistent tape", "[semantics]") {
  // backprop.py: stop_recording pops the tape and pushes it back; a non-persistent
  // gradient() sets self._tape = None, so the push starts a fresh tape that records.
  ts::RunResult r = ts::run_script(
      "x = tf.Variable(3.0)\n"
      "with tf.GradientTape() as tape:\n"
      "  y = x ** 3\n"
      "  with tape.stop_recording():\n"
      "    dy = tape.gradient(y, x)\n"
      "  z = x * x\n"
      "print(dy.numpy(), tape.gradient(z, x).numpy())\n"
      "with tf.GradientTape(persistent=True) as tape:\n"
      "  y = x ** 3\n"
      "  with tape.stop_recording():\n"
      "    dy = tape.gradient(y, x)\n"
      "print(dy.numpy(), tape.gradient(dy, x))\n"
      "v = tf.Variable([1.0, 2.0])\n"
      "with tf.GradientTape() as tape:\n"
      "  y = v * v\n"
      "  j = tape.jacobian(y, v)\n"
      "print(j.numpy().tolist())\n",
      "test.py");
  REQUIRE_FALSE(r.error);
  CHECK(r.output_lines() == Lines{"27.0 6.0", "27.0 None", "[[2.0, 0.0], [0.0, 4.0]]"});
  // Neither the persistent tape (not recording inside stop_recording) nor the
  // non-persistent one (popped silently) logs the inside-its-context warning.
  CHECK(r.warnings().empty());
}

TEST_CASE("semantics: a TensorShape with an unknown dimension is not a shape an op can take", "[semantics]") {
  CHECK(error_of("tf.zeros(tf.TensorShape([2, None]))\n") ==
        "ValueError: Cannot convert a partially known TensorShape (2, None) to a Tensor.");
  CHECK(error_of("tf.constant(tf.TensorShape([None]))\n") ==
        "ValueError: Cannot convert a partially known TensorShape (None,) to a Tensor.");
}

// resource_variable_ops: BaseResourceVariable's in-place operators raise.
TEST_CASE("semantics: `v += 1.0` on a tf.Variable raises TF's RuntimeError; `//=` rebinds", "[semantics]") {
  CHECK(error_of("v = tf.Variable(1.0)\nv += 1.0\n") ==
        "RuntimeError: `variable += value` with `tf.Variable`s is not supported. Use `variable.assign_add(value)` to "
        "modify the variable, or `out = variable + value` if you need to get a new output Tensor.");
  CHECK(error_of("v = tf.Variable(1.0)\nv *= 2.0\n") ==
        "RuntimeError: `var *= value` with `tf.Variable`s is not supported. Use `var.assign(var * value)` to modify the "
        "variable, or `out = var * value` if you need to get a new output Tensor.");
  CHECK(out("v = tf.Variable(7.0)\nv //= 2.0\nprint(v)\n") == Lines{"tf.Tensor(3.0, shape=(), dtype=float32)"});
}

// resource_variable_ops.py: assign checks shapes in Python, assign_add/assign_sub in the
// kernel; _lazy_read and __repr__/__bool__ count as accesses a tape watches.
TEST_CASE("semantics: variable updates' shape errors and the accesses watched_variables() sees", "[semantics]") {
  CHECK(error_of("v = tf.Variable([1.0, 2.0])\nv.assign_add(1.0)\n") ==
        "InvalidArgumentError: {{function_node __wrapped__AssignAddVariableOp_device_/job:localhost/replica:0/task:0/"
        "device:CPU:0}} Cannot update variable with shape [2] using a Tensor with shape [], shapes must be equal. "
        "[Op:AssignAddVariableOp] name: ");
  CHECK(error_of("v = tf.Variable([1.0, 2.0])\nv.assign(1.0)\n") ==
        "ValueError: Cannot assign value to variable ' Variable:0': Shape mismatch.The variable shape (2,), and the "
        "assigned value shape () are incompatible.");
  CHECK(error_of("tf.Variable(np.zeros([3]), shape=[4])\n") ==
        "ValueError: In this `tf.Variable` creation, the initial value's shape ((3,)) is not compatible with the "
        "explicitly supplied `shape` argument ([4]).");
  CHECK(out("v = tf.Variable(1.0)\n"
            "w = tf.Variable(2.0)\n"
            "u = tf.Variable(3.0)\n"
            "with tf.GradientTape() as t:\n"
            "  v.assign(2.0)\n"
            "  print(w)\n"
            "  u.assign(1.0, read_value=False)\n"
            "print([x.name for x in t.watched_variables()])\n") ==
        Lines{"<tf.Variable 'Variable:0' shape=() dtype=float32, numpy=2.0>", "['Variable:0', 'Variable:0']"});
}

// Python decides a def's locals when it compiles it (every expected line was printed
// by CPython 3.11 for the same script).
TEST_CASE("semantics: a name a def binds anywhere is local throughout it", "[semantics][python]") {
  CHECK(out("x = 1\n"
            "def j():\n"
            "  x += 1\n"
            "  return x\n"
            "try:\n"
            "  j()\n"
            "except UnboundLocalError as e:\n"
            "  print(type(e).__name__, e, isinstance(e, NameError))\n"
            "def g():\n"
            "  global x\n"
            "  x += 1\n"
            "  return x\n"
            "print(g(), x)\n"
            "def outer():\n"
            "  def inner():\n"
            "    return z\n"
            "  try:\n"
            "    inner()\n"
            "  except NameError as e:\n"
            "    print(e)\n"
            "  z = 3\n"
            "  return inner()\n"
            "print(outer())\n"
            "def comp():\n"
            "  return [x + i for i in range(2)]\n"
            "print(comp())\n") ==
        Lines{"UnboundLocalError cannot access local variable 'x' where it is not associated with a value True",
              "2 2", "cannot access free variable 'z' where it is not associated with a value in enclosing scope", "3",
              "[2, 3]"});
}

TEST_CASE("semantics: a traced if whose output is None in one branch is AutoGraph's ValueError", "[semantics]") {
  CHECK(out("@tf.function\n"
            "def g(x):\n"
            "  y = None\n"
            "  if x > 0:\n"
            "    y = x\n"
            "  return y\n"
            "try:\n"
            "  g(tf.constant(1.0))\n"
            "except ValueError as e:\n"
            "  print(\"'y' is None at the end of the else branch.\" in str(e))\n") == Lines{"True"});
}

TEST_CASE("semantics: a Function's name and input_signature; its concrete functions are out of scope", "[semantics]") {
  CHECK(out("@tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])\n"
            "def f(x):\n"
            "  return x\n"
            "print(f.name, f.input_signature)\n") ==
        Lines{"f (TensorSpec(shape=(None,), dtype=tf.float32, name=None),)"});
  CHECK(error_of("@tf.function\ndef g(x):\n  return x\ng.get_concrete_function(tf.TensorSpec([None]))\n") ==
        "AttributeError: 'Function' object has no attribute 'get_concrete_function': Function.get_concrete_function is "
        "not supported in tape scripts");
}

TEST_CASE("semantics: a placeholder of unknown rank prints without a shape", "[semantics]") {
  CHECK(out("@tf.function(input_signature=[tf.TensorSpec(shape=None, dtype=tf.float32)])\n"
            "def f(x):\n"
            "  print(x)\n"
            "  print(repr(x))\n"
            "  return x\n"
            "f(tf.constant([1.0, 2.0]))\n") ==
        Lines{"Tensor(\"x:0\", dtype=float32)", "<tf.Tensor 'x:0' shape=<unknown> dtype=float32>"});
}

TEST_CASE("semantics: variables cast to their own dtype stay variables; conversions word TF's errors", "[semantics]") {
  // math_ops.cast returns a ResourceVariable of the dtype itself (so the tape still watches it).
  CHECK(out("x = tf.Variable(3.0)\n"
            "x = tf.cast(x, tf.float32)\n"
            "with tf.GradientTape() as t:\n"
            "  y = x * x\n"
            "print(type(x).__name__, t.gradient(y, x))\n"
            "v = tf.Variable(1.0)\n"
            "c = tf.cast(v, tf.float32)\n"
            "v.assign(5.0)\n"
            "print(c is v, c.numpy())\n") ==
        Lines{"ResourceVariable tf.Tensor(6.0, shape=(), dtype=float32)", "True 5.0"});
  // indexed_slices.py's __neg__.
  CHECK(out("w = tf.Variable([[1., 2.], [3., 4.], [5., 6.]])\n"
            "with tf.GradientTape() as t:\n"
            "  y = tf.reduce_sum(tf.gather(w, [2, 0]))\n"
            "g = -t.gradient(y, w)\n"
            "print(type(g).__name__, g.indices.numpy(), g.values.numpy().tolist())\n") ==
        Lines{"IndexedSlices [2 0] [[-1.0, -1.0], [-1.0, -1.0]]"});
  CHECK(error_of("v = tf.Variable(1.0)\ntf.convert_to_tensor(v, dtype=tf.int32)\n") ==
        "ValueError: Incompatible type conversion requested to type int32 for `tf.Variable of type float32. (Variable: "
        "<tf.Variable 'Variable:0' shape=() dtype=float32, numpy=1.0>)");
  CHECK(error_of("tf.Variable(tf.constant(1.0), dtype=tf.float64)\n") ==
        "ValueError: initial_value: Tensor conversion requested dtype float64 for Tensor with dtype float32: "
        "<tf.Tensor: shape=(), dtype=float32, numpy=1.0>");
  CHECK(error_of("tf.Variable()\n") ==
        "ValueError: The `initial_value` arg to `tf.Variable` must be specified except when you are not providing a "
        "`variable_def`. You provided neither.");
}

TEST_CASE("semantics: tf.print quotes and escapes string elements; a lone string scalar prints as itself", "[semantics]") {
  // tensor.cc's PrintOneElement(print_v2): "\"" + Utf8SafeCEscape(s) + "\""
  // (logging_ops_test.testPrintOneStringTensor); print_v2 passes one string scalar through.
  CHECK(out("tf.print(tf.constant(['a', 'b', 'c', 'd', 'e', 'f', 'g']))\n"
            "tf.print('name:', tf.constant('abc'))\n"
            "tf.print(tf.constant(['a\\tb', 'q\\'\"']))\n"
            "tf.print(tf.constant('solo'))\n") ==
        Lines{"[\"a\" \"b\" \"c\" ... \"e\" \"f\" \"g\"]", "name: \"abc\"", "[\"a\\tb\" \"q\\'\\\"\"]", "solo"});
}

TEST_CASE("semantics: assign_add and assign_sub name their argument delta", "[semantics]") {
  CHECK(out("v = tf.Variable(1.0)\n"
            "print(v.assign_add(delta=1.0).numpy(), v.assign_sub(delta=0.5).numpy())\n") == Lines{"2.0 1.5"});
  CHECK(error_of("v = tf.Variable(1.0)\nv.assign_add(value=1.0)\n") ==
        "TypeError: assign_add() got an unexpected keyword argument 'value'");
}
