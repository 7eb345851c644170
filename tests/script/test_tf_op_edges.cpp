// Ops at the points TF's gradient tests probe: kinks, saturation, values near 0, infinities.
// Each follows TF's own kernel (relu6/selu/elu/leaky_relu/softplus/log1p/...) or the
// Python TF composes it in (reduce_logsumexp, norm, clip_by_global_norm).
#include <catch2/catch.hpp>

#include "script_test_util.h"

// Values checked against TF's kernels computed in float32 (NumPy float32 arithmetic):
// SeluGrad at -3 is (scale_alpha·(exp(-3) - 1) + scale_alpha) = 0.08753061; EluGrad at
// -23 and -20 is 0 because exp(x) - 1 rounds to -1 in float32.
TEST_CASE("op edges: activation gradients at their kinks follow TF's fused gradient ops", "[op-edges]") {
  CHECK(out("x = tf.constant([0., 3., 6.])\n"
            "with tf.GradientTape(persistent=True) as t:\n"
            "  t.watch(x)\n"
            "  r6 = tf.nn.relu6(x)\n"
            "  s = tf.nn.selu(x - 3.)\n"
            "  e = tf.nn.elu(x - 23.)\n"
            "  l = tf.nn.leaky_relu(x - 3., alpha=2.0)\n"
            "print(t.gradient(r6, x).numpy())\n"
            "print(t.gradient(s, x).numpy())\n"
            "print(t.gradient(e, x).numpy())\n"
            "print(l.numpy(), t.gradient(l, x).numpy())\n"
            "print(tf.nn.leaky_relu([1, -2]).numpy())\n") ==
        Lines{"[0. 1. 0.]", "[0.08753061 1.050701   1.050701  ]", "[0.0000000e+00 0.0000000e+00 5.9604645e-08]",
              "[-6.  0.  3.] [2. 2. 1.]", "[ 1.  -0.4]"});
}

TEST_CASE("op edges: log1p, expm1, sinh and softplus are exact where a composite rounds", "[op-edges]") {
  CHECK(out("x = tf.constant([1e-10, 1e-5])\n"
            "print(tf.math.log1p(x).numpy(), tf.math.expm1(x).numpy(), tf.sinh(x).numpy())\n"
            "print(tf.nn.softplus([14., 16., -20.]).numpy())\n"
            "print(tf.nn.sigmoid_cross_entropy_with_logits(labels=[1., 0.], logits=[20., -20.]).numpy())\n"
            "print(tf.math.atan2(1., -1.).numpy(), tf.math.asinh(1.).numpy(), tf.math.atanh(0.5).numpy())\n") ==
        Lines{"[1.00000e-10 9.99995e-06] [1.000000e-10 1.000005e-05] [1.e-10 1.e-05]",
              "[1.4000000e+01 1.6000000e+01 2.0611537e-09]",
              "[2.0611537e-09 2.0611537e-09]",
              "2.3561945 0.8813736 0.54930615"});
  CHECK(error_of("tf.nn.sigmoid_cross_entropy_with_logits(labels=[1., 0., 1.], logits=[[1.], [2.]])\n") ==
        "ValueError: `logits` and `labels` must have the same shape, received ((2, 1) vs (3,)).");
}

TEST_CASE("op edges: logsumexp, norms and global-norm clipping with TF's guards", "[op-edges]") {
  CHECK(out("inf = float('inf')\n"
            "print(tf.reduce_logsumexp([-inf, -inf]).numpy(), tf.reduce_logsumexp([inf, 1.]).numpy())\n"
            "m = tf.constant([[1., -2.], [3., 4.]])\n"
            "print(tf.norm(m, ord=1, axis=[0, 1]).numpy(), tf.norm(m, ord=inf, axis=[0, 1]).numpy())\n"
            "print(tf.norm(m, axis=[0, 1]).numpy(), tf.norm([1., 2.], ord=3).numpy(), tf.norm(m, ord=1, axis=1).numpy())\n"
            "clipped, n = tf.clip_by_global_norm([[1., inf]], 1.)\n"
            "print(clipped[0].numpy(), n.numpy())\n") ==
        Lines{"-inf inf", "6.0 7.0", "5.477226 2.0800838 [3. 7.]", "[nan nan] inf"});
  CHECK(error_of("tf.norm([1., 2.], ord=-1)\n") == "ValueError: 'ord' must be a supported vector norm, got -1");
  CHECK(error_of("tf.norm(tf.ones([2, 2]), ord=2, axis=[0, 1])\n").find("is not supported in tape scripts") !=
        std::string::npos);
}

TEST_CASE("op edges: float32 sums round as they add, in TF's and NumPy's order", "[op-edges]") {
  // TF's Eigen adds fewer than 8 values one by one in float32: 1.1 + 2.2 + 3.3 is
  // 6.6000004. NumPy's pairwise sum gives the same for short arrays; for 11 values its
  // 8 accumulators give 6.6; ten float64 0.1s sum to 1.0, where Python's sequential sum
  // gives 0.9999999999999999 (all checked against NumPy 1.24 here).
  CHECK(out("print(tf.reduce_sum(tf.constant([1.1, 2.2, 3.3])))\n"
            "print(np.sum(np.array([1.1, 2.2, 3.3], dtype=np.float32)))\n"
            "x = np.array([0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0, 1.1], dtype=np.float32)\n"
            "print(np.sum(x))\n"
            "m = np.arange(1, 13, dtype=np.float32).reshape(3, 4) / np.float32(7)\n"
            "print(m.sum(0), m.sum(1), m.sum())\n"
            "print(np.sum(np.full(10, 0.1)), sum([0.1] * 10), np.sum(np.arange(20, dtype=np.float64) / 3.0))\n") ==
        Lines{"tf.Tensor(6.6000004, shape=(), dtype=float32)", "6.6000004", "6.6",
              "[2.142857  2.5714288 3.        3.4285717] [1.4285715 3.7142859 6.       ] 11.142857",
              "1.0 0.9999999999999999 63.333333333333336"});
}

TEST_CASE("op edges: a float32 matmul accumulates in float32, a float64 one in float64", "[op-edges]") {
  // 1e8 + 1 is 1e8 in float32, so the float32 product loses the 1 that float64 keeps.
  CHECK(out("a = [[1e8, 1.0, -1e8]]\n"
            "b = [[1.0], [1.0], [1.0]]\n"
            "print(tf.matmul(a, b).numpy(), tf.matmul(tf.constant(a, tf.float64), tf.constant(b, tf.float64)).numpy())\n") ==
        Lines{"[[0.]] [[1.]]"});
}

// From a probe of TF's reduction, clip, nn and array tests (reduction_ops_test's
// _compareAllAxes includes axis=(); clip_ops_test.testClipByValueBadShape;
// sparse_xent_op_test_base; array_ops.one_hot's dtype rules; nn_ops._wrap_2d_function).
TEST_CASE("op edges: an empty axis list reduces nothing; axis=None reduces all", "[op-edges]") {
  CHECK(out("x = tf.constant([[1., 2.], [3., 0.]])\n"
            "print(tf.reduce_sum(x, axis=[]).numpy().tolist(), tf.reduce_max(x, axis=(), keepdims=True).shape)\n"
            "print(tf.reduce_mean(x, axis=None).numpy(), np.sum(np.array([1., 2.]), axis=()).tolist())\n"
            "with tf.GradientTape() as t:\n"
            "  t.watch(x)\n"
            "  y = tf.reduce_max(x, axis=[])\n"
            "print(t.gradient(y, x).numpy().tolist())\n") ==
        Lines{"[[1.0, 2.0], [3.0, 0.0]] (2, 2)", "1.5 [1.0, 2.0]", "[[1.0, 1.0], [1.0, 1.0]]"});
  CHECK(error_of("tf.math.reduce_variance([1, 2, 4])\n") ==
        "TypeError: Input must be either real or complex. Received integer type <dtype: 'int32'>.");
}

TEST_CASE("op edges: clip_by_value refuses bounds that would broadcast t to another shape", "[op-edges]") {
  CHECK(error_of("x = tf.constant([-5., 2., 3., 4., 5., 6.], shape=[3, 2, 1])\n"
                 "clip = tf.constant([1., 2.])\n"
                 "tf.clip_by_value(x, -clip, clip)\n") ==
        "ValueError: Shapes (3, 2, 1) and (3, 2, 2) are incompatible");
}

TEST_CASE("op edges: one_hot takes its dtype from on_value/off_value and checks they agree", "[op-edges]") {
  CHECK(out("print(tf.one_hot([0, 2], 3, on_value=5, off_value=-1).dtype, tf.one_hot([0], 2).dtype)\n"
            "print(tf.one_hot([1], 2, off_value=2.0, dtype=tf.float64).numpy())\n") ==
        Lines{"<dtype: 'int32'> <dtype: 'float32'>", "[[2. 1.]]"});
  CHECK(error_of("tf.one_hot([0], 3, on_value=1.0, dtype=tf.int32)\n") ==
        "TypeError: dtype <dtype: 'float32'> of on_value does not match dtype parameter <dtype: 'int32'>");
  CHECK(error_of("tf.one_hot([0], 3, on_value=5, off_value=0.)\n") ==
        "TypeError: dtype <dtype: 'int32'> of on_value does not match dtype <dtype: 'float32'> of off_value");
}

TEST_CASE("op edges: softmax cross-entropies follow TF's kernels and checks", "[op-edges]") {
  // nn_ops' docstring example, to the last float32 digit of the fused kernel.
  CHECK(out("logits = tf.constant([[4.0, 2.0, 1.0], [0.0, 5.0, 1.0]])\n"
            "labels = tf.constant([[1.0, 0.0, 0.0], [0.0, 0.8, 0.2]])\n"
            "print(tf.nn.softmax_cross_entropy_with_logits(labels=labels, logits=logits).numpy())\n") ==
        Lines{"[0.16984604 0.82474494]"});
  CHECK(error_of("tf.nn.sparse_softmax_cross_entropy_with_logits(labels=[0, 3], logits=[[4., 2., 1.], [0., 5., 1.]])\n") ==
        "InvalidArgumentError: {{function_node __wrapped__SparseSoftmaxCrossEntropyWithLogits_device_/job:localhost/"
        "replica:0/task:0/device:CPU:0}} Received a label value of 3 which is outside the valid range of [0, 3).  "
        "Label values: 0 3 [Op:SparseSoftmaxCrossEntropyWithLogits] name: ");
  CHECK(error_of("tf.nn.sparse_softmax_cross_entropy_with_logits(labels=[[0, 2]], logits=[[0., 1.], [2., 3.], [2., 3.]])\n") ==
        "ValueError: `labels.shape.rank` must equal `logits.shape.rank - 1`. Received: labels.shape=(1, 2) of rank 2 "
        "and logits.shape=(3, 2) of rank 2");
  CHECK(error_of("tf.nn.sparse_softmax_cross_entropy_with_logits(labels=tf.constant(0), logits=tf.constant(1.0))\n")
            .rfind("ValueError: `logits` cannot be a scalar.", 0) == 0);
  CHECK(error_of("tf.nn.softmax(tf.ones([2, 2]), axis=2)\n") ==
        "InvalidArgumentError: `dim` must be in the range [-2, 2) where 2 is the number of dimensions in the input. "
        "Received: dim=2");
  CHECK(error_of("tf.nn.softmax(tf.constant(3.))\n") ==
        "InvalidArgumentError: {{function_node __wrapped__Softmax_device_/job:localhost/replica:0/task:0/device:CPU:0}} "
        "logits must have >= 1 dimension, got [] [Op:Softmax] name: ");
}

TEST_CASE("op edges: errors TF raises before or inside the op, as it raises them", "[op-edges]") {
  CHECK(error_of("x = tf.ones([2, 3])\ntf.stack([x, x], axis=4)\n") == "ValueError: Argument `axis` = 4 not in range [-3, 3)");
  CHECK(error_of("x = tf.ones([3])\nx[::0]\n") ==
        "InvalidArgumentError: {{function_node __wrapped__StridedSlice_device_/job:localhost/replica:0/task:0/device:"
        "CPU:0}} strides[0] must be non-zero [Op:StridedSlice] name: strided_slice/");
  CHECK(error_of("np.ones(3)[::0]\n") == "ValueError: slice step cannot be zero");
  CHECK(error_of("tf.tile(tf.ones([1, 2]), [-1, 1])\n") ==
        "InvalidArgumentError: {{function_node __wrapped__Tile_device_/job:localhost/replica:0/task:0/device:CPU:0}} "
        "Expected multiples[0] >= 0, but got -1 [Op:Tile] name: ");
}

// tf.math.tanh's docstring example, digit for digit: TF's float32 kernel is Eigen's fast
// rational tanh (exactly ±1 beyond about 7.9), not a correctly rounded one.
TEST_CASE("op edges: float32 tanh is Eigen's fast tanh, saturating with a zero gradient", "[op-edges]") {
  CHECK(out("print(repr(tf.math.tanh([-float('inf'), -5, -0.5, 1, 1.2, 2, 3, float('inf')])))\n"
            "x = tf.constant([9.0, -9.0])\n"
            "with tf.GradientTape() as t:\n"
            "  t.watch(x)\n"
            "  y = tf.tanh(x)\n"
            "print(y.numpy(), t.gradient(y, x).numpy())\n") ==
        Lines{"<tf.Tensor: shape=(8,), dtype=float32, numpy=",
              "array([-1.        , -0.99990916, -0.46211717,  0.7615942 ,  0.8336547 ,",
              "        0.9640276 ,  0.9950547 ,  1.        ], dtype=float32)>", "[ 1. -1.] [0. 0.]"});
}

TEST_CASE("op edges: xlog1py and realdiv exist; bools do not divide (_TRUEDIV_TABLE)", "[op-edges]") {
  CHECK(out("x = tf.constant([0., 1., 2.])\n"
            "y = tf.constant([1., 2., 3.])\n"
            "with tf.GradientTape(persistent=True) as t:\n"
            "  t.watch([x, y])\n"
            "  z = tf.math.xlog1py(x, y)\n"
            "print(z.numpy(), [g.numpy() for g in t.gradient(z, [x, y])])\n"
            "print(tf.realdiv(7., 2.).numpy(), tf.realdiv(7, 2).numpy())\n") ==
        Lines{"[0.        1.0986123 2.7725887] [array([0.       , 1.0986123, 1.3862944], dtype=float32), "
              "array([0.        , 0.33333334, 0.5       ], dtype=float32)]",
              "3.5 3"});
  const std::string table = ". Expected one of {tf.uint8, tf.int8, tf.uint16, tf.int16, tf.uint32, tf.int32, tf.uint64, "
                            "tf.int64, tf.bfloat16, tf.float16, tf.float32, tf.float64, tf.complex64, tf.complex128}.";
  CHECK(error_of("tf.math.divide_no_nan(tf.constant([True]), tf.constant([True]))\n") ==
        "TypeError: Invalid dtype tf.bool in tf.math.divide_no_nan" + table);
  CHECK(error_of("tf.divide(tf.constant([True]), tf.constant([True]))\n") ==
        "TypeError: Invalid dtype tf.bool in __truediv__" + table);
  CHECK(error_of("tf.constant([True]) / tf.constant([True])\n") == "TypeError: Invalid dtype tf.bool in __truediv__" + table);
}

// array_ops.boolean_mask and _slice_helper's bool keys; tf.IndexedSlices for isinstance.
TEST_CASE("op edges: boolean masks as tf.boolean_mask and as subscripts; tf.IndexedSlices", "[op-edges]") {
  CHECK(out("x = tf.constant([[1., 2.], [3., 4.], [5., 6.]])\n"
            "with tf.GradientTape() as t:\n"
            "  t.watch(x)\n"
            "  y = x[x > 2.5]\n"
            "print(y.numpy(), t.gradient(y, x).numpy().tolist())\n"
            "print(tf.boolean_mask(x, [True, False, True]).numpy().tolist())\n"
            "print(tf.boolean_mask(x, [True, False], axis=1).numpy().tolist())\n"
            "p = tf.constant([[1., 2.], [3., 4.], [5., 6.]])\n"
            "with tf.GradientTape() as t:\n"
            "  t.watch(p)\n"
            "  y = tf.gather(p, [0, 2, 2])\n"
            "g = t.gradient(y, p)\n"
            "s = tf.IndexedSlices(tf.constant([[1., 1.], [2., 2.]]), tf.constant([0, 0]), tf.constant([3, 2]))\n"
            "print(isinstance(g, tf.IndexedSlices), isinstance(p, tf.IndexedSlices), tf.convert_to_tensor(s).numpy().tolist())\n") ==
        Lines{"[3. 4. 5. 6.] [[0.0, 0.0], [1.0, 1.0], [1.0, 1.0]]", "[[1.0, 2.0], [5.0, 6.0]]", "[[1.0], [3.0], [5.0]]",
              "True False [[3.0, 3.0], [0.0, 0.0], [0.0, 0.0]]"});
  CHECK(error_of("x = tf.ones([3])\nx[True]\n") == "ValueError: mask cannot be scalar.");
  CHECK(error_of("tf.boolean_mask(tf.ones([3, 2]), [True, False])\n") == "ValueError: Shapes (3,) and (2,) are incompatible");
  CHECK(error_of("tf.Variable([1., 2.]).scatter_nd_update([[0]], [5.])\n") ==
        "AttributeError: 'ResourceVariable' object has no attribute 'scatter_nd_update': tf.Variable.scatter_nd_update is "
        "not supported in tape scripts");
}

// kernel_and_device.cc runs eager kernels under ScopedFlushDenormal (denormal_test):
// a result below the smallest normal number is 0; a constant keeps its value.
TEST_CASE("op edges: kernels flush denormal results to zero; reduce_prod over nothing stays connected", "[op-edges]") {
  CHECK(out("print(0.1 * tf.constant(1.1754944e-38, shape=()))\n"
            "print(tf.sigmoid(tf.constant(-100.)).numpy(), tf.nn.softplus(tf.constant(-100.)).numpy())\n"
            "print(tf.constant(1e-45).numpy(), (tf.constant(1e-310, tf.float64) * 1.0).numpy())\n"
            "x = tf.zeros([2, 0])\n"
            "with tf.GradientTape() as t:\n"
            "  t.watch(x)\n"
            "  y = tf.reduce_prod(x, axis=1)\n"
            "print(y.numpy(), t.gradient(y, x).shape)\n") ==
        Lines{"tf.Tensor(0.0, shape=(), dtype=float32)", "0.0 0.0", "1e-45 0.0", "[1. 1.] (2, 0)"});
}

TEST_CASE("op edges: softsign, tan and l2_loss are TF's kernels", "[op_edges]") {
  // SoftsignGrad has no gradient registered (nn_grad.py registers only Softsign's).
  CHECK(error_of("x = tf.constant([0.5, 6.0])\n"
                 "with tf.GradientTape() as t2:\n"
                 "  t2.watch(x)\n"
                 "  with tf.GradientTape() as t1:\n"
                 "    t1.watch(x)\n"
                 "    y = tf.nn.softsign(x)\n"
                 "  g = t1.gradient(y, x)\n"
                 "print(t2.gradient(g, x))\n") == "LookupError: gradient registry has no entry for: SoftsignGrad");
  CHECK(out("x = tf.constant([0.5, 6.0])\n"
            "with tf.GradientTape() as t:\n"
            "  t.watch(x)\n"
            "  y = tf.math.softsign(x)\n"
            "print(t.gradient(y, x).numpy().tolist())\n") == Lines{"[0.4444444477558136, 0.020408162847161293]"});
  // std::tan of the float32 inputs, rounded once (as numpy.tan of float32 gives).
  CHECK(out("print(tf.math.tan([0.7, 3.0]).numpy().tolist())\n") == Lines{"[0.8422883749008179, -0.14254654943943024]"});
  CHECK(error_of("tf.nn.l2_loss(tf.constant([1, 2]))\n").rfind(
            "InvalidArgumentError: Value for attr 'T' of int32 is not in the list of allowed values", 0) == 0);
  CHECK(out("print(tf.nn.l2_loss([1.0, 2.0, 3.0]).numpy())\n") == Lines{"7.0"});
  // nn_impl.py converts labels without a cast: int labels meet float logits at Mul.
  CHECK(error_of("tf.nn.sigmoid_cross_entropy_with_logits(labels=[0, 1], logits=[1.0, 2.0])\n") ==
        "InvalidArgumentError: cannot compute Mul as input #1(zero-based) was expected to be a float tensor but is a "
        "int32 tensor [Op:Mul] name: ");
}

TEST_CASE("op edges: relu keeps -0.0 and NaN, as Eigen's cwiseMax(0)", "[op_edges]") {
  CHECK(out("print(tf.nn.relu([-0.0, float('nan'), -1.0, 2.0]))\n") ==
        Lines{"tf.Tensor([-0. nan  0.  2.], shape=(4,), dtype=float32)"});
}

TEST_CASE("op edges: a string tensor's numpy() is an object array of bytes", "[op_edges]") {
  // ndarray_tensor.cc: TF_STRING converts to NPY_OBJECT holding Python bytes.
  CHECK(out("a = tf.constant(['ab', 'c'])\n"
            "n = a.numpy()\n"
            "print(repr(n), n.dtype, repr(n.dtype), type(n[0]).__name__)\n"
            "print([x.decode() for x in n], tf.constant('x').numpy().decode('ascii'))\n") ==
        Lines{"array([b'ab', b'c'], dtype=object) object dtype('O') bytes", "['ab', 'c'] x"});
  CHECK(error_of("tf.constant('\\xff').numpy().decode('ascii')\n") ==
        "UnicodeDecodeError: 'ascii' codec can't decode byte 0xc3 in position 0: ordinal not in range(128)");
}

TEST_CASE("op edges: an integer scalar tensor is an index (EagerTensor.__index__)", "[op_edges]") {
  CHECK(out("x = [10, 20, 30, 40]\n"
            "print(list(range(tf.constant(3))), x[tf.constant(1)], x[tf.constant(1):tf.constant(3)], x[np.int64(2)])\n") ==
        Lines{"[0, 1, 2] 20 [20, 30] 30"});
  CHECK(error_of("range(tf.constant(2.0))\n") == "TypeError: only integer scalar arrays can be converted to a scalar index");
  CHECK(error_of("[1, 2][tf.constant([0])]\n") == "TypeError: only integer scalar arrays can be converted to a scalar index");
  CHECK(error_of("range(np.float32(2.0))\n") == "TypeError: 'numpy.float32' object cannot be interpreted as an integer");
}

TEST_CASE("op edges: strings and ranges take any index operator.index accepts", "[op_edges]") {
  CHECK(out("print('abc'[True], 'abc'[tf.constant(2)], range(5)[tf.constant(1)], 'abc'[0:2])\n") == Lines{"b c 1 ab"});
  CHECK(error_of("'abc'[1.0]\n") == "TypeError: string indices must be integers, not 'float'");
  CHECK(error_of("range(3)[1.0]\n") == "TypeError: range indices must be integers or slices, not float");
}

TEST_CASE("op edges: split, unstack, gather, pad and one_hot errors read as their kernels'", "[op_edges]") {
  const std::string x = "x = tf.reshape(tf.range(1., 7.), [2, 3])\n";
  const std::string dev = "_device_/job:localhost/replica:0/task:0/device:CPU:0}} ";
  // Split and SplitV name their wrapped function with num_split, and tf.split names the op.
  CHECK(error_of(x + "tf.split(x, 2, axis=1)\n") ==
        "InvalidArgumentError: {{function_node __wrapped__Split_num_split_2" + dev +
            "Number of ways to split should evenly divide the split dimension, but got split_dim 1 (size = 3) and "
            "num_split 2 [Op:Split] name: split");
  CHECK(error_of(x + "tf.split(x, 3, axis=2)\n") ==
        "InvalidArgumentError: {{function_node __wrapped__Split_num_split_3" + dev +
            "-input rank(-2) <= split_dim < input rank (2), but got 2 [Op:Split] name: split");
  CHECK(error_of(x + "tf.split(x, [2, 2], axis=1)\n").find("__wrapped__SplitV_num_split_2_device_") != std::string::npos);
  CHECK(error_of(x + "tf.split(x, 0)\n").rfind("InvalidArgumentError: Value for attr 'num_split' of 0 must be at least "
                                               "minimum 1\n\t; NodeDef: {{node Split}}; Op<name=Split;", 0) == 0);
  // unstack checks the axis in Python when num is not given; Unpack's name carries num.
  CHECK(error_of(x + "tf.unstack(x, axis=2)\n") == "ValueError: Argument `axis` = 2 not in range [-2, 2)");
  CHECK(error_of(x + "tf.unstack(x, num=3)\n") ==
        "InvalidArgumentError: {{function_node __wrapped__Unpack_num_3" + dev +
            "Input shape axis 0 must equal 3, got shape [2,3] [Op:Unpack] name: unstack");
  // gather: SliceDebugString's [i,j]; a variable's gather along axis 0 is a ResourceGather.
  CHECK(error_of(x + "tf.gather(x, [[0, 1], [2, 0]])\n") ==
        "InvalidArgumentError: {{function_node __wrapped__GatherV2" + dev +
            "indices[1,0] = 2 is not in [0, 2) [Op:GatherV2] name: ");
  CHECK(error_of("tf.gather(tf.Variable([[1., 2.], [3., 4.]]), [0, 5])\n") ==
        "InvalidArgumentError: {{function_node __wrapped__ResourceGather" + dev +
            "indices[1] = 5 is not in [0, 2) [Op:ResourceGather] name: ");
  CHECK(error_of(x + "tf.pad(x, [[-1, 0], [0, 0]])\n") ==
        "InvalidArgumentError: {{function_node __wrapped__Pad" + dev + "Paddings must be non-negative: -1 0 [Op:Pad] name: ");
  CHECK(error_of("tf.one_hot([0, 1], -1)\n") ==
        "InvalidArgumentError: {{function_node __wrapped__OneHot" + dev + "depth must be non-negative, got: -1 [Op:OneHot] name: ");
}

// gradients_util._GradientsHelper: in a graph, for each x the sum over ys of dy/dx, any
// tensor of the graph a source; grad_ys weigh the ys; None (or zeros on request) where
// unconnected; the gradients are graph ops themselves, so they differentiate again.
TEST_CASE("op edges: tf.gradients inside a tf.function differentiates the function's graph", "[op_edges]") {
  CHECK(out("v = tf.Variable(3.0)\n"
            "@tf.function\n"
            "def f(x):\n"
            "  h = x * x\n"
            "  y = h * 3.0 + v\n"
            "  z = tf.sin(x)\n"
            "  return (tf.gradients([y, z], [x, h]), tf.gradients(y, v), tf.gradients(z, v),\n"
            "          tf.gradients(z, v, unconnected_gradients='zero'), tf.gradients(y, x, grad_ys=tf.constant(2.0)),\n"
            "          tf.gradients(tf.gradients(y, x)[0], x))\n"
            "for r in f(tf.constant(2.0)):\n"
            "  print([None if g is None else round(float(g), 4) for g in r])\n"
            "x = tf.constant(1.5)\n"
            "@tf.function\n"
            "def k(x):\n"
            "  return tf.gradients(x ** 3, x)[0]\n"
            "with tf.GradientTape() as t:\n"
            "  t.watch(x)\n"
            "  g = k(x)\n"
            "print(g.numpy(), t.gradient(g, x).numpy())\n") ==
        Lines{"[11.5839, 3.0]", "[1.0]", "[None]", "[0.0]", "[24.0]", "[6.0]", "6.75 9.0"});
  CHECK(error_of("@tf.function\n"
                 "def bad(x):\n"
                 "  return tf.gradients([x, x], x, grad_ys=[1.0])\n"
                 "bad(tf.constant(1.0))\n")
            .find("ValueError: Passed 1 grad_ys for 2 ys") != std::string::npos);
  CHECK(error_of("x = tf.constant(1.0)\ntf.gradients(x, [x])\n") ==
        "RuntimeError: tf.gradients is not supported when eager execution is enabled. Use tf.GradientTape instead.");
}

TEST_CASE("op edges: clipping an IndexedSlices clips its values; a negative limit is zero; t_list must be a list", "[op-edges]") {
  // clip_ops.py (TF 2.17): norms over t.values, results rebuilt as IndexedSlices.
  CHECK(out("p = tf.constant([[1., 2.], [3., 4.]])\n"
            "with tf.GradientTape() as t:\n"
            "  t.watch(p)\n"
            "  y = tf.gather(p, [1, 1])\n"
            "g = t.gradient(y, p)\n"
            "print(tf.linalg.global_norm([g]).numpy())\n"
            "c = tf.clip_by_norm(g, 1.)\n"
            "print(type(c).__name__, c.values.numpy().tolist(), c.indices.numpy())\n"
            "cl, n = tf.clip_by_global_norm([g, None, tf.constant([3., 4.])], 1.)\n"
            "print(type(cl[0]).__name__, cl[1], cl[2].numpy(), n.numpy())\n"
            "print(tf.clip_by_norm(tf.constant([3., 4.]), -1.).numpy(), tf.clip_by_norm(tf.constant([3., 4.]), tf.constant(-1.)).numpy())\n") ==
        Lines{"2.0", "IndexedSlices [[0.5, 0.5], [0.5, 0.5]] [1 1]", "IndexedSlices None [0.557086   0.74278134] 5.3851647",
              "[0. 0.] [0. 0.]"});
  CHECK(error_of("tf.linalg.global_norm(tf.constant([3., 4.]))\n") ==
        "TypeError: `t_list` should be a sequence of tensors. Received <class "
        "'tensorflow.python.framework.ops.EagerTensor'>.");
}

TEST_CASE("op edges: a custom gradient of another shape is passed on unchecked, as TF's eager tape does", "[op-edges]") {
  CHECK(out("@tf.custom_gradient\n"
            "def F(x):\n"
            "  def grad(dy):\n"
            "    return tf.constant([1., 2.])\n"
            "  return x * 2., grad\n"
            "x = tf.constant(2.0)\n"
            "with tf.GradientTape() as t:\n"
            "  t.watch(x)\n"
            "  y = F(x)\n"
            "print(t.gradient(y, x))\n") == Lines{"tf.Tensor([1. 2.], shape=(2,), dtype=float32)"});
}

TEST_CASE("op edges: ReluGrad multiplies by its mask (NaN stays NaN, -0 stays -0); SigmoidGrad rounds in float32 as TF", "[op-edges]") {
  // relu_op_functor.h: gradients * (features > 0); cwise_ops_gradients.h: dy·(y·(1 - y)).
  CHECK(out("x = tf.Variable([-1.0, 2.0])\n"
            "with tf.GradientTape() as tape:\n"
            "  y = tf.reduce_sum(tf.math.log(tf.nn.relu(x)))\n"
            "print(tape.gradient(y, x).numpy())\n"
            "with tf.GradientTape(persistent=True) as tape:\n"
            "  y = -tf.nn.relu(x)\n"
            "  z = -tf.nn.relu6(x)\n"
            "print(tape.gradient(y, x).numpy(), tape.gradient(z, x).numpy())\n"
            "x = tf.linspace(-10.0, 10.0, 200+1)\n"
            "with tf.GradientTape() as tape:\n"
            "  tape.watch(x)\n"
            "  y = tf.nn.sigmoid(x)\n"
            "print(bool(tf.reduce_all(tape.gradient(y, x) == y * (1 - y))))\n") ==
        Lines{"[nan 0.5]", "[-0. -1.] [-0. -1.]", "True"});
}

TEST_CASE("op edges: sparse softmax cross-entropy is TF's fused op: its gradient goes through PreventGradient", "[op-edges]") {
  // nn_grad._SparseSoftmaxCrossEntropyWithLogitsGrad: a second derivative raises.
  const std::string second = "logits = tf.constant([[1., 2., 3.]])\n"
                             "with tf.GradientTape() as t2:\n"
                             "  t2.watch(logits)\n"
                             "  with tf.GradientTape() as t1:\n"
                             "    t1.watch(logits)\n"
                             "    l = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=[2], logits=logits)\n"
                             "  g = t1.gradient(l, logits)\n"
                             "print(g.numpy())\n"
                             "t2.gradient(g, logits)\n";
  CHECK(error_of(second) ==
        "LookupError: Gradient explicitly disabled. Reason: b\"Currently there is no way to take the second derivative "
        "of sparse_softmax_cross_entropy_with_logits due to the fused implementation's interaction with tf.gradients()\"");
  CHECK(out("logits = tf.constant([[1., 2., 3.], [1., 5., 0.5]])\n"
            "print(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=[[2], [0]], logits=tf.reshape(logits, [2, 1, 3])).shape)\n") ==
        Lines{"(2, 1)"});
}
