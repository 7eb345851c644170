// TF's math, sort and matrix functions as a script calls them: values, the ops they run
// (the op types TF records), gradients through them, and TF's errors.
#include "script_test_util.h"

TEST_CASE("tf.reduce_prod is one Prod op; its gradient is TF's, zeros included", "[math-library]") {
  CHECK(out(R"(import tensorflow as tf
x = tf.Variable([[1.0, 2.0], [3.0, 4.0]])
with tf.GradientTape() as tape:
    y = tf.reduce_prod(x, axis=1, keepdims=True)
print(y.numpy().tolist())
print(tape.gradient(y, x).numpy().tolist())
z = tf.Variable([0.0, 2.0, 3.0])
with tf.GradientTape() as t2:
    with tf.GradientTape() as t1:
        p = tf.math.reduce_prod(z)
    g = t1.gradient(p, z)
    s = tf.reduce_sum(g)
print(g.numpy().tolist())
print(t2.gradient(s, z).numpy().tolist())
)") == Lines{"[[2.0], [12.0]]", "[[2.0, 1.0], [4.0, 3.0]]", "[6.0, 0.0, 0.0]",
              // TF's _CumprodGrad divides by x ("fails when x contains 0", its TODO says).
              "[nan, 3.0, 2.0]"});
  ts::RunResult r = ts::run_script("import tensorflow as tf\ny = tf.reduce_prod(tf.constant([2.0, 3.0]))\n", "t.py");
  REQUIRE_FALSE(r.error);
  int prods = 0;
  for (size_t i = 0; i < r.log().ops.size(); ++i) prods += r.log().ops[i].type == "Prod";
  CHECK(prods == 1);
}

TEST_CASE("tf.math.top_k, tf.sort and tf.argsort", "[math-library]") {
  CHECK(out(R"(import tensorflow as tf
x = tf.Variable([1.0, 4.0, 2.0, 3.0])
with tf.GradientTape() as tape:
    top = tf.math.top_k(x, k=2)
    loss = tf.reduce_sum(top.values * [1.0, 2.0])
print(top)
values, indices = top
print(indices.numpy().tolist(), tape.gradient(loss, x).numpy().tolist())
print(tf.sort(x).numpy().tolist(), tf.sort(x, direction='DESCENDING').numpy().tolist())
print(tf.argsort(x).numpy().tolist(), tf.sort([[3, 1], [0, 2]], axis=0).numpy().tolist())
)") == Lines{"TopKV2(values=<tf.Tensor: shape=(2,), dtype=float32, numpy=array([4., 3.], dtype=float32)>, "
               "indices=<tf.Tensor: shape=(2,), dtype=int32, numpy=array([1, 3], dtype=int32)>)",
               "[1, 3] [0.0, 1.0, 0.0, 2.0]", "[1.0, 2.0, 3.0, 4.0] [4.0, 3.0, 2.0, 1.0]", "[0, 2, 3, 1] [[0, 1], [3, 2]]"});
  CHECK(error_of("import tensorflow as tf\ntf.math.top_k([1.0, 2.0], 3)\n") ==
        "InvalidArgumentError: {{function_node __wrapped__TopKV2_device_/job:localhost/replica:0/task:0/device:CPU:0}} "
        "input must have at least k columns. Had 2, needed 3 [Op:TopKV2] name: ");
  CHECK(error_of("import tensorflow as tf\ntf.sort([1.0], direction='UP')\n") ==
        "ValueError: Argument `direction` should be one of ASCENDING, DESCENDING. Received: direction=UP");
}

TEST_CASE("tf.math.cumprod, tf.roll, tf.repeat", "[math-library]") {
  CHECK(out(R"(import tensorflow as tf
x = tf.Variable([[1.0, 2.0], [3.0, 4.0]])
with tf.GradientTape(persistent=True) as tape:
    c = tf.math.cumprod(x, axis=1)
    r = tf.roll(x, shift=[1, -1], axis=[0, 1])
    p = tf.repeat(x, [1, 2], axis=1)
    rw = r * [[1.0, 2.0], [3.0, 4.0]]
print(c.numpy().tolist(), tape.gradient(c, x).numpy().tolist())
print(r.numpy().tolist(), tape.gradient(rw, x).numpy().tolist())
print(p.numpy().tolist(), tape.gradient(p, x).numpy().tolist())
print(tf.repeat(3, repeats=4).numpy().tolist(), tf.repeat([[1, 2], [3, 4]], 2).numpy().tolist())
)") == Lines{"[[1.0, 2.0], [3.0, 12.0]] [[3.0, 1.0], [5.0, 3.0]]",
               "[[4.0, 3.0], [2.0, 1.0]] [[4.0, 3.0], [2.0, 1.0]]",
               "[[1.0, 2.0, 2.0], [3.0, 4.0, 4.0]] [[1.0, 2.0], [1.0, 2.0]]",
               "[3, 3, 3, 3] [1, 1, 2, 2, 3, 3, 4, 4]"});
  CHECK(error_of("import tensorflow as tf\ntf.roll([1.0, 2.0], [1, 2], [0])\n") ==
        "InvalidArgumentError: {{function_node __wrapped__Roll_device_/job:localhost/replica:0/task:0/device:CPU:0}} "
        "shift and axis must have the same size [Op:Roll] name: ");
}

TEST_CASE("tf.linalg.det, inv and band_part with their gradients", "[math-library][linalg]") {
  CHECK(out(R"(import tensorflow as tf
a = tf.Variable([[1.0, 2.0], [3.0, 4.0]])
with tf.GradientTape(persistent=True) as tape:
    d = tf.linalg.det(a)
    i = tf.linalg.inv(a)
    b = tf.linalg.band_part(a, 0, -1)
print(d.numpy(), tape.gradient(d, a).numpy().tolist())
print(i.numpy().tolist(), tape.gradient(i, a).numpy().tolist())
print(b.numpy().tolist(), tape.gradient(b, a).numpy().tolist())
)") == Lines{"-2.0 [[4.0, -3.0], [-2.0, 1.0]]", "[[-2.0, 1.0], [1.5, -0.5]] [[-0.5, 0.5], [0.5, -0.5]]",
               "[[1.0, 2.0], [0.0, 4.0]] [[1.0, 1.0], [0.0, 1.0]]"});
  CHECK(error_of("import tensorflow as tf\ntf.linalg.inv([[1.0, 2.0], [2.0, 4.0]])\n") ==
        "InvalidArgumentError: {{function_node __wrapped__MatrixInverse_device_/job:localhost/replica:0/task:0/device:CPU:0}} "
        "Input is not invertible. [Op:MatrixInverse] name: ");
  CHECK(error_of("import tensorflow as tf\ntf.linalg.det([[1.0, 2.0, 3.0]])\n") ==
        "InvalidArgumentError: {{function_node __wrapped__MatrixDeterminant_device_/job:localhost/replica:0/task:0/device:CPU:0}} "
        "Input matrix must be square. [Op:MatrixDeterminant] name: ");
}

TEST_CASE("special functions, norms and small composites", "[math-library]") {
  CHECK(out(R"(import tensorflow as tf
x = tf.Variable([1.0, 2.0])
with tf.GradientTape(persistent=True) as tape:
    lg = tf.math.lgamma(x)
    n = tf.math.reduce_euclidean_norm([[3.0, 4.0]] * x[0])
    l2 = tf.math.l2_normalize(x)
    pv = tf.math.polyval([1.0, 2.0, 3.0], x)
print(lg.numpy().tolist(), tape.gradient(lg, x).numpy().tolist())
print(n.numpy(), tape.gradient(n, x).numpy().tolist())
print(l2.numpy().tolist(), pv.numpy().tolist(), tape.gradient(pv, x).numpy().tolist())
print(tf.math.erfc(0.0).numpy(), tf.math.digamma(1.0).numpy(), tf.math.polygamma(1.0, 1.0).numpy())
print(tf.math.count_nonzero([[0, 1], [2, 0]]).numpy(), tf.math.count_nonzero([[0.0, 1.0], [2.0, 0.0]], axis=1).numpy())
print(tf.math.reciprocal_no_nan([0.0, 4.0]).numpy().tolist(), tf.math.accumulate_n([x, x]).numpy().tolist())
)") == Lines{// float32 digamma is Eigen's float one (-0.5772159), as TF's kernel computes it
               "[0.0, 0.0] [-0.5772159099578857, 0.4227842092514038]", "5.0 [5.0, 0.0]",
               "[0.4472135901451111, 0.8944271802902222] [6.0, 11.0] [4.0, 6.0]", "1.0 -0.5772159 1.644934",
               "2 [1 1]", "[0.0, 0.25] [2.0, 4.0]"});
}

TEST_CASE("tf.nn.dropout keeps values scaled by 1/(1 - rate), and checks rate and dtype", "[math-library]") {
  const Lines lines = out(R"(import tensorflow as tf
y = tf.nn.dropout(tf.ones([200]), 0.5, seed=3).numpy().tolist()
print(y.count(0.0) + y.count(2.0), 40 < y.count(0.0) < 160)
)");
  CHECK(lines == Lines{"200 True"});
  CHECK(error_of("import tensorflow as tf\ntf.nn.dropout(tf.ones([2]), 1.0)\n") ==
        "ValueError: `rate` must be a scalar tensor or a float in the range [0, 1). Received: rate=1.0");
  CHECK(error_of("import tensorflow as tf\ntf.nn.dropout(tf.constant([1, 2]), 0.5)\n") ==
        "ValueError: `x.dtype` must be a floating point tensor as `x` will be scaled. Received: x_dtype=<dtype: 'int32'>");
}

TEST_CASE("softmax_cross_entropy_with_logits broadcasts labels against logits, as the kernel's BCast", "[math-library]") {
  // xent_op_test_base's testLabelsBroadcast: labels [1, n] for every row, or [rows, 1].
  CHECK(out(R"(import tensorflow as tf
labels = tf.constant([[0., 0., 0., 1.]])
logits = tf.constant([[1., 1., 1., 1.], [1., 2., 3., 4.]])
with tf.GradientTape() as tape:
    tape.watch(logits)
    loss = tf.nn.softmax_cross_entropy_with_logits(labels=labels, logits=logits)
print(loss.numpy().tolist())
print(tape.gradient(loss, logits)[0].numpy().tolist())
print(tf.nn.softmax_cross_entropy_with_logits(labels=[[0.], [2.]], logits=logits).numpy().tolist())
)") == Lines{"[1.3862943649291992, 0.4401896893978119]", "[0.25, 0.25, 0.25, -0.75]", "[0.0, 15.521517753601074]"});
  CHECK(error_of("import tensorflow as tf\ntf.nn.softmax_cross_entropy_with_logits(labels=tf.ones([3, 4]), logits=tf.ones([2, 4]))\n")
            .find("logits and labels must be broadcastable: logits_size=[2,4] labels_size=[3,4]") != std::string::npos);
}

TEST_CASE("tf.math.multiply_no_nan, tf.math.nextafter and tf.grad_pass_through", "[math-library]") {
  CHECK(out(R"(import tensorflow as tf
x = tf.Variable(1.0, name="x")
z = tf.Variable(3.0, name="z")
with tf.GradientTape() as tape:
    y = tf.grad_pass_through(x.assign)(z**2)
print(y.numpy(), tape.gradient(y, z).numpy())
print(tf.math.multiply_no_nan(float('inf'), 0.0).numpy(), tf.math.nextafter(1.0, 2.0).numpy())
v = tf.constant([1.0, 2.0])
with tf.GradientTape(persistent=True) as t:
    t.watch(v)
    w = tf.math.multiply_no_nan(v, [0.0, 3.0])
    n = tf.math.nextafter(v, [0.0, 5.0])
print(t.gradient(w, v).numpy().tolist(), t.gradient(n, v).numpy().tolist())
)") == Lines{"9.0 6.0", "0.0 1.0000001", "[0.0, 3.0] [1.0, 1.0]"});
}

TEST_CASE("tf.linalg.solve, triangular_solve and cholesky with their gradients", "[math-library][linalg]") {
  CHECK(out(R"(import tensorflow as tf
a = tf.Variable([[4.0, 1.0], [1.0, 3.0]])
b = tf.Variable([[1.0], [2.0]])
with tf.GradientTape(persistent=True) as tape:
    x = tf.linalg.solve(a, b)
    l = tf.linalg.cholesky(a)
    t = tf.linalg.triangular_solve(l, b)
print((x * 11).numpy().tolist(), (tape.gradient(x, b) * 11).numpy().tolist())
print(l.numpy().tolist(), t.numpy().tolist())
print(tape.gradient(l, a).numpy().tolist())
)") == Lines{"[[1.0], [7.0]] [[2.0], [3.0]]", "[[2.0, 0.0], [0.5, 1.658312439918518]] [[0.5], [1.055289626121521]]",
               "[[0.20634445548057556, 0.17462217807769775], [0.17462217807769775, 0.30151134729385376]]"});
  CHECK(error_of("import tensorflow as tf\ntf.linalg.cholesky([[1.0, 2.0], [2.0, 1.0]])\n") ==
        "InvalidArgumentError: {{function_node __wrapped__Cholesky_device_/job:localhost/replica:0/task:0/device:CPU:0}} "
        "Cholesky decomposition was not successful. The input might not be valid. [Op:Cholesky] name: ");
  CHECK(error_of("import tensorflow as tf\ntf.linalg.solve([[1.0, 2.0], [2.0, 4.0]], [[1.0], [1.0]])\n") ==
        "InvalidArgumentError: {{function_node __wrapped__MatrixSolve_device_/job:localhost/replica:0/task:0/device:CPU:0}} "
        "Input matrix is not invertible. [Op:MatrixSolve] name: ");
}

TEST_CASE("segment reductions: sorted and unsorted mean, max, min, prod, sqrt_n with their gradients",
          "[math-library]") {
  CHECK(out(R"(import tensorflow as tf
data = tf.Variable([[1.0, 2.0], [3.0, 4.0], [5.0, 1.0]])
with tf.GradientTape(persistent=True) as tape:
    m = tf.math.segment_mean(data, [0, 0, 1])
    mx = tf.math.segment_max(data, [0, 0, 1])
    p = tf.math.unsorted_segment_prod(data, [1, -1, 1], 3)
    um = tf.math.unsorted_segment_mean(data, [1, 0, 1], 2)
    us = tf.math.unsorted_segment_sqrt_n(data, [1, 0, 1], 2)
    umin = tf.math.unsorted_segment_min(data, [1, 0, 1], 3)
print(m.numpy().tolist(), tape.gradient(m, data).numpy().tolist())
print(mx.numpy().tolist(), tape.gradient(mx, data).numpy().tolist())
print(p.numpy().tolist(), tape.gradient(p, data).numpy().tolist())
print(um.numpy().tolist(), tape.gradient(um, data).numpy().tolist())
print(us.numpy().tolist())
print(umin.numpy().tolist())
print(tf.math.segment_max([1, 5, 2], [0, 0, 2]).numpy().tolist())
)") == Lines{"[[2.0, 3.0], [5.0, 1.0]] [[0.5, 0.5], [0.5, 0.5], [1.0, 1.0]]",
               "[[3.0, 4.0], [5.0, 1.0]] [[0.0, 0.0], [1.0, 1.0], [1.0, 1.0]]",
               // row 1 is dropped (id -1); the empty segments are 1
               "[[1.0, 1.0], [5.0, 2.0], [1.0, 1.0]] [[5.0, 1.0], [0.0, 0.0], [1.0, 2.0]]",
               "[[3.0, 4.0], [3.0, 1.5]] [[0.5, 0.5], [1.0, 1.0], [0.5, 0.5]]",
               "[[3.0, 4.0], [4.242640972137451, 2.1213204860687256]]",
               // an empty unsorted segment's min is the dtype's largest value
               "[[3.0, 4.0], [1.0, 1.0], [3.4028234663852886e+38, 3.4028234663852886e+38]]", "[5, 0, 2]"});
  CHECK(error_of("import tensorflow as tf\ntf.math.segment_mean([1.0, 2.0], [1, 0])\n") ==
        "InvalidArgumentError: {{function_node __wrapped__SegmentMean_device_/job:localhost/replica:0/task:0/device:CPU:0}} "
        "segment ids are not increasing [Op:SegmentMean] name: ");
}

TEST_CASE("tf.gather is TF's GatherV2 op, batch_dims included", "[math-library]") {
  ts::RunResult r = ts::run_script(R"(import tensorflow as tf
params = tf.constant([[1., 2., 3.], [4., 5., 6.]])
with tf.GradientTape() as tape:
    tape.watch(params)
    y = tf.gather(params, [[2, 0], [1, 1]], batch_dims=1)
print(y.numpy().tolist(), tape.gradient(y, params).numpy().tolist())
)", "t.py");
  REQUIRE_FALSE(r.error);
  CHECK(r.output_lines() == Lines{"[[3.0, 1.0], [5.0, 5.0]] [[1.0, 0.0, 1.0], [0.0, 2.0, 0.0]]"});
  std::vector<std::string> forward;
  for (size_t i = 0; i < r.log().ops.size(); ++i)
    if (r.log().ops[i].grad_call == ts::kNoId && r.log().ops[i].label == "tf.gather") forward.push_back(r.log().ops[i].type);
  CHECK(forward == std::vector<std::string>{"GatherV2"});
  CHECK(error_of("import tensorflow as tf\ntf.gather([[1.0]], [[0]], axis=0, batch_dims=1)\n") ==
        "InvalidArgumentError: {{function_node __wrapped__GatherV2_device_/job:localhost/replica:0/task:0/device:CPU:0}} "
        "batch_dims (1) must be less than or equal to axis (0). [Op:GatherV2] name: ");
}

TEST_CASE("tf.linalg.slogdet (LogMatrixDeterminant namedtuple) and logdet (through Cholesky)", "[math-library][linalg]") {
  CHECK(out(R"(import tensorflow as tf
a = tf.Variable([[4.0, 1.0], [1.0, 3.0]])
with tf.GradientTape(persistent=True) as tape:
    s, l = tf.linalg.slogdet(a)
    d = tf.linalg.logdet(a)
print(s.numpy(), l.numpy(), d.numpy())
print((tape.gradient(l, a) * 11).numpy().tolist(), (tape.gradient(d, a) * 11).numpy().tolist())
print(tf.linalg.slogdet([[0.0, 2.0], [3.0, 1.0]]))
)") == Lines{"1.0 2.3978953 2.3978953", "[[3.0, -1.0], [-1.0, 4.0]] [[3.0, -1.0], [-1.0, 4.0]]",
               "LogMatrixDeterminant(sign=<tf.Tensor: shape=(), dtype=float32, numpy=-1.0>, "
               "log_abs_determinant=<tf.Tensor: shape=(), dtype=float32, numpy=1.7917595>)"});
}

TEST_CASE("tf.pad with mode REFLECT or SYMMETRIC is MirrorPad, its gradient folds back", "[math-library]") {
  // tf.pad's docstring examples.
  CHECK(out(R"(import tensorflow as tf
x = tf.Variable([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
with tf.GradientTape(persistent=True) as tape:
    r = tf.pad(x, [[1, 1], [2, 2]], "REFLECT")
    s = tf.pad(x, [[1, 1], [2, 2]], mode="symmetric")
print(r.numpy().tolist())
print(s.numpy().tolist())
print(tape.gradient(r, x).numpy().tolist(), tape.gradient(s, x).numpy().tolist())
)") == Lines{"[[6.0, 5.0, 4.0, 5.0, 6.0, 5.0, 4.0], [3.0, 2.0, 1.0, 2.0, 3.0, 2.0, 1.0], [6.0, 5.0, 4.0, 5.0, 6.0, 5.0, 4.0], "
               "[3.0, 2.0, 1.0, 2.0, 3.0, 2.0, 1.0]]",
               "[[2.0, 1.0, 1.0, 2.0, 3.0, 3.0, 2.0], [2.0, 1.0, 1.0, 2.0, 3.0, 3.0, 2.0], [5.0, 4.0, 4.0, 5.0, 6.0, 6.0, 5.0], "
               "[5.0, 4.0, 4.0, 5.0, 6.0, 6.0, 5.0]]",
               "[[4.0, 6.0, 4.0], [4.0, 6.0, 4.0]] [[4.0, 6.0, 4.0], [4.0, 6.0, 4.0]]"});
  CHECK(error_of("import tensorflow as tf\ntf.pad([1.0, 2.0], [[2, 0]], 'REFLECT')\n")
            .find("paddings must be less than the dimension size: 2, 0 not less than 2 [Op:MirrorPad]") != std::string::npos);
}

TEST_CASE("string zeros are empty strings; string ones are refused (was: a crash)", "[math-library]") {
  CHECK(out(R"(import tensorflow as tf
print(tf.math.count_nonzero(tf.constant(['', 'a'])).numpy(), tf.zeros([2], tf.string))
print(tf.not_equal(tf.constant(['', 'a']), tf.zeros([], dtype=tf.string)).numpy().tolist(), tf.zeros_like(tf.constant(['a'])))
)") == Lines{"1 tf.Tensor([b'' b''], shape=(2,), dtype=string)", "[False, True] tf.Tensor([b''], shape=(1,), dtype=string)"});
  CHECK(error_of("import tensorflow as tf\ntf.ones_like(tf.constant(['a']))\n") == "TypeError: Cannot convert 1 to EagerTensor of dtype string");
  CHECK(error_of("import tensorflow as tf\ntf.ones([2], tf.string)\n") == "TypeError: Cannot convert 1 to EagerTensor of dtype string");
}

TEST_CASE("float32 determinants, lgamma and Euclidean norms are computed in float32, as TF's kernels", "[math-library]") {
  // determinant_op.cc: sign · exp(Σ log |LU diagonal|) in float; lgamma is glibc's
  // lgammaf (the Lgamma docstring's 2.4537368); EuclideanNormReducer adds float squares.
  CHECK(out(R"(import tensorflow as tf
print(tf.linalg.det(tf.constant([[5., 0.], [0., 7.]])).numpy(), tf.linalg.det([[1.0, 2.0], [2.0, 4.0]]).numpy())
print(tf.math.lgamma(tf.constant([0.5, 1, 4.5, -5.6])).numpy())
print(tf.math.reduce_euclidean_norm(tf.constant([0.1, 0.2, 0.3])).numpy())
)") == Lines{"34.999996 0.0", "[ 0.5723649  0.         2.4537368 -4.6477685]", "0.37416577"});
}

TEST_CASE("review fixes: integer sorts, reciprocal_no_nan's dtypes, dropout's mask, eye's batch_shape, roll and gather errors",
          "[math-library]") {
  CHECK(out(R"(import tensorflow as tf
print(tf.sort(tf.constant([-2147483648, 5, 0])).numpy().tolist(), tf.eye(2, batch_shape=[3]).shape)
x = tf.ones([2])
tf.random.set_seed(0)
print(tf.nn.dropout(x, 0.0) is x, tf.math.is_nan(tf.nn.dropout(tf.constant([float('inf')] * 8), 0.9)).numpy().any())
)") == Lines{"[-2147483648, 0, 5] (3, 2, 2)", "True False"});
  const std::string dev = "_device_/job:localhost/replica:0/task:0/device:CPU:0}} ";
  CHECK(error_of("import tensorflow as tf\ntf.math.reciprocal_no_nan(tf.constant([2, 0]))\n")
            .rfind("InvalidArgumentError: Value for attr 'T' of int32 is not in the list of allowed values", 0) == 0);
  CHECK(error_of("import tensorflow as tf\ntf.roll(0, 1, 0)\n") ==
        "InvalidArgumentError: {{function_node __wrapped__Roll" + dev + "input must be 1-D or higher [Op:Roll] name: ");
  CHECK(error_of("import tensorflow as tf\ntf.roll([1, 2], [2], 0)\n") ==
        "InvalidArgumentError: {{function_node __wrapped__Roll" + dev + "shift and axis must have the same size [Op:Roll] name: ");
  CHECK(error_of("import tensorflow as tf\ntf.roll([1, 2], 1, -3)\n") ==
        "InvalidArgumentError: {{function_node __wrapped__Roll" + dev + "axis -2 is out of range [Op:Roll] name: ");
  CHECK(error_of("import tensorflow as tf\ntf.gather([0, 1, 2], 0, axis=1)\n") ==
        "InvalidArgumentError: {{function_node __wrapped__GatherV2" + dev +
            "Shape must be at least rank 2 but is rank 1 [Op:GatherV2] name: ");
}

TEST_CASE("tf.linalg.solve's shape checks read as LinearAlgebraOp's", "[math-library][linalg]") {
  const std::string dev = "{{function_node __wrapped__MatrixSolve_device_/job:localhost/replica:0/task:0/device:CPU:0}} ";
  CHECK(error_of("import tensorflow as tf\ntf.linalg.solve(tf.ones([2, 3]), tf.ones([2, 1]))\n") ==
        "InvalidArgumentError: " + dev + "First input (lhs) must be a square matrix. [Op:MatrixSolve] name: ");
  CHECK(error_of("import tensorflow as tf\ntf.linalg.solve(tf.ones([2, 2]), tf.ones([3, 1]))\n") ==
        "InvalidArgumentError: " + dev + "Input matrix and rhs are incompatible. [Op:MatrixSolve] name: ");
  CHECK(error_of("import tensorflow as tf\ntf.linalg.solve(tf.ones([2, 2, 2]), tf.ones([2, 1]))\n") ==
        "InvalidArgumentError: " + dev + "All input tensors must have the same rank. [Op:MatrixSolve] name: ");
}

TEST_CASE("tf.linalg.triangular_solve broadcasts batch dims; its gradients sum them back", "[math-library][linalg]") {
  CHECK(out(R"(import tensorflow as tf
a = tf.Variable(tf.constant([[[2.0, 0.0], [1.0, 4.0]]] * 3))
b = tf.Variable(tf.ones([2, 1]))
with tf.GradientTape() as tape:
    x = tf.linalg.triangular_solve(a, b)
ga, gb = tape.gradient(x, [a, b])
print(x.shape, x[0].numpy().tolist(), ga.shape, gb.numpy().tolist())
)") == Lines{"(3, 2, 1) [[0.5], [0.125]] (3, 2, 2) [[1.125], [0.75]]"});
}
