// tf.linalg's diagonals (diag, diag_part, set_diag, trace), matrix_transpose, matvec,
// tf.tensordot and tf.recompute_grad: values, gradients and TF's refusals.
#include <catch2/catch.hpp>

#include "script_test_util.h"

TEST_CASE("linalg: diagonals and their gradients are each other", "[linalg]") {
  CHECK(out("v = tf.constant([1., 2., 3.])\n"
            "m = tf.constant([[1., 2., 3.], [4., 5., 6.]])\n"
            "print(tf.linalg.diag(v).numpy().tolist())\n"
            "print(tf.linalg.diag_part(m).numpy().tolist(), tf.linalg.trace(m).numpy())\n"
            "print(tf.linalg.set_diag(m, [9., 8.]).numpy().tolist())\n"
            "print(tf.linalg.diag([1, 2], num_rows=2, num_cols=3, padding_value=7).numpy().tolist())\n"
            "with tf.GradientTape(persistent=True) as t:\n"
            "  t.watch([v, m])\n"
            "  d = tf.linalg.diag(v)\n"
            "  p = tf.linalg.diag_part(m)\n"
            "  s = tf.linalg.set_diag(m, v[:2])\n"
            "  loss = tf.reduce_sum(d * [[1., 2., 3.], [4., 5., 6.], [7., 8., 9.]])\n"
            "print(t.gradient(loss, v).numpy().tolist())\n"
            "print(t.gradient(p, m).numpy().tolist())\n"
            "gm, gv = t.gradient(s, [m, v])\n"
            "print(gm.numpy().tolist(), gv.numpy().tolist())\n") ==
        Lines{"[[1.0, 0.0, 0.0], [0.0, 2.0, 0.0], [0.0, 0.0, 3.0]]",
              "[1.0, 5.0] 6.0",
              "[[9.0, 2.0, 3.0], [4.0, 8.0, 6.0]]",
              "[[1, 7, 7], [7, 2, 7]]",
              "[1.0, 5.0, 9.0]",
              "[[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]",
              "[[0.0, 1.0, 1.0], [1.0, 0.0, 1.0]] [1.0, 1.0, 0.0]"});
  // JacobianTest's expected values are diagonals: the jacobian of x*x is diag(2x).
  CHECK(out("x = tf.constant([1., 2., 3.])\n"
            "with tf.GradientTape() as t:\n"
            "  t.watch(x)\n"
            "  y = x * x\n"
            "j = t.jacobian(y, x)\n"
            "print(bool(tf.reduce_all(j == tf.linalg.diag(2 * x))))\n") == Lines{"True"});
  CHECK(error_of("tf.linalg.diag_part(tf.constant([1., 2.]))\n")
            .find("input must be at least 2-dim, received shape: [2] [Op:MatrixDiagPartV3]") != std::string::npos);
  CHECK(error_of("tf.linalg.diag([1., 2.], k=1)\n").find("is not supported in tape scripts") != std::string::npos);
}

TEST_CASE("linalg: matrix_transpose, matvec and tensordot as TF composes them", "[linalg]") {
  CHECK(out("a = tf.constant([[1., 2., 3.], [4., 5., 6.]])\n"
            "print(tf.linalg.matrix_transpose(a).shape, tf.linalg.matrix_transpose(tf.ones([4, 2, 3])).shape)\n"
            "print(tf.linalg.matvec(a, [1., 0., 1.]).numpy().tolist())\n"
            "b = tf.ones([3, 4])\n"
            "print(tf.tensordot(a, b, 1).numpy().tolist())\n"
            "print(tf.tensordot(a, a, [[0, 1], [0, 1]]).numpy())\n"
            "print(tf.tensordot(a, tf.constant([1., 2.]), [[0], [0]]).numpy().tolist())\n"
            "print(tf.tensordot([1., 2.], [3., 4.], 0).numpy().tolist())\n"
            "with tf.GradientTape() as t:\n"
            "  t.watch(a)\n"
            "  y = tf.tensordot(a, b, axes=[[1], [0]])\n"
            "print(t.gradient(y, a).numpy().tolist())\n") ==
        Lines{"(3, 2) (4, 3, 2)",
              "[4.0, 10.0]",
              "[[6.0, 6.0, 6.0, 6.0], [15.0, 15.0, 15.0, 15.0]]",
              "91.0",
              "[9.0, 12.0, 15.0]",
              "[[3.0, 4.0], [6.0, 8.0]]",
              "[[4.0, 4.0, 4.0], [4.0, 4.0, 4.0]]"});
  CHECK(error_of("tf.tensordot(tf.ones([2]), tf.ones([2]), [[0], [0, 1]])\n") ==
        "ValueError: Different number of contraction axes `a` and `b`, 1 != 2.");
}

TEST_CASE("linalg: recompute_grad gives f's gradients, recomputing f in the backward pass", "[linalg]") {
  CHECK(out("calls = []\n"
            "def f(x):\n"
            "  calls.append(1)\n"
            "  return tf.sin(x) * x\n"
            "g = tf.recompute_grad(f)\n"
            "x = tf.constant(0.5)\n"
            "with tf.GradientTape() as t:\n"
            "  t.watch(x)\n"
            "  y = g(x)\n"
            "print(round(float(y), 6), len(calls))\n"
            "d = t.gradient(y, x)\n"
            "print(round(float(d), 6), len(calls))\n"
            "w = tf.Variable(2.0)\n"
            "def h(x):\n"
            "  return w * x * x\n"
            "with tf.GradientTape() as t:\n"
            "  t.watch(x)\n"
            "  y = tf.recompute_grad(h)(x)\n"
            "print([float(v) for v in t.gradient(y, [x, w])])\n") ==
        Lines{"0.239713 1", "0.918217 2", "[2.0, 0.25]"});
}
