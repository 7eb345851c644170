// Variants of the autodiff guide's snippets (Keras layers, printing, the plot example)
// against real TensorFlow 2.17 with Keras 3.
#include <catch2/catch.hpp>

#include "engine/run.h"
#include "script_test_util.h"

TEST_CASE("guide variants: the plot snippet uses plt without importing it, as the guide's setup does", "[guide]") {
  // The guide imports matplotlib.pyplot as plt once, in its setup cell; the sigmoid
  // snippet then calls plt.plot / plt.legend / plt.xlabel. Like tf and np, plt is implied.
  CHECK(out("x = tf.linspace(-10.0, 10.0, 200+1)\n"
            "with tf.GradientTape() as tape:\n"
            "  tape.watch(x)\n"
            "  y = tf.nn.sigmoid(x)\n"
            "dy_dx = tape.gradient(y, x)\n"
            "plt.plot(x, y, label='y')\n"
            "plt.plot(x, dy_dx, label='dy/dx')\n"
            "plt.legend()\n"
            "_ = plt.xlabel('x')\n"
            "print(x.shape, dy_dx[100])\n") ==
        Lines{"(201,) tf.Tensor(0.25, shape=(), dtype=float32)"});
  // An explicit import still works, and a script may rebind the name.
  CHECK(out("import matplotlib.pyplot as plt\nplt.title('t')\nplt = 3\nprint(plt)\n") == Lines{"3"});
}

TEST_CASE("guide variants: a Keras variable's dtype is a string, a tensor's is a tf.DType", "[guide][keras]") {
  // Keras 3's Variable.dtype returns standardize_dtype(...): the string 'float32'.
  CHECK(out("layer = tf.keras.layers.Dense(2)\n"
            "y = layer(tf.constant([[1., 2., 3.]]))\n"
            "print(layer.kernel.dtype, repr(layer.bias.dtype), layer.kernel.dtype == tf.float32)\n"
            "print(y.dtype, tf.Variable(1.0).dtype)\n"
            "print(tf.cast(1, layer.kernel.dtype))\n") ==
        Lines{"float32 'float32' True", "<dtype: 'float32'> <dtype: 'float32'>",
              "tf.Tensor(1.0, shape=(), dtype=float32)"});
}

TEST_CASE("guide variants: tf.print formats tensors inside lists, tuples and dicts", "[guide][print]") {
  // print_v2 pformats each non-string argument with its tensors as placeholders: the
  // docstring's example, then sorted dict keys, quoted strings inside a structure.
  CHECK(out("tensor = tf.range(10)\n"
            "tf.print('tensors:', tensor, {2: tensor * 2})\n"
            "tf.print([1, 2], {'b': tf.constant(1), 'a': 'q'})\n"
            "tf.print((tf.constant(1.5),), [tf.constant([1., 2.]), 'z'])\n") ==
        Lines{"tensors: [0 1 2 ... 7 8 9] {2: [0 2 4 ... 14 16 18]}", "[1, 2] {'a': 'q', 'b': 1}",
              "(1.5,) [[1 2], 'z']"});
}

TEST_CASE("guide variants: a Dense layer's kernel before the layer is built", "[guide][keras]") {
  // Keras 3's Dense.kernel is a property that refuses an unbuilt layer; bias is a plain
  // attribute that build() creates.
  CHECK(out("layer = tf.keras.layers.Dense(2)\n"
            "try:\n"
            "  print(layer.kernel)\n"
            "except AttributeError as e:\n"
            "  print(f'{type(e).__name__}: {e}')\n"
            "print(hasattr(layer, 'kernel'), hasattr(layer, 'bias'))\n"
            "layer(tf.constant([[1., 2.]]))\n"
            "print(layer.kernel.path, layer.kernel.shape, [v.name for v in layer.trainable_variables])\n") ==
        Lines{"AttributeError: You must build the layer before accessing `kernel`.", "False False",
              "dense/kernel (2, 2) ['kernel', 'bias']"});
}

TEST_CASE("guide variants: float16 is a floating dtype the tape records, printed with half's shortest digits",
          "[guide][dtype]") {
  // TF's tape records float16 ops (it is in the trainable dtypes); NumPy prints a half
  // with the fewest digits that round-trip in half precision (0.1, not 0.099975586).
  CHECK(out("x = tf.constant(3.0, dtype=tf.float16)\n"
            "with tf.GradientTape() as tape:\n"
            "  tape.watch(x)\n"
            "  y = x * x + 0.1\n"
            "print(y)\n"
            "print(tape.gradient(y, x))\n"
            "print(tf.constant([0.1, 0.5], tf.half), tf.constant(1e-5, tf.float16))\n"
            "print(repr(tf.constant([0.1, 1/3, 65504.0, 1e-5], tf.float16).numpy()))\n"
            "print(tf.cast(tf.constant(70000.0), tf.float16), np.float16(0.1), x.dtype, x.dtype.is_floating)\n") ==
        Lines{"tf.Tensor(9.1, shape=(), dtype=float16)", "tf.Tensor(6.0, shape=(), dtype=float16)",
              "tf.Tensor([0.1 0.5], shape=(2,), dtype=float16) tf.Tensor(1e-05, shape=(), dtype=float16)",
              // exp mode pads every element to the longest unique digits (0.3333 -> 4).
              "array([9.998e-02, 3.333e-01, 6.550e+04, 1.001e-05], dtype=float16)",
              "tf.Tensor(inf, shape=(), dtype=float16) 0.1 <dtype: 'float16'> True"});
  // Mixing with float32 is TF's dtype error, with the kernel's name for half.
  CHECK(out("try:\n"
            "  tf.constant(1.0, tf.float16) * tf.constant(1.0)\n"
            "except tf.errors.InvalidArgumentError as e:\n"
            "  print(e)\n")
            .at(0)
            .find("was expected to be a half tensor but is a float tensor") != std::string::npos);
  // A float16 variable is watched automatically and gets a float16 gradient.
  CHECK(out("v = tf.Variable([1.5, 2.0], dtype=tf.float16)\n"
            "with tf.GradientTape() as t:\n"
            "  z = tf.reduce_sum(v * v)\n"
            "print(t.gradient(z, v), [w.name for w in t.watched_variables()])\n") ==
        Lines{"tf.Tensor([3. 4.], shape=(2,), dtype=float16) ['Variable:0']"});
}

TEST_CASE("guide variants: freezing a Keras layer freezes its variables, not the tape's watching", "[guide][keras]") {
  // Keras 3.7's Layer.trainable setter sets the flag on the variables it created
  // trainable and on sublayers; the parent model's lists follow. The tf.Variable inside
  // each Keras variable keeps trainable=True, so the tape still watches all four.
  CHECK(out("class M(tf.keras.Model):\n"
            "  def __init__(self):\n"
            "    super().__init__()\n"
            "    self.base = tf.keras.layers.Dense(2)\n"
            "    self.head = tf.keras.layers.Dense(1)\n"
            "  def call(self, x):\n"
            "    return self.head(self.base(x))\n"
            "m = M()\n"
            "x = tf.constant([[1., 2.]])\n"
            "m(x)\n"
            "m.base.trainable = False\n"
            "print([v.path for v in m.trainable_variables], [v.path for v in m.non_trainable_variables])\n"
            "print(m.base.kernel.trainable, m.head.kernel.trainable)\n"
            "with tf.GradientTape() as tape:\n"
            "  y = m(x)\n"
            "print(len(tape.watched_variables()), len(tape.gradient(y, m.trainable_variables)))\n"
            // frozen before build: _track_variable freezes the new variables
            "d = tf.keras.layers.Dense(3)\n"
            "d.trainable = False\n"
            "d.build((None, 2))\n"
            "print(d.kernel.trainable, len(d.trainable_weights), len(d.weights))\n"
            "d.trainable = True\n"
            "print(d.kernel.trainable, len(d.trainable_weights))\n") ==
        Lines{"['m/dense_1/kernel', 'm/dense_1/bias'] ['m/dense/kernel', 'm/dense/bias']", "False True", "4 2",
              "False 0 2", "True 2"});
  // A tf.Variable's trainable is a read-only property.
  CHECK(out("v = tf.Variable(1.0)\n"
            "try:\n"
            "  v.trainable = False\n"
            "except AttributeError as e:\n"
            "  print(e)\n") == Lines{"property 'trainable' of 'ResourceVariable' object has no setter"});
}

TEST_CASE("guide variants: tf.Module finds variables inside dicts, in tf.nest order, submodules last",
          "[guide][module]") {
  // module.py _flatten_module: sorted attributes, each flattened as tf.nest does (dict
  // keys sorted), every object once, and the submodules walked after the module's own.
  CHECK(out("class M(tf.Module):\n"
            "  def __init__(self):\n"
            "    super().__init__()\n"
            "    self.t = tf.Variable(1.0, name='t0')\n"
            "    self.d = {'k': tf.Variable(2.0, name='dk'), 'a': tf.Variable(3.0, name='da')}\n"
            "    self.same = self.t\n"
            "class Outer(tf.Module):\n"
            "  def __init__(self):\n"
            "    super().__init__()\n"
            "    self.a_inner = M()\n"
            "    self.z = tf.Variable(4.0, name='z')\n"
            "    self.frozen = tf.Variable(5.0, name='f', trainable=False)\n"
            "m = M()\n"
            "o = Outer()\n"
            "print([v.name for v in m.trainable_variables])\n"
            "print([v.name for v in o.trainable_variables], [v.name for v in o.variables])\n"
            "with tf.GradientTape() as tape:\n"
            "  y = m.t * m.d['k'] + m.d['a']\n"
            "print([g.numpy() for g in tape.gradient(y, m.trainable_variables)])\n") ==
        Lines{"['da:0', 'dk:0', 't0:0']", "['z:0', 'da:0', 'dk:0', 't0:0'] ['f:0', 'z:0', 'da:0', 'dk:0', 't0:0']",
              "[1.0, 1.0, 2.0]"});
}

TEST_CASE("guide variants: string tensors add; Keras loss functions give one value per sample", "[guide]") {
  // math_ops._add_dispatch sends strings to the Add op, which concatenates; the loss
  // functions (keras/src/losses/losses.py) average over the last axis only.
  CHECK(out("print(tf.constant('a') + tf.constant('a'), tf.add(tf.constant(['x', 'y']), 'z'))\n"
            "@tf.function\n"
            "def double(a):\n"
            "  return a + a\n"
            "print(double(tf.constant('a')))\n"
            "y_true, y_pred = [[0., 1.], [1., 1.]], [[1., 1.], [1., 0.]]\n"
            "print(tf.keras.losses.mean_squared_error(y_true, y_pred), tf.keras.losses.mae(y_true, y_pred))\n"
            "print(tf.keras.losses.MeanSquaredError()(y_true, y_pred))\n") ==
        Lines{"tf.Tensor(b'aa', shape=(), dtype=string) tf.Tensor([b'xz' b'yz'], shape=(2,), dtype=string)",
              "tf.Tensor(b'aa', shape=(), dtype=string)",
              "tf.Tensor([0.5 0.5], shape=(2,), dtype=float32) tf.Tensor([0.5 0.5], shape=(2,), dtype=float32)",
              "tf.Tensor(0.5, shape=(), dtype=float32)"});
}

TEST_CASE("guide variants: a Keras Dense layer casts float inputs to its dtype and checks its input spec", "[variants]") {
  // Keras 3.7's Layer.__call__ casts floating inputs (arrays converted first) to the
  // compute dtype and leaves integers to ops.matmul, which casts them to the kernel's.
  CHECK(out("import numpy as np\n"
            "layer = tf.keras.layers.Dense(2, kernel_initializer='ones')\n"
            "print(layer(tf.constant([[1., 2., 3.]], dtype=tf.float64)).numpy(), layer(np.array([[1., 2., 3.]])).dtype)\n"
            "print(layer(tf.constant([[1, 2, 3]])).numpy())\n"
            "x = tf.Variable([[1., 2., 3.]], dtype=tf.float64)\n"
            "with tf.GradientTape() as tape:\n"
            "  y = tf.reduce_sum(layer(x))\n"
            "print(tape.gradient(y, x))\n"
            "l64 = tf.keras.layers.Dense(2, kernel_initializer='ones', dtype='float64')\n"
            "print(l64(tf.constant([[1., 1.]])).dtype, l64.kernel.dtype, l64.dtype)\n"
            "print(tf.keras.layers.Dense(3).activation.__name__)\n") ==
        Lines{"[[6. 6.]] <dtype: 'float32'>", "[[6. 6.]]", "tf.Tensor([[2. 2. 2.]], shape=(1, 3), dtype=float64)",
              "<dtype: 'float64'> float64 float64", "linear"});
  CHECK(error_of("tf.keras.layers.Dense(2)(tf.constant([1., 2., 3.]))\n") ==
        "ValueError: Input 0 of layer \"dense\" is incompatible with the layer: expected min_ndim=2, found ndim=1. "
        "Full shape received: (3,)");
  CHECK(error_of("d = tf.keras.layers.Dense(2)\nd(tf.ones((1, 3)))\nd(tf.ones((1, 2)))\n") ==
        "ValueError: Input 0 of layer \"dense\" is incompatible with the layer: expected axis -1 of input shape to "
        "have value 3, but received input with shape (1, 2)");
}

TEST_CASE("guide variants: Keras activations by name, and the tf.nn ones they use", "[variants]") {
  CHECK(out("for a in ['gelu', 'swish', 'selu', 'relu6', 'softsign', 'mish', 'hard_sigmoid', 'exponential']:\n"
            "  d = tf.keras.layers.Dense(1, activation=a, kernel_initializer='ones', use_bias=False)\n"
            "  print(a, d.activation.__name__, d(tf.constant([[0.5, -1.0]])).numpy())\n"
            "print(tf.nn.tanh(0.5).numpy(), tf.math.erf(0.5).numpy(), tf.nn.gelu(1.0, approximate=True).numpy())\n") ==
        Lines{"gelu gelu [[-0.15426877]]", "swish silu [[-0.18877034]]", "selu selu [[-0.69175816]]",
              "relu6 relu6 [[0.]]", "softsign softsign [[-0.33333334]]", "mish mish [[-0.22074378]]",
              "hard_sigmoid hard_sigmoid [[0.41666666]]", "exponential exponential [[0.60653067]]",
              "0.46211717 0.5204999 0.841192"});
  CHECK(error_of("tf.keras.layers.Dense(1, activation='nope')\n") ==
        "ValueError: Could not interpret activation function identifier: nope");
  // erf's gradient, 2/sqrt(pi) exp(-x^2), through gelu
  CHECK(out("x = tf.constant(1.0)\n"
            "with tf.GradientTape() as t:\n"
            "  t.watch(x)\n"
            "  y = tf.nn.gelu(x)\n"
            "print(t.gradient(y, x).numpy())\n") == Lines{"1.0833155"});
}

TEST_CASE("guide variants: tf.matmul converts `a` alone and `b` with a's dtype as a hint", "[variants]") {
  CHECK(error_of("import numpy as np\nw = tf.Variable(tf.ones((3, 2)))\ntf.matmul(np.array([[1., 2., 3.]]), w)\n") ==
        "InvalidArgumentError: cannot compute MatMul as input #1(zero-based) was expected to be a double tensor but "
        "is a float tensor [Op:MatMul] name: ");
  CHECK(out("import numpy as np\nw = tf.Variable(tf.ones((2, 3)))\nprint(tf.matmul(w, np.ones((3, 1))).numpy().T, "
            "(np.array([[1., 2.]]) @ w).dtype)\n") == Lines{"[[3. 3.]] <dtype: 'float32'>"});
  CHECK(out("print(tf.linspace(0, 10, 3))\n") == Lines{"tf.Tensor([ 0.  5. 10.], shape=(3,), dtype=float64)"});
}

TEST_CASE("guide variants: list ops name themselves in eager errors", "[variants]") {
  CHECK(error_of("tf.concat([tf.ones([2, 2]), tf.ones([3])], 0)\n") ==
        "InvalidArgumentError: {{function_node __wrapped__ConcatV2_N_2_device_/job:localhost/replica:0/task:0/device:"
        "CPU:0}} ConcatOp : Ranks of all input tensors should match: shape[0] = [2,2] vs. shape[1] = [3] [Op:ConcatV2] "
        "name: concat");
  CHECK(error_of("tf.stack([tf.ones([2]), tf.ones([3])])\n") ==
        "InvalidArgumentError: {{function_node __wrapped__Pack_N_2_device_/job:localhost/replica:0/task:0/device:CPU:0}} "
        "Shapes of all inputs must match: values[0].shape = [2] != values[1].shape = [3] [Op:Pack] name: stack");
}
