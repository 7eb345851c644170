// The library half of the tf module, through whole scripts: classes, tf.data,
// tf.function's tracing semantics, Keras layers and optimizers.
#include <catch2/catch.hpp>

#include "engine/run.h"
#include "script_test_util.h"

TEST_CASE("classes: single inheritance, super, properties, class attributes", "[library]") {
  CHECK(out("class A:\n"
            "    kind = 'a'\n"
            "    def __init__(self, x):\n"
            "        self.x = x\n"
            "    def f(self):\n"
            "        return self.x + 1\n"
            "class B(A):\n"
            "    def __init__(self, x):\n"
            "        super().__init__(x * 10)\n"
            "    def f(self):\n"
            "        return super().f() * 2\n"
            "    @property\n"
            "    def double(self):\n"
            "        return self.x * 2\n"
            "b = B(2)\n"
            "print(b.f(), b.double, b.kind, isinstance(b, A), type(b).__name__)\n") == Lines{"42 40 a True B"});
  CHECK(error_of("class A:\n  pass\nA().missing\n") == "AttributeError: 'A' object has no attribute 'missing'");
}

TEST_CASE("tf.data: order, batching, seeded shuffling, exhaustion", "[library]") {
  CHECK(out("ds = tf.data.Dataset.from_tensor_slices(tf.constant([1, 2, 3, 4, 5]))\n"
            "print([int(x) for x in ds])\n"
            "print([b.numpy().tolist() if False else list(b.numpy()) for b in ds.batch(2)])\n") ==
        Lines{"[1, 2, 3, 4, 5]", "[[1, 2], [3, 4], [5]]"});
  // The same seed gives the same order; every element appears once.
  CHECK(out("ds = tf.data.Dataset.from_tensor_slices(tf.range(6)).shuffle(6, seed=3, reshuffle_each_iteration=False)\n"
            "a = [int(x) for x in ds]\n"
            "b = [int(x) for x in ds]\n"
            "print(a == b, sorted(a))\n") == Lines{"True [0, 1, 2, 3, 4, 5]"});
  CHECK(out("it = iter(tf.data.Dataset.from_tensor_slices((tf.constant([1., 2.]), tf.constant([3., 4.]))))\n"
            "x, y = next(it)\n"
            "print(float(x), float(y))\n"
            "next(it)\n"
            "try:\n"
            "    next(it)\n"
            "except StopIteration:\n"
            "    print('exhausted')\n") == Lines{"1.0 3.0", "exhausted"});
  CHECK(out("ds = tf.data.Dataset.from_tensor_slices(tf.constant([1, 2, 3])).repeat().take(7)\n"
            "print([int(x) for x in ds])\n") == Lines{"[1, 2, 3, 1, 2, 3, 1]"});
}

TEST_CASE("tf.function: traced per signature, Python side effects only while tracing", "[library]") {
  CHECK(out("@tf.function\n"
            "def f(x):\n"
            "    print('tracing')\n"
            "    return x * 2\n"
            "print(f(tf.constant(1.0)).numpy())\n"
            "print(f(tf.constant(2.0)).numpy())\n"
            "print(f(tf.constant([1.0, 2.0])).numpy())\n"
            "print(f.experimental_get_tracing_count())\n") ==
        Lines{"tracing", "2.0", "4.0", "tracing", "[2. 4.]", "2"});
}

TEST_CASE("tf.function: Python values are frozen at trace time, variables are read by reference", "[library]") {
  CHECK(out("scale = 2.0\n"
            "v = tf.Variable(1.0)\n"
            "@tf.function\n"
            "def f(x):\n"
            "    return x * scale + v\n"
            "print(f(tf.constant(1.0)).numpy())\n"
            "scale = 10.0\n"
            "v.assign(5.0)\n"
            "print(f(tf.constant(1.0)).numpy())\n") == Lines{"3.0", "7.0"});
}

TEST_CASE("tf.function: a call after the trace runs no Python: older objects read as traced, stay unchanged",
          "[library]") {
  // The tf.function guide's side-effect examples: the graph holds what the trace read
  // (list items, attributes, an iterator's next element) and none of its writes.
  CHECK(out("counter = [0]\n"
            "class Box:\n"
            "    pass\n"
            "box = Box()\n"
            "box.n = 0\n"
            "d = {}\n"
            "external_list = []\n"
            "@tf.function\n"
            "def f(x):\n"
            "    counter[0] += 1\n"
            "    box.n = box.n + 1\n"
            "    d[len(d)] = 1\n"
            "    external_list.append(x)\n"
            "    local = []\n"
            "    local.append(1)\n"  // made by the call: an ordinary list
            "    return x + counter[0] + len(local)\n"
            "print(f(tf.constant(1)).numpy(), f(tf.constant(1)).numpy(), f(tf.constant(1)).numpy())\n"
            "print(counter, box.n, d, len(external_list))\n") ==
        Lines{"3 3 3", "[1] 1 {0: 1} 1"});
  CHECK(out("@tf.function\n"
            "def consume(iterator):\n"
            "    tf.print('Value:', next(iterator))\n"
            "iterator = iter([0, 1, 2, 3])\n"
            "consume(iterator)\n"
            "consume(iterator)\n"
            "print(next(iterator))\n") == Lines{"Value: 0", "Value: 0", "1"});
  // A Python flag guarding a variable update: the update is in the graph, the flag's
  // check and increment are not (the guide: "prints 1, 2, 3").
  CHECK(out("class Model(tf.Module):\n"
            "    def __init__(self):\n"
            "        self.v = tf.Variable(0)\n"
            "        self.counter = 0\n"
            "    @tf.function\n"
            "    def __call__(self):\n"
            "        if self.counter == 0:\n"
            "            self.counter += 1\n"
            "            self.v.assign_add(1)\n"
            "        return self.v\n"
            "m = Model()\n"
            "print([m().numpy() for n in range(3)], m.counter)\n") == Lines{"[1, 2, 3] 1"});
  // An attribute changed after the trace is not seen ("Didn't change :("); a global
  // rebound inside the function is rebound by the trace only.
  CHECK(out("class SimpleModel(tf.Module):\n"
            "    def __init__(self):\n"
            "        self.bias = 0.\n"
            "        self.weight = 2.\n"
            "@tf.function\n"
            "def evaluate(model, x):\n"
            "    return model.weight * x + model.bias\n"
            "simple_model = SimpleModel()\n"
            "x = tf.constant(10.)\n"
            "print(evaluate(simple_model, x).numpy())\n"
            "simple_model.bias += 5.0\n"
            "print(evaluate(simple_model, x).numpy(), simple_model.bias)\n"
            "calls = 0\n"
            "@tf.function\n"
            "def g(x):\n"
            "    global calls\n"
            "    calls = calls + 1\n"
            "    return x\n"
            "g(x)\n"
            "g(x)\n"
            "print(calls)\n") == Lines{"20.0", "20.0 5.0", "1"});
}

TEST_CASE("Keras optimizers: the learning rate is a Variable; an optimizer is built for its first variables",
          "[library][keras]") {
  // keras/src/optimizers/base_optimizer.py (3.7): learning_rate must be a float (or a
  // schedule/callable) and becomes "<name>/learning_rate"; the setter assigns it; a
  // later apply with a variable the first one did not have raises.
  CHECK(out("opt = tf.keras.optimizers.SGD(learning_rate=0.1)\n"
            "print(opt.learning_rate)\n"
            "a = tf.Variable(2.0)\n"
            "b = tf.Variable(2.0)\n"
            "with tf.GradientTape() as t:\n"
            "  y = a * a\n"
            "opt.apply_gradients(zip(t.gradient(y, [a]), [a]))\n"
            "opt.learning_rate = 0.05\n"
            "print(a.numpy(), opt.learning_rate.numpy(), [v.name for v in t.watched_variables()])\n"
            "with tf.GradientTape() as t:\n"
            "  y = b * b\n"
            "try:\n"
            "  opt.apply_gradients(zip(t.gradient(y, [b]), [b]))\n"
            "except ValueError as e:\n"
            "  print(e)\n"
            "try:\n"
            "  tf.keras.optimizers.SGD(learning_rate=1)\n"
            "except ValueError as e:\n"
            "  print(e)\n") ==
        Lines{"<Variable path=SGD/learning_rate, shape=(), dtype=float32, value=0.10000000149011612>",
              "1.6 0.05 ['Variable:0']",
              "Unknown variable: <tf.Variable 'Variable:0' shape=() dtype=float32, numpy=2.0>. This optimizer can only "
              "be called for the variables it was originally built with. When working with a new set of variables, you "
              "should recreate a new optimizer instance.",
              "Argument `learning_rate` should be float, or an instance of LearningRateSchedule, or a callable (that "
              "takes in the current iteration value and returns the corresponding learning rate value). Received "
              "instead: learning_rate=1"});
}

TEST_CASE("guide APIs: run_functions_eagerly, Module.submodules, Dataset.as_numpy_iterator, KerasVariable.value",
          "[library]") {
  // tf.config.run_functions_eagerly(True) runs the Python function on every call.
  CHECK(out("@tf.function\n"
            "def f(x):\n"
            "  print('python', x)\n"
            "  return x * 2\n"
            "tf.config.run_functions_eagerly(True)\n"
            "print(tf.config.functions_run_eagerly())\n"
            "f(tf.constant(1.0))\n"
            "f(tf.constant(1.0))\n"
            "tf.config.run_functions_eagerly(False)\n"
            "f(tf.constant(1.0))\n"
            "f(tf.constant(1.0))\n") ==
        Lines{"True", "python tf.Tensor(1.0, shape=(), dtype=float32)", "python tf.Tensor(1.0, shape=(), dtype=float32)",
              "python Tensor(\"x:0\", shape=(), dtype=float32)"});
  // module.py: submodules in its walk order (sorted attributes, nests flattened).
  CHECK(out("class Sub(tf.Module):\n"
            "  def __init__(self, name=None):\n"
            "    super().__init__(name=name)\n"
            "    self.w = tf.Variable(1.0)\n"
            "class Top(tf.Module):\n"
            "  def __init__(self):\n"
            "    super().__init__()\n"
            "    self.b = Sub(name='b_sub')\n"
            "    self.a = [Sub(name='a0'), Sub(name='a1')]\n"
            "print([s.name for s in Top().submodules])\n"
            "ds = tf.data.Dataset.from_tensor_slices(([1., 2., 3.], [4, 5, 6])).batch(2)\n"
            "for x in ds.as_numpy_iterator():\n"
            "  print(x)\n"
            "d = tf.keras.layers.Dense(1)\n"
            "d.build((None, 2))\n"
            "print(type(d.kernel.value).__name__)\n") ==
        Lines{"['a0', 'a1', 'b_sub']", "(array([1., 2.], dtype=float32), array([4, 5], dtype=int32))",
              "(array([3.], dtype=float32), array([6], dtype=int32))", "ResourceVariable"});
}

TEST_CASE("tf.function replay: loops, nested functions, variables made by the first call, tf.data, pop and del",
          "[library]") {
  // A tensor loop running more often than in its trace: the attribute read stays traced.
  CHECK(out("class C:\n"
            "    pass\n"
            "c = C()\n"
            "c.k = 1.0\n"
            "@tf.function\n"
            "def f(n):\n"
            "    i = tf.constant(0)\n"
            "    s = tf.constant(0.0)\n"
            "    while i < n:\n"
            "        s += c.k\n"
            "        i += 1\n"
            "    return s\n"
            "print(f(tf.constant(2)).numpy())\n"
            "c.k = 100.0\n"
            "print(f(tf.constant(4)).numpy())\n") == Lines{"2.0", "4.0"});
  // A tf.function inside another belongs to its graph: objects the outer call made are
  // its own, not older ones.
  CHECK(out("@tf.function\n"
            "def inner(acc, x):\n"
            "    acc.append(x * 2.0)\n"
            "    return x\n"
            "@tf.function\n"
            "def outer(x):\n"
            "    acc = []\n"
            "    inner(acc, x)\n"
            "    return acc[0]\n"
            "print(outer(tf.constant(1.0)).numpy(), outer(tf.constant(2.0)).numpy())\n") == Lines{"2.0 4.0"});
  // The first call that makes a variable is traced again without making it; later
  // calls run that second trace.
  CHECK(out("class M(tf.Module):\n"
            "    def __init__(self):\n"
            "        super().__init__()\n"
            "        self.v = None\n"
            "    @tf.function\n"
            "    def __call__(self, x):\n"
            "        if self.v is None:\n"
            "            self.v = tf.Variable(2.0)\n"
            "        return self.v * x\n"
            "m = M()\n"
            "print([m(tf.constant(k)).numpy() for k in [1.0, 3.0, 4.0]], len(m.trainable_variables))\n") ==
        Lines{"[2.0, 6.0, 8.0] 1"});
  // A tf.data iterator's next() is an op in the graph: it moves on every call.
  CHECK(out("@tf.function\n"
            "def good_consume_next(iterator):\n"
            "    tf.print('Value:', next(iterator))\n"
            "iterator = iter(tf.data.Dataset.from_tensor_slices([1, 2, 3]))\n"
            "for _ in range(3):\n"
            "    good_consume_next(iterator)\n") == Lines{"Value: 1", "Value: 2", "Value: 3"});
  // pop gives what the trace popped; del and global writes happen in the trace only.
  CHECK(out("x = 0\n"
            "@tf.function\n"
            "def f(t):\n"
            "    global x\n"
            "    x = x + 1\n"
            "    return t + x\n"
            "print(f(tf.constant(1.0)).numpy(), f(tf.constant(2.0)).numpy(), x)\n"
            "q = [1.0, 2.0, 3.0]\n"
            "@tf.function\n"
            "def g(t):\n"
            "    return t + q.pop()\n"
            "print(g(tf.constant(0.0)).numpy(), g(tf.constant(0.0)).numpy(), q)\n"
            "d = {'a': 1, 'b': 2}\n"
            "@tf.function\n"
            "def h(t):\n"
            "    del d['a']\n"
            "    return t\n"
            "h(tf.constant(0.0))\n"
            "d['a'] = 5\n"
            "h(tf.constant(0.0))\n"
            "print(d)\n") == Lines{"2.0 3.0 1", "3.0 3.0 [1.0, 2.0]", "{'b': 2, 'a': 5}"});
}

TEST_CASE("tf.function: an input_signature traces once with its shapes and refuses what does not fit", "[library]") {
  // The tf.function guide's next_collatz: one trace, the placeholder prints the spec's
  // shape; a tensor of another rank or dtype fails to bind (function_type_utils).
  CHECK(out("@tf.function(input_signature=(tf.TensorSpec(shape=[None], dtype=tf.int32),))\n"
            "def next_collatz(x):\n"
            "  print('Tracing with', x)\n"
            "  return tf.where(x % 2 == 0, x // 2, 3 * x + 1)\n"
            "print(next_collatz(tf.constant([1, 2])))\n"
            "print(next_collatz(tf.constant([1, 2, 3, 4])))\n"
            "for bad in [tf.constant([[1, 2], [3, 4]]), tf.constant([1.0, 2.0])]:\n"
            "  try:\n"
            "    next_collatz(bad)\n"
            "  except TypeError as e:\n"
            "    print(str(e).split('`')[1])\n"
            "print(next_collatz.experimental_get_tracing_count())\n") ==
        Lines{"Tracing with Tensor(\"x:0\", shape=(None,), dtype=int32)", "tf.Tensor([4 1], shape=(2,), dtype=int32)",
              "tf.Tensor([ 4  1 10  2], shape=(4,), dtype=int32)",
              "Can not cast TensorSpec(shape=(2, 2), dtype=tf.int32, name=None) to TensorSpec(shape=(None,), "
              "dtype=tf.int32, name=None)",
              "Can not cast TensorSpec(shape=(2,), dtype=tf.float32, name=None) to TensorSpec(shape=(None,), "
              "dtype=tf.int32, name=None)",
              "1"});
  CHECK(error_of("@tf.function(input_signature=[tf.TensorSpec(shape=[2], dtype=tf.float32)])\n"
            "def f(x):\n"
            "  return x\n"
            "f(tf.constant([1.0, 2.0, 3.0]))\n")
            .rfind("TypeError: Binding inputs to tf.function failed due to `Can not cast TensorSpec(shape=(3,), dtype=tf."
                   "float32, name=None) to TensorSpec(shape=(2,), dtype=tf.float32, name=None)`. Received args: ",
                   0) == 0);
}

TEST_CASE("tf.function: a call under a tape is differentiated through its trace", "[library]") {
  CHECK(out("@tf.function\n"
            "def f(x):\n"
            "    return x * x * x\n"
            "x = tf.Variable(2.0)\n"
            "f(x)\n"
            "with tf.GradientTape() as tape:\n"
            "    y = f(x)\n"
            "print(tape.gradient(y, x).numpy())\n") == Lines{"12.0"});
}

TEST_CASE("optimizers: three SGD steps and three Adam steps match hand-computed values", "[library]") {
  // loss = w*w, grad 2w: SGD(0.1) multiplies w by 0.8 each step.
  CHECK(out("w = tf.Variable(1.0)\n"
            "opt = tf.keras.optimizers.SGD(learning_rate=0.1)\n"
            "for step in range(3):\n"
            "    with tf.GradientTape() as tape:\n"
            "        loss = w * w\n"
            "    g = tape.gradient(loss, [w])\n"
            "    opt.apply_gradients(zip(g, [w]))\n"
            "    print(f'{w.numpy():.6f}')\n") == Lines{"0.800000", "0.640000", "0.512000"});
  // loss = w, grad 1: with bias correction Adam(0.1) steps by ~0.1 each time (without it
  // the first step would be 0.1 * 0.1 / sqrt(0.001) = 0.316).
  CHECK(out("w = tf.Variable(1.0, dtype=tf.float64)\n"
            "opt = tf.keras.optimizers.Adam(learning_rate=0.1)\n"
            "for step in range(3):\n"
            "    with tf.GradientTape() as tape:\n"
            "        loss = w * 1.0\n"
            "    opt.apply_gradients(zip(tape.gradient(loss, [w]), [w]))\n"
            "    print(f'{w.numpy():.5f}')\n") == Lines{"0.90000", "0.80000", "0.70000"});
}

TEST_CASE("optimizers: Keras 3's errors and warning for None gradients", "[library]") {
  CHECK(error_of("w = tf.Variable(1.0)\n"
                 "opt = tf.keras.optimizers.SGD(0.1)\n"
                 "opt.apply_gradients([(None, w)])\n") == "ValueError: No gradients provided for any variable.");
  CHECK(error_of("opt = tf.keras.optimizers.SGD(0.1)\n"
                 "opt.apply_gradients(zip([], []))\n") == "ValueError: not enough values to unpack (expected 2, got 0)");
  ts::RunResult r = ts::run_script("d = tf.keras.layers.Dense(1)\n"
                                   "x = tf.constant([[1.0]])\n"
                                   "d(x)\n"
                                   "with tf.GradientTape() as tape:\n"
                                   "    y = tf.reduce_sum(tf.matmul(x, d.kernel))\n"
                                   "g = tape.gradient(y, d.trainable_variables)\n"
                                   "tf.keras.optimizers.SGD(0.1).apply_gradients(zip(g, d.trainable_variables))\n",
                                   "test.py");
  REQUIRE_FALSE(r.error);
  bool warned = false;
  for (const auto& [line, text] : r.warnings())
    warned = warned || text.find("UserWarning: Gradients do not exist for variables ['dense/bias'] when minimizing the loss.") == 0;
  CHECK(warned);
}

TEST_CASE("Keras 3 tracks only Keras variables", "[library]") {
  CHECK(out("class M(tf.keras.Model):\n"
            "    def __init__(self):\n"
            "        super().__init__()\n"
            "        self.w = tf.Variable(1.0)\n"
            "        self.k = self.add_weight(shape=(), initializer='ones')\n"
            "    def call(self, x):\n"
            "        return x * self.w * self.k\n"
            "m = M()\n"
            "print(len(m.trainable_variables), m.trainable_variables[0].name)\n") == Lines{"1 variable"});
  CHECK(error_of("layer = tf.keras.layers.Dense(2)\n"
                 "layer(iter([1]))\n")
            .rfind("ValueError: Only input tensors may be passed as positional arguments.", 0) == 0);
}

TEST_CASE("library: datasets print as tf.data does, with their element_spec", "[library]") {
  CHECK(out("import numpy as np\n"
            "ds = tf.data.Dataset.from_tensor_slices([1., 2., 3., 4.])\n"
            "print(ds)\n"
            "print(ds.batch(3, drop_remainder=True).shuffle(4).prefetch(1))\n"
            "print(tf.data.Dataset.range(5))\n"
            "xy = tf.data.Dataset.from_tensor_slices((np.ones((4, 3)), np.arange(4)))\n"
            "print(xy.batch(2).element_spec)\n"
            "def f(x):\n"
            "    return x * 2, x\n"
            "print(ds.map(f))\n"
            "print(tf.data.Dataset.from_tensor_slices({'a': [1, 2]}).repeat(2).take(3))\n") ==
        Lines{"<_TensorSliceDataset element_spec=TensorSpec(shape=(), dtype=tf.float32, name=None)>",
              "<_PrefetchDataset element_spec=TensorSpec(shape=(3,), dtype=tf.float32, name=None)>",
              "<_RangeDataset element_spec=TensorSpec(shape=(), dtype=tf.int64, name=None)>",
              "(TensorSpec(shape=(None, 3), dtype=tf.float64, name=None), TensorSpec(shape=(None,), dtype=tf.int64, "
              "name=None))",
              "<_MapDataset element_spec=(TensorSpec(shape=(), dtype=tf.float32, name=None), TensorSpec(shape=(), "
              "dtype=tf.float32, name=None))>",
              "<_TakeDataset element_spec={'a': TensorSpec(shape=(), dtype=tf.int32, name=None)}>"});
}

TEST_CASE("library: tf.function keys traces by trace type, with the call bound to its parameters", "[library]") {
  // A dataset's (x, y) batches share one trace; the replays read each call's tensors.
  CHECK(out("xs = tf.constant([1., 2., 3., 4.])\n"
            "ds = tf.data.Dataset.from_tensor_slices((xs, xs * 2.0)).batch(2)\n"
            "w = tf.Variable(0.5)\n"
            "@tf.function\n"
            "def step(batch):\n"
            "    x, y = batch\n"
            "    print('tracing', x, batch[1])\n"
            "    return tf.reduce_mean((w * x - y) ** 2)\n"
            "print([step(b).numpy() for b in ds], step.experimental_get_tracing_count())\n") ==
        Lines{"tracing Tensor(\"batch:0\", shape=(2,), dtype=float32) Tensor(\"batch_1:0\", shape=(2,), dtype=float32)",
              "[5.625, 28.125] 1"});
  // function_type_utils binds the call and applies defaults before the lookup.
  CHECK(out("@tf.function\n"
            "def f(x, y=1.0):\n"
            "    return x * y\n"
            "f(tf.constant(1.)); f(x=tf.constant(2.)); f(tf.constant(3.), 1.0); f(tf.constant(3.), y=1.0)\n"
            "print(f.experimental_get_tracing_count(), f(tf.constant(3.), 2.0).numpy(), f.experimental_get_tracing_count())\n") ==
        Lines{"1 6.0 2"});
  // VariableSpec: variables alike share a trace (alias ids are per call); lists by
  // their elements' types; a new object is a new trace (a weak reference).
  CHECK(out("@tf.function\n"
            "def h(v, u):\n"
            "    return v * 2.0 + u\n"
            "print(h(tf.Variable(1.0), 0.0).numpy(), h(tf.Variable(2.0), 0.0).numpy(), h.experimental_get_tracing_count())\n"
            "v = tf.Variable(1.0)\n"
            "h(v, v); h(v, tf.Variable(1.0))\n"
            "print(h.experimental_get_tracing_count())\n"
            "@tf.function\n"
            "def g(xs):\n"
            "    return xs[0] + xs[1]\n"
            "print(g([tf.constant(1.), tf.constant(2.)]).numpy(), g([tf.constant(3.), tf.constant(4.)]).numpy(), "
            "g.experimental_get_tracing_count())\n"
            "class Apple:\n"
            "    def __init__(self):\n"
            "        self.flavor = 1\n"
            "@tf.function\n"
            "def get(fruit):\n"
            "    return fruit.flavor + 0\n"
            "a = Apple()\n"
            "get(a)\n"
            "del a\n"
            "b = Apple()\n"
            "b.flavor = 5\n"
            "print(get(b).numpy(), get.experimental_get_tracing_count())\n") ==
        Lines{"2.0 4.0 1", "3", "3.0 7.0 1", "5 2"});
}

TEST_CASE("library: Keras losses match ranks, reduce as asked and use a sigmoid's logits", "[library]") {
  // squeeze_or_expand_to_same_rank: labels (N,) against predictions (N, 1)
  CHECK(out("yt = tf.constant([1.0, 2.0, 3.0])\n"
            "yp = tf.constant([[1.5], [2.0], [2.0]])\n"
            "print(tf.keras.losses.MeanSquaredError()(yt, yp).numpy(), tf.keras.losses.mse(yt, yp).shape)\n"
            "print(tf.keras.losses.BinaryCrossentropy()(tf.constant([1., 0.]), tf.constant([[0.9], [0.2]])).numpy())\n") ==
        Lines{"0.41666666 (3,)", "0.16425204"});
  // reduce_weighted_values: sample weights, then the reduction
  CHECK(out("yt = tf.constant([[0., 1.], [1., 0.]])\n"
            "yp = tf.constant([[0.2, 0.7], [0.6, 0.1]])\n"
            "mse = tf.keras.losses.MeanSquaredError\n"
            "print(mse(reduction='sum')(yt, yp).numpy(), mse(reduction=None)(yt, yp).shape)\n"
            "print(mse()(yt, yp, sample_weight=tf.constant([1.0, 0.0])).numpy())\n") ==
        Lines{"0.15 (2,)", "0.032500003"});
  CHECK(error_of("tf.keras.losses.MeanSquaredError(reduction='foo')\n").rfind(
            "ValueError: Invalid value for argument `reduction`.", 0) == 0);
  // A saturated sigmoid: Keras computes the loss from its logits, so the gradient lives.
  CHECK(out("d = tf.keras.layers.Dense(1, activation='sigmoid', kernel_initializer='ones', bias_initializer='zeros')\n"
            "with tf.GradientTape() as tape:\n"
            "    loss = tf.keras.losses.BinaryCrossentropy()(tf.constant([[0.], [1.]]), d(tf.constant([[20.], [-20.]])))\n"
            "gk, gb = tape.gradient(loss, d.trainable_variables)\n"
            "print(loss.numpy(), gk.numpy()[0], gb.numpy())\n"
            "p = tf.constant([[0.1, 0.8, 0.1], [0.2, 0.2, 0.6]])\n"
            "print(tf.keras.losses.SparseCategoricalCrossentropy()(tf.constant([1, 2]), p).numpy())\n") ==
        Lines{"20.0 [20.] [0.]", "0.36698455"});
}

TEST_CASE("library: TF and Keras names beyond tape scripts say so", "[library]") {
  CHECK(error_of("tf.keras.layers.LSTM(2)\n") ==
        "AttributeError: module 'keras.layers' has no attribute 'LSTM': keras.layers.LSTM is not supported "
        "in tape scripts");
  CHECK(error_of("tf.reduce_summ(1)\n") == "AttributeError: module 'tensorflow' has no attribute 'reduce_summ'");
  CHECK(out("print(tf.optimizers.SGD(0.1).learning_rate.numpy(), tf.losses.MSE([1.], [2.]).numpy())\n") ==
        Lines{"0.1 1.0"});
}

TEST_CASE("library: compile turns optimizer names into optimizers", "[library]") {
  CHECK(out("model = tf.keras.Sequential([tf.keras.Input(shape=(3,)), tf.keras.layers.Dense(1)])\n"
            "model.compile(optimizer='adam', loss='mse')\n"
            "print(type(model.optimizer).__name__, model.optimizer.name, model.loss)\n") == Lines{"Adam adam mse"});
  CHECK(error_of("tf.keras.optimizers.get('nope')\n") == "ValueError: Could not interpret optimizer identifier: nope");
}

TEST_CASE("library: reduce_retracing traces a relaxed shape once shapes differ", "[library]") {
  // The tf.function guide's "Controlling retracing" example.
  CHECK(out("@tf.function(reduce_retracing=True)\n"
            "def g(x):\n"
            "    print('Tracing with', x)\n"
            "    return x * x\n"
            "print(g(tf.constant([1, 2, 3])))\n"
            "print(g(tf.constant([1, 2, 3, 4, 5])))\n"
            "print(g(tf.constant([1, 2, 3, 4, 5, 6, 7])).shape, g.experimental_get_tracing_count())\n"
            "g(tf.constant([[1, 2]]))\n") ==
        Lines{"Tracing with Tensor(\"x:0\", shape=(3,), dtype=int32)", "tf.Tensor([1 4 9], shape=(3,), dtype=int32)",
              "Tracing with Tensor(\"x:0\", shape=(None,), dtype=int32)",
              "tf.Tensor([ 1  4  9 16 25], shape=(5,), dtype=int32)", "(7,) 2",
              // Another rank: the common supertype of (None,) and (1, 2) is an unknown shape.
              "Tracing with Tensor(\"x:0\", dtype=int32)"});
}

TEST_CASE("library: Flatten, Dropout, Activation and ReLU layers; Sequential passes training on", "[library]") {
  CHECK(out("model = tf.keras.Sequential([tf.keras.Input(shape=(2, 2)), tf.keras.layers.Flatten(),\n"
            "    tf.keras.layers.Dense(3, kernel_initializer='ones'), tf.keras.layers.Activation('relu'),\n"
            "    tf.keras.layers.Dropout(0.5), tf.keras.layers.ReLU()])\n"
            "x = tf.ones((2, 2, 2))\n"
            "print(model(x).numpy()[0], [type(l).__name__ for l in model.layers])\n"
            "y = model(x, training=True).numpy()\n"
            "print([v for v in y.ravel().tolist() if v != 0.0 and v != 8.0], len([v for v in y.ravel().tolist() if v == 0.0]) > 0)\n"
            "with tf.GradientTape() as tape:\n"
            "    out = tf.reduce_sum(model(x, training=True))\n"
            "print([g.shape for g in tape.gradient(out, model.trainable_variables)])\n") ==
        Lines{"[4. 4. 4.] ['Flatten', 'Dense', 'Activation', 'Dropout', 'ReLU']", "[] True",
              "[TensorShape([4, 3]), TensorShape([3])]"});
  CHECK(error_of("tf.keras.layers.Dropout(1.5)\n") ==
        "ValueError: Invalid value received for argument `rate`. Expected a float value between 0 and 1. Received: "
        "rate=1.5");
}

TEST_CASE("library: Keras 3.7 optimizer options clip, decay and amsgrad as BaseOptimizer does", "[library][keras]") {
  // Values from Keras 3.7's formulas in float32 (checked with NumPy float32 arithmetic).
  CHECK(out("def step(opt, w, scale=1.0):\n"
            "  with tf.GradientTape() as tape:\n"
            "    loss = tf.reduce_sum(w * w) * scale\n"
            "  opt.apply_gradients(zip(tape.gradient(loss, [w]), [w]))\n"
            "  return w.numpy()\n"
            "print(step(tf.keras.optimizers.SGD(0.1, clipnorm=1.0), tf.Variable([3.0, 4.0])))\n"
            "print(step(tf.keras.optimizers.SGD(0.1, clipvalue=0.5), tf.Variable([3.0, 0.1])))\n"
            "print(step(tf.keras.optimizers.SGD(0.1, global_clipnorm=1.0), tf.Variable([3.0, 4.0])))\n"
            "print(step(tf.keras.optimizers.SGD(0.1, weight_decay=0.5), tf.Variable([1.0, -2.0]), 0.0))\n"
            "opt = tf.keras.optimizers.Adam(0.1, amsgrad=True)\n"
            "w = tf.Variable(1.0)\n"
            "print([step(opt, w, s) for s in [1.0, 0.01, 0.01]])\n"
            "print(hasattr(opt, 'minimize'))\n") ==
        Lines{"[2.94 3.92]", "[2.95 0.08]", "[2.94 3.92]", "[ 0.95 -1.9 ]", "[0.9000008, 0.83235955, 0.77956676]",
              "False"});
  CHECK(error_of("tf.keras.optimizers.SGD(0.1, clipnorm=1.0, clipvalue=1.0)\n") ==
        "ValueError: Only one of `clipnorm`, `clipvalue` and `global_clipnorm` can be set. Received: clipnorm=1.0, "
        "clipvalue=1.0, global_clipnorm=None");
  CHECK(error_of("tf.keras.optimizers.Adam(0.1, bogus=1)\n") == "ValueError: Argument(s) not recognized: {'bogus': 1}");
}

TEST_CASE("library: Model.layers lists a model's own layers; Sequential.build builds them", "[library][keras]") {
  CHECK(out("class Net(tf.keras.Model):\n"
            "  def __init__(self):\n"
            "    super().__init__()\n"
            "    self.d1 = tf.keras.layers.Dense(2)\n"
            "    self.d2 = tf.keras.layers.Dense(1)\n"
            "  def call(self, x):\n"
            "    return self.d2(self.d1(x))\n"
            "net = Net()\n"
            "net(tf.ones((1, 3)))\n"
            "print(net.layers)\n"
            "seq = tf.keras.Sequential([tf.keras.layers.Dense(2), tf.keras.layers.Dense(1)])\n"
            "seq.build((None, 4))\n"
            "print(seq.built, [v.path for v in seq.weights])\n"
            "print([tuple(v.shape) for v in seq.weights], len(seq.layers))\n") ==
        Lines{"[<Dense name=dense, built=True>, <Dense name=dense_1, built=True>]",
              "True ['sequential/dense_2/kernel', 'sequential/dense_2/bias', 'sequential/dense_3/kernel', "
              "'sequential/dense_3/bias']",
              "[(4, 2), (2,), (2, 1), (1,)] 2"});
}

TEST_CASE("library: a name real TF has but tape scripts lack says so; a typo stays Python's AttributeError",
          "[library]") {
  CHECK(error_of("tf.strided_slice\n") ==
        "AttributeError: module 'tensorflow' has no attribute 'strided_slice': tensorflow.strided_slice is not "
        "supported in tape scripts");
  CHECK(error_of("tf.image.resize\n") ==
        "AttributeError: module 'tensorflow.image' has no attribute 'resize': tensorflow.image.resize is not "
        "supported in tape scripts");
  CHECK(error_of("tf.math.rint\n").find("tensorflow.math.rint is not supported in tape scripts") != std::string::npos);
  CHECK(error_of("tf.reduce_summ\n") == "AttributeError: module 'tensorflow' has no attribute 'reduce_summ'");
  CHECK(error_of("np.set_printoptions(precision=3)\n") ==
        "AttributeError: module 'numpy' has no attribute 'set_printoptions': numpy.set_printoptions is not supported "
        "in tape scripts");
  CHECK(error_of("np.frobnicate\n") == "AttributeError: module 'numpy' has no attribute 'frobnicate'");
  CHECK(out("print(tf.math.xdivy(2., 4.).numpy())\n") == Lines{"0.5"});
}

TEST_CASE("keras: an exception from Layer.call comes back once, with the call's arguments", "[library]") {
  // keras/src/utils/traceback_utils.py inject_argument_info_in_traceback, as
  // Operation.__call__ applies it (traceback filtering is on by default).
  const std::string layer =
      "class L(tf.keras.layers.Layer):\n"
      "  def call(self, x, scale=2.0, mask=None):\n"
      "    raise ValueError('mine')\n";
  CHECK(out(layer + "try:\n  L()(tf.ones([2]), mask=[1, 'a'])\nexcept ValueError as e:\n  print(repr(str(e)))\n") ==
        Lines{"'Exception encountered when calling L.call().\\n\\n\\x1b[1mmine\\x1b[0m\\n\\nArguments received by "
              "L.call():\\n  \xe2\x80\xa2 x=tf.Tensor(shape=(2,), dtype=float32)\\n  \xe2\x80\xa2 scale=2.0\\n  "
              "\xe2\x80\xa2 mask=[\\'1\\', \"\\'a\\'\"]'"});
  // Only the innermost call wraps; an op's error keeps its class.
  CHECK(out(layer +
            "class M(tf.keras.Model):\n"
            "  def __init__(self):\n    super().__init__()\n    self.inner = L()\n"
            "  def call(self, x):\n    return self.inner(x)\n"
            "class A(tf.keras.layers.Layer):\n"
            "  def call(self, x):\n    return x + tf.ones([3])\n"
            "try:\n  M()(tf.ones([1, 2]))\nexcept ValueError as e:\n  print(str(e).count('Exception encountered'))\n"
            "try:\n  A()(tf.ones([2]))\nexcept tf.errors.InvalidArgumentError as e:\n"
            "  print(str(e).splitlines()[0])\n  print(str(e).splitlines()[-1])\n") ==
        Lines{"1", "Exception encountered when calling A.call().", "  \xe2\x80\xa2 x=tf.Tensor(shape=(2,), dtype=float32)"});
  // The error is reported where it was raised, inside call().
  const ts::RunResult r = ts::run_script(layer + "L()(tf.ones([2]))\n", "test.py");
  REQUIRE(r.error);
  CHECK(r.error->type == "ValueError");
  CHECK(r.error->line == 3);
}

// From a probe of Keras 3.7's optimizers: their state is variables made by build (so a
// tf.function's extra trace changes nothing), gradients are cast to the variable's dtype.
TEST_CASE("library: optimizer slots are variables; a tf.function step trains as eagerly", "[library][keras]") {
  const std::string step = "model = tf.keras.Sequential([tf.keras.layers.Dense(1, kernel_initializer='ones')])\n"
                           "x = tf.constant([[1.0], [2.0], [3.0]])\n"
                           "opt = tf.keras.optimizers.SGD(learning_rate=0.1, momentum=0.9)\n"
                           "def step(x):\n"
                           "  with tf.GradientTape() as t:\n"
                           "    loss = tf.reduce_sum(model(x))\n"
                           "  g = t.gradient(loss, model.trainable_variables)\n"
                           "  opt.apply_gradients(zip(g, model.trainable_variables))\n";
  const Lines expected{"[[-0.7400001]] [-0.87000006]", "4 2"};
  const std::string tail = "for i in range(2):\n"
                           "  f(x)\n"
                           "print(model.get_weights()[0], model.get_weights()[1])\n"
                           "print(len(opt.variables), int(opt.iterations))\n";
  CHECK(out(step + "f = step\n" + tail) == expected);
  CHECK(out(step + "f = tf.function(step)\n" + tail) == expected);
  CHECK(out("v = tf.Variable([1.0, 2.0], dtype=tf.float64)\n"
            "opt = tf.keras.optimizers.SGD(0.5, momentum=0.5)\n"
            "opt.apply_gradients([(tf.constant([1.0, 1.0]), v)])\n"
            "opt.apply([tf.constant([1.0, 1.0])])\n"
            "print(v.numpy(), [w.name for w in opt.variables])\n") ==
        Lines{"[-0.25  0.75] ['iteration', 'learning_rate', 'Variable_0_momentum']"});
  CHECK(error_of("tf.keras.optimizers.SGD(0.1, momentum=1.5)\n") == "ValueError: `momentum` must be a float between [0, 1].");
}

// keras/src/backend/tensorflow/nn.py's shape checks, losses.py's ignore_class (a masked
// mean over the valid entries), initializers.get's names; numpy.float64 is a float.
TEST_CASE("library: Keras cross-entropies check shapes, honour ignore_class, and initializers take Keras' names",
          "[library][keras]") {
  CHECK(error_of("tf.keras.losses.CategoricalCrossentropy()([[0., 1., 0.]], [[0.2, 0.7, 0.1], [0.3, 0.3, 0.4]])\n") ==
        "ValueError: Arguments `target` and `output` must have the same shape. Received: target.shape=(1, 3), "
        "output.shape=(2, 3)");
  CHECK(error_of("tf.keras.losses.SparseCategoricalCrossentropy()([1, 2, 0], [[0.2, 0.7, 0.1], [0.3, 0.3, 0.4]])\n") ==
        "ValueError: Arguments `target` and `output` must have the same shape up until the last dimension: "
        "target.shape=(3,), output.shape=(2, 3)");
  CHECK(out("yt = tf.constant([1, 0, 2])\n"
            "yp = tf.constant([[0.0, 2.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 3.0]])\n"
            "print(tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True, ignore_class=0)(yt, yp).numpy())\n"
            "print(tf.keras.losses.sparse_categorical_crossentropy(yt, yp, from_logits=True, ignore_class=0).numpy())\n"
            "d = tf.keras.layers.Dense(1, kernel_initializer='Ones', bias_initializer='zero')\n"
            "print(d(tf.ones([1, 2])).numpy(), isinstance(np.float64(0.1), float), isinstance(np.float32(0.1), float))\n"
            "print(tf.keras.optimizers.SGD(np.float64(0.5)).learning_rate.numpy())\n") ==
        Lines{"0.16723387", "[0.23954484 0.         0.09492292]", "[[2.]] True False", "0.5"});
}

// keras/src/optimizers/rmsprop.py: its docstring's one step (9.683772), and centered
// momentum against a NumPy float32 run of update_step's formulas.
TEST_CASE("library: RMSprop as Keras 3.7's update_step", "[library][keras]") {
  CHECK(out("opt = tf.keras.optimizers.RMSprop(learning_rate=0.1)\n"
            "var1 = tf.Variable(10.0)\n"
            "with tf.GradientTape() as t:\n"
            "  loss = (var1 ** 2) / 2.0\n"
            "opt.apply_gradients(zip(t.gradient(loss, [var1]), [var1]))\n"
            "print(var1.numpy())\n"
            "w = tf.Variable([1.0, 2.0])\n"
            "opt = tf.keras.optimizers.RMSprop(0.1, momentum=0.5, centered=True)\n"
            "for i in range(2):\n"
            "  opt.apply_gradients([(tf.constant([0.5, -1.0]), w)])\n"
            "print(w.numpy(), len(opt.variables))\n") ==
        Lines{"9.683772", "[0.24509504 2.7549062 ] 5"});
}

// tf.data streams: an infinite dataset feeds batch, map, skip and take; take(-1) is all
// of it and skip(-1) none; shuffle draws from a buffer of buffer_size elements.
TEST_CASE("library: datasets stream, so repeat() feeds the transformations after it", "[library]") {
  CHECK(out("it = iter(tf.data.Dataset.from_tensor_slices([1, 2, 3]).repeat().batch(2))\n"
            "print([next(it).numpy().tolist() for i in range(3)])\n"
            "def f(x):\n"
            "  return x * 2\n"
            "print(list(tf.data.Dataset.range(3).repeat().map(f).skip(1).take(4).as_numpy_iterator()))\n"
            "print(tf.data.Dataset.range(5).repeat().skip(2).cardinality().numpy())\n") ==
        Lines{"[[1, 2], [3, 1], [2, 3]]", "[2, 4, 0, 2]", "-1"});
  CHECK(out("ds = tf.data.Dataset.from_tensor_slices([1, 2, 3])\n"
            "print(ds.take(-1).cardinality().numpy(), ds.skip(-1).cardinality().numpy())\n"
            "print(list(ds.take(-1).as_numpy_iterator()), list(ds.skip(-1).as_numpy_iterator()))\n") ==
        Lines{"3 0", "[1, 2, 3] []"});
  // A buffer of 1 moves nothing; with a buffer of B, output i comes from the first i + B inputs.
  CHECK(out("print(list(tf.data.Dataset.range(10).shuffle(1, seed=3).as_numpy_iterator()))\n") ==
        Lines{"[0, 1, 2, 3, 4, 5, 6, 7, 8, 9]"});
  CHECK(out("a = list(tf.data.Dataset.range(20).shuffle(3, seed=5).as_numpy_iterator())\n"
            "print(sorted(a) == list(range(20)), all([a[i] < i + 3 for i in range(20)]))\n") == Lines{"True True"});
  CHECK(error_of("tf.data.Dataset.range(3).batch(0)\n") == "InvalidArgumentError: Batch size must be greater than zero.");
  CHECK(error_of("it = iter(tf.data.Dataset.range(1))\nit.get_next()\nit.get_next()\n") ==
        "OutOfRangeError: End of sequence");
}

TEST_CASE("library: dataset elements keep their keys; map outputs are tensors and lists are tuples", "[library]") {
  CHECK(out("ds = tf.data.Dataset.from_tensor_slices({'x': [1., 2.], 'label': [0, 1]})\n"
            "e = next(iter(ds))\n"
            "print(list(e.keys()), e['x'].dtype, e['label'].numpy())\n") ==
        Lines{"['x', 'label'] <dtype: 'float32'> 0"});
  CHECK(out("def i(x):\n"
            "  return (37.0, [42, 16]), 'foo'\n"
            "print(tf.data.Dataset.range(3).map(i).element_spec)\n"
            "def two(x):\n"
            "  return [x, x * 2]\n"
            "print(next(iter(tf.data.Dataset.range(3).map(two))))\n") ==
        Lines{"((TensorSpec(shape=(), dtype=tf.float32, name=None), TensorSpec(shape=(2,), dtype=tf.int32, name=None)), "
              "TensorSpec(shape=(), dtype=tf.string, name=None))",
              "(<tf.Tensor: shape=(), dtype=int64, numpy=0>, <tf.Tensor: shape=(), dtype=int64, numpy=0>)"});
}

// keras/src/initializers: every class by its name, its snake_case name and the aliases;
// get() refuses an unknown name when the layer is made, not when it is built.
TEST_CASE("keras: initializers by name, class or instance", "[library][keras]") {
  CHECK(out("d = tf.keras.layers.Dense(2, kernel_initializer='identity', use_bias=False)\n"
            "print(d(tf.constant([[1., 2.]])).numpy().tolist())\n"
            "print(tf.keras.initializers.Constant(3.0)(shape=(2,)).numpy().tolist())\n"
            "k = tf.keras.initializers.Orthogonal()(shape=(4, 3))\n"
            "print(float(tf.reduce_max(tf.abs(tf.transpose(k) @ k - tf.eye(3)))) < 1e-5)\n"
            "t = tf.keras.initializers.TruncatedNormal(stddev=1.0)(shape=(1000,))\n"
            "print(float(tf.reduce_max(tf.abs(t))) <= 2.0)\n"
            "for name in ['orthogonal', 'lecun_normal', 'lecun_uniform', 'truncated_normal', 'variance_scaling', 'HeUniform']:\n"
            "  print(type(tf.keras.initializers.get(name)).__name__)\n") ==
        Lines{"[[1.0, 2.0]]", "[3.0, 3.0]", "True", "True", "Orthogonal", "LecunNormal", "LecunUniform", "TruncatedNormal",
              "VarianceScaling", "HeUniform"});
  CHECK(error_of("tf.keras.layers.Dense(2, kernel_initializer='nope')\n") ==
        "ValueError: Could not interpret initializer identifier: nope");
  CHECK(error_of("tf.keras.initializers.Identity()(shape=(2, 2, 2))\n") ==
        "ValueError: Identity matrix initializer can only be used for 2D matrices. Received: shape=(2, 2, 2) of rank 3.");
}

TEST_CASE("keras: set_weights, Sequential.add and Flatten check what they are given", "[library][keras]") {
  const std::string d = "d = tf.keras.layers.Dense(2)\nd.build((None, 3))\n";
  CHECK(error_of(d + "d.set_weights([np.ones((3, 2))])\n") ==
        "ValueError: You called `set_weights(weights)` on layer 'dense' with a weight list of length 1, but the layer "
        "was expecting 2 weights.");
  CHECK(error_of(d + "d.set_weights([np.ones((2, 2)), np.ones(2)])\n") ==
        "ValueError: Layer dense weight shape (3, 2) is not compatible with provided weight shape (2, 2).");
  CHECK(out(d + "d.set_weights([np.ones((3, 2)), np.zeros(2)])\nprint(d(tf.ones((1, 3))).numpy().tolist())\n") ==
        Lines{"[[3.0, 3.0]]"});
  CHECK(error_of("m = tf.keras.Sequential()\nm.add(tf.keras.layers.Dense(1, name='a'))\n"
                 "m.add(tf.keras.layers.Dense(1, name='a'))\n") ==
        "ValueError: All layers added to a Sequential model should have unique names. Name 'a' is already the name of a "
        "layer in this model. Update the `name` argument to pass a unique name.");
  CHECK(error_of("tf.keras.Sequential().add(3)\n") ==
        "ValueError: Only instances of `keras.Layer` can be added to a Sequential model. Received: 3 (of type <class "
        "'int'>)");
  CHECK(error_of("tf.keras.layers.Flatten()(tf.constant(1.0))\n") ==
        "ValueError: Input 0 of layer \"flatten\" is incompatible with the layer: expected min_ndim=1, found ndim=0. Full "
        "shape received: ()");
}

TEST_CASE("keras: layers held in dicts and nested lists are tracked", "[library][keras]") {
  CHECK(out("class M(tf.keras.Model):\n"
            "  def __init__(self):\n"
            "    super().__init__()\n"
            "    self.heads = {'a': tf.keras.layers.Dense(1), 'b': [tf.keras.layers.Dense(2)]}\n"
            "    self.loop = [self.heads]\n"
            "  def call(self, x):\n"
            "    return self.heads['a'](x) + tf.reduce_sum(self.heads['b'][0](x))\n"
            "m = M()\n"
            "m(tf.ones((1, 2)))\n"
            "print(len(m.trainable_variables), [l.name for l in m.layers])\n") == Lines{"4 ['dense', 'dense_1']"});
}

TEST_CASE("library: Dataset.zip, enumerate, filter, concatenate and unbatch", "[library]") {
  CHECK(out("a = tf.data.Dataset.range(3)\n"
            "b = tf.data.Dataset.from_tensor_slices([10., 20., 30., 40.])\n"
            "z = tf.data.Dataset.zip((a, b))\n"
            "print(z.cardinality().numpy(), list(z.as_numpy_iterator()))\n"
            "print(list(b.enumerate(start=5).take(2).as_numpy_iterator()))\n"
            "def even(x):\n"
            "  return x % 2 == 0\n"
            "f = tf.data.Dataset.range(6).filter(even)\n"
            "print(list(f.as_numpy_iterator()), f.cardinality().numpy())\n"
            "print(list(a.concatenate(tf.data.Dataset.range(10, 12)).as_numpy_iterator()))\n"
            "print(list(tf.data.Dataset.range(7).batch(3).unbatch().as_numpy_iterator()))\n") ==
        Lines{"3 [(0, 10.0), (1, 20.0), (2, 30.0)]", "[(5, 10.0), (6, 20.0)]", "[0, 2, 4] -2", "[0, 1, 2, 10, 11]",
              "[0, 1, 2, 3, 4, 5, 6]"});
  CHECK(error_of("def t(x):\n  return x > 0\nlen(tf.data.Dataset.range(3).filter(t))\n") ==
        "TypeError: The dataset length is unknown.");
}

TEST_CASE("keras: fit, evaluate and predict say they are beyond tape scripts", "[library][keras]") {
  CHECK(error_of("m = tf.keras.Sequential([tf.keras.layers.Dense(1)])\nm.predict(tf.ones((2, 3)))\n") ==
        "AttributeError: 'Sequential' object has no attribute 'predict': Model.predict is not supported in tape scripts "
        "(call the model: model(x))");
}

TEST_CASE("library: dataset classes are named as TF names them", "[library]") {
  CHECK(out("print(type(tf.data.Dataset.from_tensor_slices([1, 2])).__name__, type(tf.data.Dataset.range(2)).__name__,\n"
            "      type(tf.data.Dataset.from_tensors(1)).__name__)\n"
            "print(tf.data.Dataset.range(2).batch(1, num_parallel_calls=2))\n") ==
        Lines{"_TensorSliceDataset _RangeDataset _TensorDataset",
              "<_ParallelBatchDataset element_spec=TensorSpec(shape=(None,), dtype=tf.int64, name=None)>"});
}

TEST_CASE("library: dataset cardinality follows the kernels' CardinalityInternal", "[library]") {
  CHECK(out("def even(x):\n"
            "  return x % 2 == 0\n"
            "f = tf.data.Dataset.range(6).filter(even)\n"
            "r = tf.data.Dataset.range(3)\n"
            "print(tf.data.Dataset.zip(f, r).cardinality().numpy(), f.enumerate().cardinality().numpy(),\n"
            "      f.repeat().cardinality().numpy(), f.repeat(0).cardinality().numpy(),\n"
            "      r.repeat().skip(-1).cardinality().numpy(), r.skip(-1).cardinality().numpy())\n") ==
        Lines{"-2 -2 -1 0 -1 0"});
  CHECK(error_of("tf.data.Dataset.zip()\n") == "TypeError: Must pass at least one dataset to `zip`.");
  CHECK(error_of("tf.data.Dataset.range(2).concatenate(tf.data.Dataset.from_tensor_slices([1.0]))\n").rfind(
            "TypeError: Incompatible dataset elements:", 0) == 0);
}

TEST_CASE("keras: an initializer draws the same values on every call; a seed fixes them", "[library][keras]") {
  CHECK(out("i = tf.keras.initializers.RandomNormal()\n"
            "print(bool(tf.reduce_all(i((3,)) == i((3,)))))\n"
            "a = tf.keras.initializers.GlorotUniform(seed=3)((2, 2))\n"
            "b = tf.keras.initializers.GlorotUniform(seed=3)((2, 2))\n"
            "print(bool(tf.reduce_all(a == b)))\n"
            "print(tf.keras.initializers.Constant(0.5)((2,), dtype='int32').numpy().tolist())\n") ==
        Lines{"True", "True", "[0, 0]"});
}

TEST_CASE("keras: a built layer's state is locked; add_weight keeps its dtype; a missing super().__init__() says so",
          "[library][keras]") {
  // layer_test.py test_tracker_locking: build_wrapper calls _lock_state() after building.
  CHECK(error_of("class BadLayer(tf.keras.layers.Layer):\n"
                 "  def call(self, x):\n"
                 "    self.w = self.add_weight(initializer='zeros', shape=())\n"
                 "    return x\n"
                 "BadLayer()(np.ones((3, 2)))\n")
            .find("You cannot add new elements of state (variables or sub-layers) to a layer that is already built. "
                  "All state must be created in the `__init__()` method or in the `build()` method.") !=
        std::string::npos);
  // Weights made in build() are fine, and so is a Sequential model built at once.
  CHECK(out("class Scale(tf.keras.layers.Layer):\n"
            "  def build(self, shape):\n"
            "    self.s = self.add_weight(initializer='ones', shape=())\n"
            "  def call(self, x):\n"
            "    return x * self.s\n"
            "layer = Scale()\n"
            "print(layer(tf.constant(2.0)).numpy(), layer(tf.constant(3.0)).numpy())\n") == Lines{"2.0 3.0"});
  // layer_test.py test_add_weight_defaults: zeros for non-floating dtypes, which are kept.
  CHECK(out("class MyLayer(tf.keras.layers.Layer):\n"
            "  def __init__(self):\n"
            "    super().__init__()\n"
            "    self.w1 = self.add_weight()\n"
            "    self.w2 = self.add_weight(dtype='int32', trainable=False)\n"
            "    self.w3 = self.add_weight(dtype='bool', trainable=False)\n"
            "    self.w4 = self.add_weight(dtype='int32', shape=(2, 2), trainable=False)\n"
            "layer = MyLayer()\n"
            "print(layer.w1.dtype, layer.w2.dtype, layer.w3.dtype, layer.w4.numpy().tolist())\n") ==
        Lines{"float32 int32 bool [[0, 0], [0, 0]]"});  // KerasVariable.dtype is a string
  const std::string forgot = "RuntimeError: In layer 'MyLayer', you forgot to call `super().__init__()` as the first "
                             "statement in the `__init__()` method. Go add it!";
  CHECK(error_of("class MyLayer(tf.keras.layers.Layer):\n"
                 "  def __init__(self, units):\n"
                 "    self.units = units\n"
                 "    self.w = self.add_weight(shape=(3, units), initializer='random_normal')\n"
                 "MyLayer(5)\n") == forgot);
  CHECK(error_of("class MyLayer(tf.keras.layers.Layer):\n"
                 "  def __init__(self):\n"
                 "    self.k = 2\n"
                 "  def call(self, x):\n"
                 "    return x * 2.0\n"
                 "MyLayer()(tf.ones((1, 2)))\n") == forgot);
}
