// Convolution and pooling as scripts call them: tf.nn.conv2d / max_pool2d / avg_pool2d
// (their values, gradients and TF's errors) and Keras' Conv2D and pooling layers.
#include "script_test_util.h"

TEST_CASE("tf.nn.conv2d, max_pool2d and avg_pool2d with their gradients", "[conv-library]") {
  CHECK(out(R"(import tensorflow as tf
x = tf.reshape(tf.range(16.0), [1, 4, 4, 1])
w = tf.Variable(tf.ones([2, 2, 1, 1]))
with tf.GradientTape(persistent=True) as tape:
    tape.watch(x)
    y = tf.nn.conv2d(x, w, strides=1, padding='VALID')
    p = tf.nn.max_pool2d(x, 2, 2, 'VALID')
    a = tf.nn.avg_pool2d(x, ksize=3, strides=2, padding='SAME')
print(y[0, :, :, 0].numpy().tolist())
print(tape.gradient(y, w)[:, :, 0, 0].numpy().tolist(), tape.gradient(y, x)[0, :, :, 0].numpy().tolist())
print(p[0, :, :, 0].numpy().tolist(), tape.gradient(p, x)[0, :, :, 0].numpy().tolist())
print(a[0, :, :, 0].numpy().tolist(), tape.gradient(a, x)[0, 0, :, 0].numpy().tolist())
)") == Lines{"[[10.0, 14.0, 18.0], [26.0, 30.0, 34.0], [42.0, 46.0, 50.0]]",
               "[[45.0, 54.0], [81.0, 90.0]] [[1.0, 2.0, 2.0, 1.0], [2.0, 4.0, 4.0, 2.0], [2.0, 4.0, 4.0, 2.0], [1.0, 2.0, 2.0, 1.0]]",
               "[[5.0, 7.0], [13.0, 15.0]] [[0.0, 0.0, 0.0, 0.0], [0.0, 1.0, 0.0, 1.0], [0.0, 0.0, 0.0, 0.0], [0.0, 1.0, 0.0, 1.0]]",
               // SAME: the window at the edge averages only what is inside the input
               "[[5.0, 6.5], [11.0, 12.5]] [0.1111111119389534, 0.1111111119389534, 0.2777777910232544, 0.1666666716337204]"});
  ts::RunResult r = ts::run_script(R"(import tensorflow as tf
x = tf.Variable(tf.ones([1, 3, 3, 1]))
with tf.GradientTape() as t2:
    with tf.GradientTape() as t1:
        y = tf.reduce_sum(tf.nn.conv2d(x, tf.ones([2, 2, 1, 1]), 1, 'SAME') ** 2)
    g = t1.gradient(y, x)
    s = tf.reduce_sum(g)
print(g[0, :, :, 0].numpy().tolist(), t2.gradient(s, x)[0, :, :, 0].numpy().tolist())
)", "t.py");
  REQUIRE_FALSE(r.error);
  CHECK(r.output_lines() == Lines{"[[8.0, 16.0, 12.0], [16.0, 32.0, 24.0], [12.0, 24.0, 18.0]] "
                                  "[[8.0, 16.0, 12.0], [16.0, 32.0, 24.0], [12.0, 24.0, 18.0]]"});
  std::vector<std::string> types;
  for (size_t i = 0; i < r.log().ops.size(); ++i)
    if (r.log().ops[i].type.rfind("Conv2D", 0) == 0) types.push_back(r.log().ops[i].type);
  // the forward, its two backprop ops, and the second pass through their own gradients
  CHECK(std::count(types.begin(), types.end(), "Conv2DBackpropInput") == 2);
  CHECK(std::count(types.begin(), types.end(), "Conv2D") == 2);
  CHECK(error_of("import tensorflow as tf\ntf.nn.conv2d(tf.ones([1, 4, 4, 2]), tf.ones([2, 2, 3, 1]), 1, 'VALID')\n") ==
        "InvalidArgumentError: {{function_node __wrapped__Conv2D_device_/job:localhost/replica:0/task:0/device:CPU:0}} "
        "input depth must be evenly divisible by filter depth: 2 vs 3 [Op:Conv2D] name: ");
  CHECK(error_of("import tensorflow as tf\ntf.nn.conv2d(tf.ones([1, 2, 2, 1]), tf.ones([4, 4, 1, 1]), 1, 'VALID')\n") ==
        "InvalidArgumentError: {{function_node __wrapped__Conv2D_device_/job:localhost/replica:0/task:0/device:CPU:0}} "
        "Computed output size would be negative: -1 [input_size: 2, effective_filter_size: 4, stride: 1] [Op:Conv2D] name: ");
}

TEST_CASE("Keras Conv2D and pooling layers: shapes, names, weights, gradients", "[conv-library][keras]") {
  CHECK(out(R"(import tensorflow as tf
model = tf.keras.Sequential([
    tf.keras.layers.Conv2D(4, 3, padding='same', activation='relu'),
    tf.keras.layers.MaxPooling2D(),
    tf.keras.layers.Conv2D(2, (2, 2)),
    tf.keras.layers.GlobalAveragePooling2D(),
    tf.keras.layers.Dense(3),
])
x = tf.random.normal([2, 8, 8, 1], seed=1)
with tf.GradientTape() as tape:
    y = model(x)
    loss = tf.reduce_mean(y ** 2)
grads = tape.gradient(loss, model.trainable_variables)
print([l.name for l in model.layers], y.shape)
print([(v.path, tuple(v.shape)) for v in model.trainable_variables[:2]])
print(all([g is not None and g.shape == v.shape for g, v in zip(grads, model.trainable_variables)]))
)") == Lines{"['conv2d', 'max_pooling2d', 'conv2d_1', 'global_average_pooling2d', 'dense'] (2, 3)",
               "[('sequential/conv2d/kernel', (3, 3, 1, 4)), ('sequential/conv2d/bias', (4,))]", "True"});
  CHECK(error_of("import tensorflow as tf\ntf.keras.layers.MaxPooling2D()(tf.ones([2, 4, 4]))\n") ==
        "ValueError: Input 0 of layer \"max_pooling2d\" is incompatible with the layer: expected ndim=4, found ndim=3. "
        "Full shape received: (2, 4, 4)");
}

TEST_CASE("tf.nn.depthwise_conv2d: each channel its own filters (DepthwiseConv2dNative)", "[conv-library]") {
  CHECK(out(R"(import tensorflow as tf
x = tf.reshape(tf.range(18.0), [1, 3, 3, 2])
w = tf.Variable(tf.ones([2, 2, 2, 2]))
with tf.GradientTape() as tape:
    tape.watch(x)
    y = tf.nn.depthwise_conv2d(x, w, [1, 1, 1, 1], "VALID")
print(y.shape, y[0, 0, 0].numpy().tolist())
print(tape.gradient(y, w)[:, :, 0, 0].numpy().tolist())
)") == Lines{"(1, 2, 2, 4) [16.0, 16.0, 20.0, 20.0]", "[[16.0, 24.0], [40.0, 48.0]]"});
  CHECK(error_of("import tensorflow as tf\ntf.nn.depthwise_conv2d(tf.ones([1, 3, 3, 2]), tf.ones([2, 2, 3, 1]), [1, 1, 1, 1], 'SAME')\n")
            .find("input and filter must have the same depth: 2 vs 3 [Op:DepthwiseConv2dNative]") != std::string::npos);
}

TEST_CASE("pooling windows are clipped to the input: a huge ksize is cheap; beyond int32 it is TF's error", "[conv-library]") {
  CHECK(out("import tensorflow as tf\nx = tf.ones([1, 2, 2, 1])\n"
            "print(tf.nn.max_pool2d(x, ksize=2**31-1, strides=1, padding='SAME').shape)\n") == Lines{"(1, 2, 2, 1)"});
  CHECK(error_of("import tensorflow as tf\ntf.nn.max_pool2d(tf.ones([1, 2, 2, 1]), ksize=2**40, strides=1, padding='SAME')\n")
            .find("Attr ksize has value 1099511627776 out of range for an int32 [Op:MaxPool]") != std::string::npos);
}

TEST_CASE("Keras 3.7's constructor checks for Conv2D and pooling; pooling layers are built when made", "[conv-library][keras]") {
  CHECK(error_of("import tensorflow as tf\ntf.keras.layers.Conv2D(0, 3)\n") ==
        "ValueError: Invalid value for argument `filters`. Expected a strictly positive value. Received filters=0.");
  CHECK(error_of("import tensorflow as tf\ntf.keras.layers.Conv2D(2, 0)\n") ==
        "ValueError: The `kernel_size` argument must be a tuple of 2 integers. Received kernel_size=0, including values {0} "
        "that do not satisfy `value > 0`");
  CHECK(error_of("import tensorflow as tf\ntf.keras.layers.Conv2D(2, 3, strides=2, dilation_rate=2)\n") ==
        "ValueError: `strides > 1` not supported in conjunction with `dilation_rate > 1`. Received: strides=(2, 2) and "
        "dilation_rate=(2, 2)");
  CHECK(error_of("import tensorflow as tf\ntf.nn.max_pool2d(tf.ones([1, 2, 2, 1]), 0, 1, 'VALID')\n") ==
        "ValueError: `ksize` cannot be zero. Received: ksize=[1, 0, 0, 1]");
  CHECK(error_of("import tensorflow as tf\ntf.nn.conv2d(tf.ones([1, 4, 4, 1]), tf.ones([0, 3, 1, 1]), 1, 'VALID')\n")
            .find("filter must not have zero elements (i.e. all dimensions must be non-zero) [Op:Conv2D]") != std::string::npos);
  CHECK(out("import tensorflow as tf\nprint(tf.keras.layers.MaxPooling2D().built, "
            "tf.keras.layers.GlobalAveragePooling2D()(tf.constant([[[[1], [2]], [[3], [5]]]])).numpy().tolist())\n") ==
        Lines{"True [[2.75]]"});
}

TEST_CASE("integer convolution and max pooling, as TF's CPU kernels register them", "[conv-library]") {
  CHECK(out(R"(import tensorflow as tf
x = tf.reshape(tf.range(1, 17), [1, 4, 4, 1])
print(tf.nn.conv2d(x, tf.ones([2, 2, 1, 1], tf.int32), 1, "VALID")[0, :, :, 0].numpy().tolist())
print(tf.nn.max_pool2d(x, 2, 2, "VALID")[0, :, :, 0].numpy().tolist())
)") == Lines{"[[14, 18, 22], [30, 34, 38], [46, 50, 54]]", "[[6, 8], [14, 16]]"});
}
