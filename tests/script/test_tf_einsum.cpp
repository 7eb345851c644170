// tf.einsum: explicit and implicit equations, traces, diagonals, batch broadcasting,
// more than two operands, gradients (TF's _EinsumGrad) and the errors TF 2.17 raises.
#include <catch2/catch.hpp>

#include "script_test_util.h"

TEST_CASE("einsum: equations compute as TF's Einsum op", "[einsum]") {
  CHECK(out("a = tf.constant([[1., 2.], [3., 4.]])\n"
            "b = tf.constant([[5., 6.], [7., 8.]])\n"
            "print(tf.einsum('ij,jk->ik', a, b).numpy().tolist())\n"
            "print(tf.einsum('ij,jk', a, b).numpy().tolist())\n"      // implicit: ik
            "print(tf.einsum('ba', a).numpy().tolist())\n"            // implicit output sorted: ab
            "print(tf.einsum('ii', a).numpy())\n"                     // trace
            "print(tf.einsum('ii->i', a).numpy().tolist())\n"
            "print(tf.einsum('ij,ij->', a, b).numpy())\n"
            "print(tf.einsum('i,j->ij', [1., 2.], [3., 4., 5.]).numpy().tolist())\n"
            "print(tf.einsum('ij,jk,kl->il', a, b, a).numpy().tolist())\n"
            "print(tf.linalg.einsum('i j, j k -> i k', a, b).numpy().tolist())\n"
            "print(tf.einsum('...ij,jk->...ik', tf.ones([4, 2, 3]), tf.ones([3, 5])).shape)\n"
            "print(tf.einsum('...i,...i->...', tf.ones([2, 1, 3]), tf.ones([4, 3])).shape)\n") ==
        Lines{"[[19.0, 22.0], [43.0, 50.0]]",
              "[[19.0, 22.0], [43.0, 50.0]]",
              "[[1.0, 3.0], [2.0, 4.0]]",
              "5.0",
              "[1.0, 4.0]",
              "70.0",
              "[[3.0, 4.0, 5.0], [6.0, 8.0, 10.0]]",
              "[[85.0, 126.0], [193.0, 286.0]]",
              "[[19.0, 22.0], [43.0, 50.0]]",
              "(4, 2, 5)",
              "(2, 4)"});
}

TEST_CASE("einsum: gradients sum out, transpose back, fill diagonals and unbroadcast", "[einsum]") {
  CHECK(out("x = tf.Variable([[1., 2., 3.], [4., 5., 6.]])\n"
            "w = tf.Variable([[1.], [2.], [3.]])\n"
            "m = tf.constant([[1., 2.], [3., 4.]])\n"
            "with tf.GradientTape(persistent=True) as t:\n"
            "  y = tf.einsum('bi,io->bo', x, w)\n"
            "  s = tf.einsum('ij->', x)\n"
            "  d = tf.einsum('ii->i', m * x[:, :2])\n"
            "  z = tf.einsum('bi,bi->b', x, x)\n"
            "gx, gw = t.gradient(y, [x, w])\n"
            "print(gx.numpy().tolist(), gw.numpy().tolist())\n"
            "print(t.gradient(s, x).numpy().tolist())\n"
            "print(t.gradient(d, x).numpy().tolist())\n"
            "print(t.gradient(z, x).numpy().tolist())\n"
            "c = tf.Variable(tf.ones([2, 2, 3]))\n"
            "e = tf.Variable(tf.ones([3, 2]))\n"
            "with tf.GradientTape() as t2:\n"
            "  r = tf.einsum('...ij,jk->...ik', c, e)\n"
            "gc, ge = t2.gradient(r, [c, e])\n"
            "print(gc.shape, ge.numpy().tolist())\n") ==
        Lines{"[[1.0, 2.0, 3.0], [1.0, 2.0, 3.0]] [[5.0], [7.0], [9.0]]",
              "[[1.0, 1.0, 1.0], [1.0, 1.0, 1.0]]",
              "[[1.0, 0.0, 0.0], [0.0, 4.0, 0.0]]",
              "[[2.0, 4.0, 6.0], [8.0, 10.0, 12.0]]",
              "(2, 2, 3) [[4.0, 4.0], [4.0, 4.0], [4.0, 4.0]]"});
}

TEST_CASE("einsum: bad equations and shapes raise TF's errors", "[einsum]") {
  CHECK(error_of("a = tf.ones([2, 2])\ntf.einsum('ij,jk->ik', a, tf.ones([3, 2]))\n") ==
        "InvalidArgumentError: {{function_node __wrapped__Einsum_N_2_device_/job:localhost/replica:0/task:0/device:CPU:0}} "
        "Expected dimension 2 at axis 0 of the input shaped [3,2] but got dimension 3 [Op:Einsum] name: ");
  CHECK(error_of("tf.einsum('ij,jk->ik', tf.ones([2, 2]))\n") ==
        "ValueError: Got 1 inputs for equation \"ij,jk->ik\", expecting 2");
  CHECK(error_of("tf.einsum('ij->ii', tf.ones([2, 2]))\n") ==
        "ValueError: Output subscripts contain a label appearing more than once: ij->ii");
  CHECK(error_of("tf.einsum('ij->k', tf.ones([2, 2]))\n") ==
        "ValueError: Output subscripts contain the label k not present in the input subscripts.");
  CHECK(error_of("tf.einsum('i.j', tf.ones([2, 2]))\n") == "ValueError: Subscripts have incorrect format: i.j");
  CHECK(error_of("tf.einsum('ijk->i', tf.ones([2, 2]))\n").find("Expected input 0 to have rank 3 but got: 2") !=
        std::string::npos);
  CHECK(error_of("tf.einsum('ij', tf.ones([2]), bogus=1)\n") ==
        "TypeError: Invalid keyword arguments for einsum: bogus. Valid arguments: name, optimize, greedy.");
}
