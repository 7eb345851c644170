// tf ops and GradientTape meeting NumPy values, None and nested sources, as TF 2.17
// (eager) treats them: the dtype shared by an op's inputs, NumPy targets and sources,
// NumPy calls on symbolic tensors while tracing, source labels, None arguments.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "engine/run.h"
#include "script_test_util.h"

namespace {

// The labels of each gradient call's results.
std::vector<Lines> labels_of(const std::string& script) {
  ts::RunResult r = ts::run_script(script, "test.py");
  if (r.error) FAIL_CHECK(r.error->format());
  std::vector<Lines> all;
  for (const auto& c : r.log().gradient_calls) {
    Lines l;
    for (const auto& s : c.results) l.push_back(s.label);
    all.push_back(l);
  }
  return all;
}

}  // namespace

TEST_CASE("tf ops: non-tensor inputs convert with the dtype of the first one (eager fast path)", "[tf_interop]") {
  // A float64 NumPy scalar from .numpy() * 2 (NumPy 1.x promotion) with a Python float.
  CHECK(out("x = tf.Variable(3.0)\n"
            "with tf.GradientTape() as tape:\n"
            "  y = x.numpy() * 2\n"
            "  z = tf.multiply(y, 3.0)\n"
            "print(z)\n"
            "print(tape.gradient(z, x))\n") == Lines{"tf.Tensor(18.0, shape=(), dtype=float64)", "None"});
  CHECK(out("print(tf.multiply(np.float64(6.0), 3.0).dtype)\n"
            "print(tf.add(np.array(2.0), 1.0))\n"
            "print(tf.maximum(np.array([0.5, 2.0]), 1.0))\n"
            "print(tf.math.squared_difference(np.float64(3.0), 1.0).dtype)\n"
            "print(tf.stack([np.float64(1.0), 2.0]).dtype)\n") ==
        Lines{"<dtype: 'float64'>", "tf.Tensor(3.0, shape=(), dtype=float64)",
              "tf.Tensor([1. 2.], shape=(2,), dtype=float64)", "<dtype: 'float64'>", "<dtype: 'float64'>"});
  // The first input decides: a Python float first is float32, and the float64 array
  // after it is cast (pywrap_tensor's IsCompatible), as with a float32 tensor first.
  CHECK(out("print(tf.multiply(3.0, np.array(6.0)))\n"
            "print(tf.multiply(tf.constant(3.0), np.array(6.0)))\n") ==
        Lines{"tf.Tensor(18.0, shape=(), dtype=float32)", "tf.Tensor(18.0, shape=(), dtype=float32)"});
  // Two tensors of different dtypes still meet in the op; the check runs before the
  // kernel, so TF 2.17's message has no function_node prefix, only the (empty) name.
  CHECK(error_of("tf.multiply(tf.constant(1.0, dtype=tf.float64), tf.constant(2.0))\n") ==
        "InvalidArgumentError: cannot compute Mul as input #1(zero-based) was expected to be a double tensor but is a "
        "float tensor [Op:Mul] name: ");
  // A Python float does not fit an integer first input.
  CHECK(error_of("tf.multiply(np.array(2), 2.5)\n") == "TypeError: Cannot convert 2.5 to EagerTensor of dtype int64");
}

TEST_CASE("GradientTape.gradient: NumPy targets and sources have no tensor _id", "[tf_interop]") {
  CHECK(error_of("x = tf.Variable([[1.0, 2.0], [3.0, 4.0]])\n"
                 "with tf.GradientTape() as tape:\n"
                 "  x2 = x**2\n"
                 "  y = np.mean(x2, axis=0)\n"
                 "print(tape.gradient(y, x))\n") == "AttributeError: 'numpy.ndarray' object has no attribute '_id'");
  CHECK(error_of("x = tf.Variable([[1.0, 2.0], [3.0, 4.0]])\n"
                 "with tf.GradientTape() as tape:\n"
                 "  y = np.mean(x**2)\n"
                 "tape.gradient(y, x)\n") == "AttributeError: 'numpy.float32' object has no attribute '_id'");
  CHECK(error_of("x = tf.Variable(2.0)\n"
                 "with tf.GradientTape() as tape:\n"
                 "  y = x * x\n"
                 "tape.gradient(y, x.numpy())\n") == "AttributeError: 'numpy.float32' object has no attribute '_id'");
  CHECK(error_of("x = tf.Variable([2.0])\n"
                 "with tf.GradientTape() as tape:\n"
                 "  y = x * x\n"
                 "tape.gradient(y, [x, np.array([1.0])])\n") ==
        "AttributeError: 'numpy.ndarray' object has no attribute '_id'");
}

TEST_CASE("tf.function: NumPy calls on a symbolic tensor raise SymbolicTensor.__array__'s error", "[tf_interop]") {
  CHECK(error_of("x = tf.Variable([1.0, 2.0])\n"
                 "@tf.function\n"
                 "def f(a):\n"
                 "  return tf.reduce_mean(np.mean(a * a))\n"
                 "with tf.GradientTape() as tape:\n"
                 "  y = f(x)\n"
                 "print(tape.gradient(y, x))\n") ==
        "NotImplementedError: in user code:\n\n"
        "    File \"test.py\", line 4, in f  *\n"
        "        return tf.reduce_mean(np.mean(a * a))\n\n"
        "    NotImplementedError: Cannot convert a symbolic tf.Tensor (mul:0) to a numpy array. This error may "
        "indicate that you're trying to pass a Tensor to a NumPy call, which is not supported.\n");
  // np.array of a traced tensor, too; eager tensors still convert.
  CHECK(error_of("@tf.function\n"
                 "def f(a):\n"
                 "  return np.array(a + 1.0)\n"
                 "f(tf.constant(1.0))\n")
            .find("NotImplementedError: Cannot convert a symbolic tf.Tensor (add:0) to a numpy array.") !=
        std::string::npos);
  CHECK(out("print(np.mean(tf.constant([1.0, 3.0])))\n") == Lines{"2.0"});
}

TEST_CASE("GradientTape.gradient: each source is labelled as written, through nests and names", "[tf_interop]") {
  const std::string setup =
      "x0 = tf.Variable(1.0)\n"
      "x1 = tf.Variable(2.0, trainable=False)\n"
      "x2 = tf.constant(3.0)\n"
      "with tf.GradientTape(persistent=True) as tape:\n"
      "  y = x0 * x1 * x2\n";
  CHECK(labels_of(setup + "tape.gradient(y, [x0, [x1, x2]])\n") == std::vector<Lines>{{"x0", "x1", "x2"}});
  CHECK(labels_of(setup + "tape.gradient(y, (x0, [x1, {'c': x2, 'a': x0}]))\n") ==
        std::vector<Lines>{{"x0", "x1", "x0", "x2"}});  // dict values in sorted-key order
  // A name holding a list: the same `srcs[i]` for tensors and variables alike.
  CHECK(labels_of(setup + "srcs = [x0, x2]\ntape.gradient(y, srcs)\n") == std::vector<Lines>{{"srcs[0]", "srcs[1]"}});
  CHECK(labels_of(setup + "srcs = [x0, [x1, x2]]\ntape.gradient(y, srcs)\n") ==
        std::vector<Lines>{{"srcs[0]", "srcs[1][0]", "srcs[1][1]"}});
  CHECK(labels_of(setup + "inner = [x1, x2]\ntape.gradient(y, [x0, inner])\n") ==
        std::vector<Lines>{{"x0", "inner[0]", "inner[1]"}});
  CHECK(labels_of(setup + "d = {'w': x0, 'b': x2}\ntape.gradient(y, d)\n") == std::vector<Lines>{{"d['b']", "d['w']"}});
  // The None causes of the report's scenario name the sources as written.
  ts::RunResult r = ts::run_script(setup + "g = tape.gradient(y, [x0, [x1, x2]])\n", "test.py");
  REQUIRE_FALSE(r.error);
  const auto& res = r.log().gradient_calls.at(0).results;
  REQUIRE(res.size() == 3);
  CHECK(res[1].label == "x1");
  CHECK(res[2].label == "x2");
}

TEST_CASE("GradientTape.gradient: None as target or source raises TF's TypeError", "[tf_interop]") {
  CHECK(error_of("x = tf.constant(3.0)\n"
                 "with tf.GradientTape() as tape:\n"
                 "  tape.watch(x)\n"
                 "  y = None\n"
                 "print(tape.gradient(y, x))\n") ==
        "TypeError: Argument `target` should be a list or nested structure of Tensors, Variables or CompositeTensors "
        "to be differentiated, but received None.");
  // No message of its own for sources in TF 2.17: backprop_util.IsTrainable(None) fails
  // in dtypes.as_dtype.
  CHECK(error_of("x = tf.constant(3.0)\n"
                 "with tf.GradientTape() as tape:\n"
                 "  tape.watch(x)\n"
                 "  y = x * x\n"
                 "tape.gradient(y, None)\n") ==
        "TypeError: Cannot convert the argument `type_value`: None to a TensorFlow DType.");
  CHECK(error_of("x = tf.constant(3.0)\n"
                 "with tf.GradientTape() as tape:\n"
                 "  tape.watch(x)\n"
                 "  y = x * x\n"
                 "tape.gradient(y, [x, None])\n") ==
        "TypeError: Cannot convert the argument `type_value`: None to a TensorFlow DType.");
}
