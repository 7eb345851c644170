// The library part of the tf module, written in the tape-script language itself:
// Keras layers, models, losses and optimizers (Keras 3.7 behaviour), tf.Module, and
// tf.data datasets. It runs before the learner's script, without moving the line,
// and uses the `_ts_*` natives of library_natives.cpp for what needs the engine.
#include "evaluator.h"

namespace ts::script {

const char* const kPreludeSource = R"PY(
keras = _ts_submodule(tf, 'keras', 'keras')
layers = _ts_submodule(keras, 'layers', 'keras.layers')
optimizers = _ts_submodule(keras, 'optimizers', 'keras.optimizers')
losses = _ts_submodule(keras, 'losses', 'keras.losses')
initializers = _ts_submodule(keras, 'initializers', 'keras.initializers')
activations = _ts_submodule(keras, 'activations', 'keras.activations')
data = _ts_submodule(tf, 'data', 'tf.data')
# TF 2.17's aliases of the Keras modules
tf.optimizers = optimizers
tf.losses = losses
tf.initializers = initializers


# Keras 3.7's activation functions (keras.activations), by the names they print with.
def linear(x):
    return x


def relu(x, negative_slope=0.0, max_value=None, threshold=0.0):
    # keras/src/activations/activations.py ReLU.static_call
    if negative_slope == 0.0 and max_value is None and threshold == 0.0:
        return tf.nn.relu(x)
    x = tf.convert_to_tensor(x)
    if negative_slope != 0.0:
        if max_value is None and threshold == 0:
            return tf.nn.leaky_relu(x, alpha=negative_slope)
        if threshold != 0:
            negative_part = tf.nn.relu(-x + threshold)
        else:
            negative_part = tf.nn.relu(-x)
    else:
        negative_part = 1
    clip_max = max_value is not None
    if threshold != 0:
        x = x * tf.cast(tf.greater(x, threshold), dtype=x.dtype)
    elif max_value == 6:
        x = tf.nn.relu6(x)
        clip_max = False
    else:
        x = tf.nn.relu(x)
    if clip_max:
        x = tf.clip_by_value(x, 0.0, max_value)
    if negative_slope != 0.0:
        x = x - negative_slope * negative_part
    return x


def sigmoid(x):
    output = tf.nn.sigmoid(x)
    _ts_keras_logits[_ts_key(output)] = x
    return output


def softmax(x, axis=-1):
    output = tf.nn.softmax(x, axis=axis)
    _ts_keras_logits[_ts_key(output)] = x
    return output


def log_softmax(x, axis=-1):
    return tf.nn.log_softmax(x, axis=axis)


def tanh(x):
    return tf.tanh(x)


def softplus(x):
    return tf.nn.softplus(x)


def softsign(x):
    return tf.nn.softsign(x)


def elu(x, alpha=1.0):
    # Keras 3's TF backend: tf.nn.elu, its negative side scaled by alpha.
    res = tf.nn.elu(x)
    if alpha == 1:
        return res
    return tf.where(x > 0, res, alpha * res)


def selu(x):
    return tf.nn.selu(x)


def gelu(x, approximate=False):
    return _gelu(x, approximate)


def silu(x):
    return _silu(x)


def exponential(x):
    return tf.exp(x)


def hard_sigmoid(x):
    # keras.ops.hard_sigmoid on TF: clip(x / 6 + 0.5, 0, 1)
    x = tf.convert_to_tensor(x)
    return tf.clip_by_value(x / 6.0 + 0.5, 0.0, 1.0)


def mish(x):
    x = tf.convert_to_tensor(x)
    return x * tf.tanh(tf.nn.softplus(x))


def relu6(x):
    return tf.nn.relu6(x)


def leaky_relu(x, negative_slope=0.2):
    return tf.nn.leaky_relu(x, alpha=negative_slope)


_ACTIVATIONS = {'linear': linear, 'relu': relu, 'sigmoid': sigmoid, 'softmax': softmax,
                'log_softmax': log_softmax, 'tanh': tanh, 'softplus': softplus, 'softsign': softsign,
                'elu': elu, 'selu': selu, 'gelu': gelu, 'silu': silu, 'swish': silu,
                'exponential': exponential, 'hard_sigmoid': hard_sigmoid, 'mish': mish, 'relu6': relu6,
                'leaky_relu': leaky_relu}


def _activation(a):
    # keras.activations.get: None is `linear`, a name is looked up, a callable is kept.
    if a is None:
        return linear
    if isinstance(a, str):
        if a in _ACTIVATIONS:
            return _ACTIVATIONS[a]
        raise ValueError(f"Could not interpret activation function identifier: {a}")
    return a


class Initializer:
    __module__ = 'keras.src.initializers.initializer'

    def __call__(self, shape, dtype=None):
        raise NotImplementedError("Initializer subclasses must implement the `__call__()` method.")


def _ts_dtype_or_float(dtype):
    return tf.float32 if dtype is None else dtype


class Zeros(Initializer):
    __module__ = 'keras.src.initializers.constant_initializers'

    def __call__(self, shape, dtype=None):
        return tf.zeros(shape, dtype=_ts_dtype_or_float(dtype))


class Ones(Initializer):
    __module__ = 'keras.src.initializers.constant_initializers'

    def __call__(self, shape, dtype=None):
        return tf.ones(shape, dtype=_ts_dtype_or_float(dtype))


class Constant(Initializer):
    __module__ = 'keras.src.initializers.constant_initializers'

    def __init__(self, value=0.0):
        self.value = value

    def __call__(self, shape, dtype=None):
        dtype = _ts_dtype_or_float(dtype)
        return tf.cast(self.value, dtype) * tf.ones(shape, dtype=dtype)


class Identity(Initializer):
    __module__ = 'keras.src.initializers.constant_initializers'

    def __init__(self, gain=1.0):
        self.gain = gain

    def __call__(self, shape, dtype=None):
        if len(shape) != 2:
            raise ValueError(f"Identity matrix initializer can only be used for 2D matrices. Received: shape={shape} of rank {len(shape)}.")
        return self.gain * tf.eye(shape[0], shape[1], dtype=_ts_dtype_or_float(dtype))


class RandomInitializer(Initializer):
    # Keras 3: an int seed, or one made at construction, so the same initializer draws
    # the same values on every call.
    __module__ = 'keras.src.initializers.random_initializers'

    def __init__(self, seed=None):
        self._init_seed = seed
        if seed is None:
            seed = _ts_default_seed()
        elif not isinstance(seed, int):
            raise ValueError(f"`seed` argument should be an instance of `keras.random.SeedGenerator()` or an integer. Received: seed={seed}")
        self.seed = seed


class RandomNormal(RandomInitializer):
    __module__ = 'keras.src.initializers.random_initializers'

    def __init__(self, mean=0.0, stddev=0.05, seed=None):
        self.mean = mean
        self.stddev = stddev
        super().__init__(seed=seed)

    def __call__(self, shape, dtype=None):
        return _ts_random('normal', shape, self.mean, self.stddev, _ts_dtype_or_float(dtype), self.seed)


class RandomUniform(RandomInitializer):
    __module__ = 'keras.src.initializers.random_initializers'

    def __init__(self, minval=-0.05, maxval=0.05, seed=None):
        self.minval = minval
        self.maxval = maxval
        super().__init__(seed=seed)

    def __call__(self, shape, dtype=None):
        return _ts_random('uniform', shape, self.minval, self.maxval, _ts_dtype_or_float(dtype), self.seed)


class TruncatedNormal(RandomInitializer):
    __module__ = 'keras.src.initializers.random_initializers'

    def __init__(self, mean=0.0, stddev=0.05, seed=None):
        self.mean = mean
        self.stddev = stddev
        super().__init__(seed=seed)

    def __call__(self, shape, dtype=None):
        return _ts_random('truncated_normal', shape, self.mean, self.stddev, _ts_dtype_or_float(dtype), self.seed)


def _ts_compute_fans(shape):
    # random_initializers.compute_fans
    shape = tuple(shape)
    if len(shape) < 1:
        return 1, 1
    if len(shape) == 1:
        return shape[0], shape[0]
    if len(shape) == 2:
        return shape[0], shape[1]
    receptive = 1
    for d in shape[:-2]:
        receptive = receptive * d
    return shape[-2] * receptive, shape[-1] * receptive


class VarianceScaling(RandomInitializer):
    __module__ = 'keras.src.initializers.random_initializers'

    def __init__(self, scale=1.0, mode="fan_in", distribution="truncated_normal", seed=None):
        if scale <= 0.0:
            raise ValueError(f"Argument `scale` must be positive float. Received: scale={scale}")
        if mode not in ["fan_in", "fan_out", "fan_avg"]:
            raise ValueError(f"Invalid `mode` argument: {mode}. Please use one of {{'fan_in', 'fan_out', 'fan_avg'}}")
        distribution = distribution.lower()
        if distribution == "normal":
            distribution = "truncated_normal"
        if distribution not in ["uniform", "truncated_normal", "untruncated_normal"]:
            raise ValueError(f"Invalid `distribution` argument: {distribution}.Please use one of {{'uniform', 'truncated_normal', 'untruncated_normal'}}")
        self.scale = scale
        self.mode = mode
        self.distribution = distribution
        super().__init__(seed=seed)

    def __call__(self, shape, dtype=None):
        scale = self.scale
        fan_in, fan_out = _ts_compute_fans(shape)
        if self.mode == "fan_in":
            scale = scale / max(1.0, fan_in)
        elif self.mode == "fan_out":
            scale = scale / max(1.0, fan_out)
        else:
            scale = scale / max(1.0, (fan_in + fan_out) / 2.0)
        dtype = _ts_dtype_or_float(dtype)
        if self.distribution == "truncated_normal":
            return _ts_random('truncated_normal', shape, 0.0, scale ** 0.5 / 0.87962566103423978, dtype, self.seed)
        if self.distribution == "untruncated_normal":
            return _ts_random('normal', shape, 0.0, scale ** 0.5, dtype, self.seed)
        limit = (3.0 * scale) ** 0.5
        return _ts_random('uniform', shape, -limit, limit, dtype, self.seed)


class GlorotNormal(VarianceScaling):
    __module__ = 'keras.src.initializers.random_initializers'

    def __init__(self, seed=None):
        super().__init__(scale=1.0, mode="fan_avg", distribution="truncated_normal", seed=seed)


class GlorotUniform(VarianceScaling):
    __module__ = 'keras.src.initializers.random_initializers'

    def __init__(self, seed=None):
        super().__init__(scale=1.0, mode="fan_avg", distribution="uniform", seed=seed)


class HeNormal(VarianceScaling):
    __module__ = 'keras.src.initializers.random_initializers'

    def __init__(self, seed=None):
        super().__init__(scale=2.0, mode="fan_in", distribution="truncated_normal", seed=seed)


class HeUniform(VarianceScaling):
    __module__ = 'keras.src.initializers.random_initializers'

    def __init__(self, seed=None):
        super().__init__(scale=2.0, mode="fan_in", distribution="uniform", seed=seed)


class LecunNormal(VarianceScaling):
    __module__ = 'keras.src.initializers.random_initializers'

    def __init__(self, seed=None):
        super().__init__(scale=1.0, mode="fan_in", distribution="truncated_normal", seed=seed)


class LecunUniform(VarianceScaling):
    __module__ = 'keras.src.initializers.random_initializers'

    def __init__(self, seed=None):
        super().__init__(scale=1.0, mode="fan_in", distribution="uniform", seed=seed)


class Orthogonal(RandomInitializer):
    __module__ = 'keras.src.initializers.random_initializers'

    def __init__(self, gain=1.0, seed=None):
        self.gain = gain
        super().__init__(seed=seed)

    def __call__(self, shape, dtype=None):
        if len(shape) < 2:
            raise ValueError(f"The tensor to initialize must be at least two-dimensional. Received: shape={shape} of rank {len(shape)}.")
        return _ts_random('orthogonal', shape, self.gain, 0.0, _ts_dtype_or_float(dtype), self.seed)


_TS_INITIALIZERS = {}
for _ts_cls in [Constant, Identity, Ones, Zeros, GlorotNormal, GlorotUniform, HeNormal, HeUniform, LecunNormal,
                LecunUniform, Orthogonal, RandomNormal, RandomUniform, TruncatedNormal, VarianceScaling]:
    _TS_INITIALIZERS[_ts_cls.__name__] = _ts_cls
    _TS_INITIALIZERS[_ts_snake(_ts_cls.__name__)] = _ts_cls
    setattr(initializers, _ts_cls.__name__, _ts_cls)
_TS_INITIALIZERS['IdentityInitializer'] = Identity
_TS_INITIALIZERS['OrthogonalInitializer'] = Orthogonal
_TS_INITIALIZERS['normal'] = RandomNormal
_TS_INITIALIZERS['uniform'] = RandomUniform
_TS_INITIALIZERS['one'] = Ones
_TS_INITIALIZERS['zero'] = Zeros
initializers.Initializer = Initializer
initializers.IdentityInitializer = Identity
initializers.OrthogonalInitializer = Orthogonal


def _ts_initializer_get(identifier):
    # keras.initializers.get: None stays None, a name (case-sensitive) or class gives a
    # fresh instance, a callable is kept.
    if identifier is None:
        return None
    if isinstance(identifier, str):
        if identifier in _TS_INITIALIZERS:
            return _TS_INITIALIZERS[identifier]()
        raise ValueError(f"Could not interpret initializer identifier: {identifier}")
    if isinstance(identifier, type):
        return identifier()
    if callable(identifier):
        return identifier
    raise ValueError(f"Could not interpret initializer identifier: {identifier}")


initializers.get = _ts_initializer_get


def _initial_value(initializer, shape, dtype):
    init = _ts_initializer_get(initializer)
    if init is None:
        init = GlorotUniform()
    return init(shape, dtype=dtype)


# Keras 3's name scopes: a layer opens one (its name) to build and to call, so the
# variables of a sublayer built inside its parent's call get the path
# "parent/child/kernel" (keras/src/backend/common/name_scope.py).
_ts_scopes = []
_ts_call_context = []  # [training] of the outermost Layer.__call__ running now


def _ts_current_path():
    parts = []
    for entry in _ts_scopes:
        if entry[2] is not None:
            parts = [p for p in entry[2].split('/') if p]
        parts.append(entry[0])
    return '/'.join(parts)


def _ts_enter_scope(layer):
    if len(_ts_scopes) > 0:
        top = _ts_scopes[-1]
        if top[1] is layer and top[0] == layer.name:
            return False
    _ts_scopes.append([layer.name, layer, getattr(layer, '_ts_parent_path', None)])
    _ts_push_name_scope(layer.name)  # Keras' TF name_scope: a tf.Variable made inside is "layer/v:0"
    return True


def _ts_exit_scope(pushed):
    if pushed:
        _ts_scopes.pop()
        _ts_pop_name_scope()


class name_scope:
    # tf.name_scope (name_scope_v2): nested scopes join with "/"; a name ending in "/"
    # is absolute. Eagerly it names the variables made inside.
    __module__ = 'tensorflow.python.framework.ops'

    def __init__(self, name):
        if not isinstance(name, str):
            raise ValueError("name for name_scope must be a string.")
        self._name = name

    @property
    def name(self):
        return self._name

    def __enter__(self):
        return _ts_push_name_scope(self._name)

    def __exit__(self, exc_type, exc_value, traceback):
        _ts_pop_name_scope()
        return False


tf.name_scope = name_scope


def _ts_no_penalties(**named):
    # Weight regularizers, constraints and Layer.add_loss would change what training
    # does; tape scripts refuse them rather than ignore them.
    for key in sorted(named.keys()):
        if named[key] is not None:
            raise NotImplementedError(f"`{key}` (Keras regularizers, constraints and add_loss) is not supported in tape scripts")


class Layer:
    __module__ = 'keras.src.layers.layer'

    def __init__(self, name=None, trainable=True, dtype=None, activity_regularizer=None, autocast=True, **kwargs):
        _ts_no_penalties(activity_regularizer=activity_regularizer)
        self._ts_parent_path = None
        self._ts_weights = []
        self._ts_born_trainable = []  # per weight: created trainable (Keras' two lists)
        self.built = False
        self._ts_trainable = trainable
        # The dtype policy: variables are made and float inputs cast to it (autocast).
        if dtype is None:
            dtype = 'float32'
        self._ts_dtype = tf.dtypes.as_dtype(dtype)
        self._ts_autocast = autocast
        self._ts_min_ndim = None  # the input spec checked on the first input
        self._ts_axes = None
        if name is None:
            name = _ts_layer_name(type(self).__name__)
        self.name = name
        input_shape = kwargs.pop('input_shape', None)
        input_dim = kwargs.pop('input_dim', None)
        if input_dim is not None:
            input_shape = (input_dim,)
        if input_shape is not None:
            _ts_warn('UserWarning', "Do not pass an `input_shape`/`input_dim` argument to a layer. When using Sequential models, prefer using an `Input(shape)` object as the first layer in the model instead.")
            self._ts_input_shape_arg = tuple(input_shape)
        if len(kwargs) > 0:
            raise ValueError(f"Unrecognized keyword arguments passed to {type(self).__name__}: {kwargs}")

    def _ts_check_super_called(self):
        if '_ts_weights' not in self.__dict__:
            raise RuntimeError(f"In layer '{type(self).__name__}', you forgot to call `super().__init__()` as the first statement in the `__init__()` method. Go add it!")

    def _ts_lock_state(self):
        # Layer's build wrapper locks the tracker once built (Functional and Sequential
        # models do not lock).
        if not isinstance(self, Sequential):
            self._ts_locked = True

    def add_weight(self, shape=None, initializer=None, dtype=None, trainable=True, autocast=True,
                   regularizer=None, constraint=None, aggregation='none', name=None):
        self._ts_check_super_called()
        _ts_no_penalties(regularizer=regularizer, constraint=constraint)
        if shape is None:
            shape = ()
        if dtype is None:
            dtype = getattr(self, '_ts_dtype', tf.float32)
        dtype = tf.dtypes.as_dtype(dtype)
        if initializer is None:  # glorot_uniform for floating variables, zeros for the rest
            initializer = 'glorot_uniform' if dtype.is_floating else 'zeros'
        if getattr(self, '_ts_locked', False):  # Tracker.add_to_store on a locked tracker
            raise ValueError("You cannot add new elements of state (variables or sub-layers) to a layer that is already built. All state must be created in the `__init__()` method or in the `build()` method.")
        value = _initial_value(initializer, shape, dtype)
        if name is None:
            name = _ts_variable_name()
        pushed = _ts_enter_scope(self)
        try:
            path = _ts_current_path() + '/' + name
        finally:
            _ts_exit_scope(pushed)
        v = _ts_make_variable(value, name, trainable, path)
        self._ts_weights.append(v)
        self._ts_born_trainable.append(trainable)
        # Layer._track_variable: a frozen layer's new variables are frozen too.
        if not self.trainable:
            v.trainable = False
        return v

    def build(self, input_shape=None):
        self.built = True

    def add_loss(self, loss):
        _ts_no_penalties(add_loss=loss)

    @property
    def losses(self):
        return []  # nothing adds a loss: add_loss and regularizers are refused

    @property
    def trainable(self):
        return getattr(self, '_ts_trainable', True)

    @property
    def dtype(self):
        return getattr(self, '_ts_dtype', tf.float32).name

    @property
    def compute_dtype(self):
        return self.dtype

    @property
    def variable_dtype(self):
        return self.dtype

    @trainable.setter
    def trainable(self, value):
        # Keras 3.7 sets the flag on the layer, on the variables it created trainable
        # (the Keras flag: the tf.Variable inside keeps its own, so a tape still
        # watches them), and on every sublayer.
        value = bool(value)
        self._ts_trainable = value
        for w, born in zip(self._ts_weights, self._ts_born_trainable):
            if born:
                w.trainable = value
        for layer in self._ts_sublayers():
            layer.trainable = value

    def _ts_sublayers(self):
        # Keras' Tracker: layers held directly or in lists, tuples and dicts (TrackedList,
        # TrackedDict), nested, in the order they were assigned.
        found = []
        seen = {}  # id() of the layers and containers met (a container may hold itself)
        todo = list(reversed(list(self.__dict__.values())))
        while len(todo) > 0:
            value = todo.pop()
            is_layer = isinstance(value, Layer)
            if not (is_layer or isinstance(value, list) or isinstance(value, tuple) or isinstance(value, dict)):
                continue
            if id(value) in seen:
                continue
            seen[id(value)] = value  # kept alive, so its id stays its own
            if is_layer:
                found.append(value)
            else:
                items = list(value.values()) if isinstance(value, dict) else list(value)
                items.reverse()
                todo.extend(items)
        return found

    @property
    def weights(self):
        # Keras 3.7: own trainable, then own non-trainable (as created), then each sublayer's.
        pairs = list(zip(self._ts_weights, self._ts_born_trainable))
        out = [w for w, born in pairs if born] + [w for w, born in pairs if not born]
        for layer in self._ts_sublayers():
            for w in layer.weights:
                if not any([w is o for o in out]):
                    out.append(w)
        return out

    @property
    def trainable_weights(self):
        if not self.trainable:
            return []
        return [w for w in self.weights if w.trainable]

    @property
    def non_trainable_weights(self):
        if not self.trainable:
            return self.weights
        return [w for w in self.weights if not w.trainable]

    @property
    def trainable_variables(self):
        return self.trainable_weights

    @property
    def variables(self):
        return self.weights

    @property
    def non_trainable_variables(self):
        return self.non_trainable_weights

    def get_weights(self):
        return [w.numpy() for w in self.weights]

    def set_weights(self, weights):
        layer_weights = self.weights
        if len(layer_weights) != len(weights):
            raise ValueError(f"You called `set_weights(weights)` on layer '{self.name}' with a weight list of length {len(weights)}, but the layer was expecting {len(layer_weights)} weights.")
        for variable, value in zip(layer_weights, weights):
            if tuple(variable.shape) != tuple(value.shape):
                raise ValueError(f"Layer {self.name} weight shape {tuple(variable.shape)} is not compatible with provided weight shape {tuple(value.shape)}.")
            variable.assign(value)

    def __call__(self, *args, **kwargs):
        self._ts_check_super_called()
        # Layer.__call__: arrays become tensors, and float inputs are cast to the
        # layer's compute dtype (integers are left alone).
        dtype = getattr(self, '_ts_dtype', tf.float32)
        autocast = getattr(self, '_ts_autocast', True)
        converted = []
        for arg in args:
            if _ts_is_ndarray(arg):
                arg = tf.convert_to_tensor(arg)
            if autocast and _ts_is_tensor(arg) and arg.dtype.is_floating and arg.dtype != dtype:
                arg = tf.cast(arg, dtype)
            converted.append(arg)
        for arg in _ts_flatten(converted):
            if isinstance(arg, _KerasInput):
                raise NotImplementedError("The Keras functional API (a layer called on keras.Input) is not supported in tape scripts: subclass keras.Model or use keras.Sequential")
            if arg is not None and not _ts_is_tensor(arg):
                raise ValueError(f"Only input tensors may be passed as positional arguments. The following argument value should be passed as a keyword argument: {arg} (of type {type(arg)})")
        if len(converted) > 0 and _ts_is_tensor(converted[0]):
            self._ts_check_input_spec(converted[0])
        if getattr(self, '_ts_parent_path', None) is None:
            self._ts_parent_path = _ts_current_path()
        if not self.built:
            first = None
            if len(converted) > 0:
                first = converted[0]
            pushed = _ts_enter_scope(self)
            try:
                if first is not None and _ts_is_tensor(first):
                    self.build(_ts_shape_tuple(first))
                elif isinstance(first, (list, tuple)) and len(first) > 0 and all([_ts_is_tensor(t) for t in first]):
                    self.build([_ts_shape_tuple(t) for t in first])  # a list of inputs: a list of shapes
                else:
                    self.build(None)
            finally:
                _ts_exit_scope(pushed)
            self.built = True
            self._ts_lock_state()
        # Layer.__call__'s training value: passed, else the outer call's (the shared call
        # context), else the call signature's default; it becomes the context's value.
        outermost = len(_ts_call_context) == 0
        if outermost:
            _ts_call_context.append(None)
        pushed = _ts_enter_scope(self)
        try:
            training = kwargs.get('training', None)
            if training is None:
                training = _ts_call_context[0]
                if training is None:
                    training = _ts_training_default(self.call)
            _ts_call_context[0] = training
            if not _ts_accepts_training(self.call):
                kwargs.pop('training', None)
            elif training is not None:
                kwargs['training'] = training
            return _ts_keras_call(self, self.call, converted, kwargs)
        finally:
            _ts_exit_scope(pushed)
            if outermost:
                _ts_call_context.pop()

    def _ts_check_input_spec(self, x):
        # keras/src/layers/input_spec.py's messages
        shape = _ts_shape_tuple(x)
        ndim = getattr(self, '_ts_ndim', None)
        if ndim is not None and len(shape) != ndim:
            raise ValueError(f'Input 0 of layer "{self.name}" is incompatible with the layer: expected ndim={ndim}, found ndim={len(shape)}. Full shape received: {shape}')
        min_ndim = getattr(self, '_ts_min_ndim', None)
        if min_ndim is not None and len(shape) < min_ndim:
            raise ValueError(f'Input 0 of layer "{self.name}" is incompatible with the layer: expected min_ndim={min_ndim}, found ndim={len(shape)}. Full shape received: {shape}')
        axes = getattr(self, '_ts_axes', None)
        if axes is not None:
            for axis, value in axes.items():
                if value is not None and shape[axis] != value:
                    raise ValueError(f'Input 0 of layer "{self.name}" is incompatible with the layer: expected axis {axis} of input shape to have value {value}, but received input with shape {shape}')

    def call(self, *args, **kwargs):
        raise NotImplementedError(f"Layer {type(self).__name__} does not have a `call()` method implemented.")

    def __repr__(self):
        return f"<{type(self).__name__} name={self.name}, built={self.built}>"


class Dense(Layer):
    __module__ = 'keras.src.layers.core.dense'

    def __init__(self, units, activation=None, use_bias=True, kernel_initializer='glorot_uniform',
                 bias_initializer='zeros', kernel_regularizer=None, bias_regularizer=None, kernel_constraint=None,
                 bias_constraint=None, lora_rank=None, name=None, **kwargs):
        super().__init__(name=name, **kwargs)
        _ts_no_penalties(kernel_regularizer=kernel_regularizer, bias_regularizer=bias_regularizer,
                         kernel_constraint=kernel_constraint, bias_constraint=bias_constraint)
        self.units = units
        self.activation = _activation(activation)
        self.use_bias = use_bias
        self.kernel_initializer = _ts_initializer_get(kernel_initializer)
        self.bias_initializer = _ts_initializer_get(bias_initializer)
        self._ts_min_ndim = 2

    def build(self, input_shape):
        self._kernel = self.add_weight(shape=(input_shape[-1], self.units), initializer=self.kernel_initializer, name='kernel')
        if self.use_bias:
            self.bias = self.add_weight(shape=(self.units,), initializer=self.bias_initializer, name='bias')
        else:
            self.bias = None
        self._ts_axes = {-1: input_shape[-1]}
        self.built = True

    @property
    def kernel(self):
        if not self.built:
            raise AttributeError("You must build the layer before accessing `kernel`.")
        return self._kernel

    def compute_output_shape(self, input_shape):
        return tuple(input_shape)[:-1] + (self.units,)

    def call(self, inputs):
        # keras.ops.matmul casts both sides to their result type: an int input meets a
        # float kernel as the kernel's dtype.
        if not inputs.dtype.is_floating:
            inputs = tf.cast(inputs, self.kernel.dtype)
        y = tf.matmul(inputs, self.kernel)
        if self.bias is not None:
            y = y + self.bias
        if self.activation is not None:
            y = self.activation(y)
        return y


class Model(Layer):
    __module__ = 'keras.src.models.model'

    def __init__(self, *args, **kwargs):
        super().__init__(**kwargs)
        self.optimizer = None

    def compile(self, optimizer=None, loss=None, metrics=None, **kwargs):
        self.optimizer = _optimizer_get(optimizer)
        self.loss = loss

    @property
    def layers(self):
        # Model.layers: the layers it tracks as attributes, in order (not nested ones).
        return self._ts_sublayers()

    def summary(self):
        print(f'Model: "{self.name}"')

    def _ts_unsupported(self, what, instead):
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{what}': Model.{what} is not supported in tape scripts ({instead})")

    def fit(self, *args, **kwargs):
        self._ts_unsupported('fit', 'write the training step with tf.GradientTape')

    def evaluate(self, *args, **kwargs):
        self._ts_unsupported('evaluate', 'call the model and the loss')

    def predict(self, *args, **kwargs):
        self._ts_unsupported('predict', 'call the model: model(x)')

    def train_step(self, *args, **kwargs):
        self._ts_unsupported('train_step', 'write the training step with tf.GradientTape')


class _KerasInput:
    # keras.Input: a symbolic input; a Sequential model given one builds at once.
    def __init__(self, shape, dtype, name):
        self.shape = shape
        self.dtype = dtype
        self.name = name

    def __repr__(self):
        return f"<KerasTensor shape={self.shape}, dtype={self.dtype}, sparse=False, name={self.name}>"


def _keras_input(shape=None, batch_size=None, dtype=None, sparse=None, batch_shape=None, name=None, tensor=None):
    if batch_shape is None:
        batch_shape = (batch_size,) + tuple(shape)
    if dtype is None:
        dtype = 'float32'
    if name is None:
        name = 'keras_tensor'
    return _KerasInput(tuple(batch_shape), dtype, name)


class Sequential(Model):
    def __init__(self, layers=None, name=None, **kwargs):
        super().__init__(name=name, **kwargs)
        self._ts_layers = []
        self._ts_input_shape = None
        if layers is not None:
            for layer in layers:
                self.add(layer)

    def add(self, layer):
        if isinstance(layer, _KerasInput):
            self._ts_input_shape = layer.shape
            return
        if not isinstance(layer, Layer):
            raise ValueError(f"Only instances of `keras.Layer` can be added to a Sequential model. Received: {layer} (of type {type(layer)})")
        for ref_layer in self._ts_layers:
            if layer.name == ref_layer.name and not (ref_layer is layer):
                raise ValueError(f"All layers added to a Sequential model should have unique names. Name '{layer.name}' is already the name of a layer in this model. Update the `name` argument to pass a unique name.")
        if len(self._ts_layers) == 0 and self._ts_input_shape is None and getattr(layer, '_ts_input_shape_arg', None) is not None:
            self._ts_input_shape = (None,) + layer._ts_input_shape_arg
        self._ts_layers.append(layer)
        self._ts_maybe_build()

    @property
    def layers(self):
        return list(self._ts_layers)

    def build(self, input_shape=None):
        # Sequential.build(input_shape): each layer is built in turn, as on a first call.
        if input_shape is not None and self._ts_input_shape is None:
            self._ts_input_shape = tuple(input_shape)
            self._ts_maybe_build()
        self.built = True

    def _ts_maybe_build(self):
        # Keras 3 builds a Sequential model with a known input shape at once: each
        # layer in turn, inside the model's name scope (paths "sequential/dense/kernel").
        if self._ts_input_shape is None:
            return
        if getattr(self, '_ts_parent_path', None) is None:
            self._ts_parent_path = _ts_current_path()
        shape = self._ts_input_shape
        pushed = _ts_enter_scope(self)
        try:
            for layer in self._ts_layers:
                if not layer.built:
                    if getattr(layer, '_ts_parent_path', None) is None:
                        layer._ts_parent_path = _ts_current_path()
                    inner = _ts_enter_scope(layer)
                    try:
                        layer.build(shape)
                    finally:
                        _ts_exit_scope(inner)
                    layer.built = True
                    layer._ts_lock_state()
                if not hasattr(layer, 'compute_output_shape'):
                    return
                shape = layer.compute_output_shape(shape)
        finally:
            _ts_exit_scope(pushed)
        self.built = True

    def call(self, inputs, training=None):
        # Keras passes `training` on; Layer.__call__ drops it for a layer whose call has none.
        x = inputs
        for layer in self._ts_layers:
            x = layer(x, training=training)
        return x


class Flatten(Layer):
    __module__ = 'keras.src.layers.reshaping.flatten'

    def __init__(self, data_format=None, **kwargs):
        super().__init__(**kwargs)
        self._ts_min_ndim = 1  # InputSpec(min_ndim=1)

    def compute_output_shape(self, input_shape):
        n = 1
        for d in tuple(input_shape)[1:]:
            if d is None:
                return (input_shape[0], None)
            n = n * d
        return (input_shape[0], n)

    def call(self, inputs):
        shape = _ts_shape_tuple(inputs)
        return tf.reshape(inputs, (shape[0], self.compute_output_shape(shape)[1]))


def _ts_pair(value, name, allow_zero=False):
    # keras.src.utils.argument_validation.standardize_tuple for n = 2
    error_msg = f"The `{name}` argument must be a tuple of 2 integers. Received {name}={value}"
    if isinstance(value, int):
        value_tuple = (value, value)
    else:
        value_tuple = tuple(value)
        if len(value_tuple) != 2:
            raise ValueError(error_msg)
    bad = sorted(dict.fromkeys([v for v in value_tuple if (v < 0 if allow_zero else v <= 0)]))
    if bad:
        req = ">= 0" if allow_zero else "> 0"
        shown = '{' + ', '.join([str(v) for v in bad]) + '}'
        raise ValueError(error_msg + f", including values {shown} that do not satisfy `value {req}`")
    return value_tuple


def _ts_channels_last(data_format):
    if data_format not in (None, 'channels_last'):
        raise ValueError(f"data_format={data_format!r} is not supported in tape scripts (only 'channels_last')")


class Conv2D(Layer):
    # Keras 3.7's BaseConv for rank 2, channels_last: ops.conv (TF's Conv2D op), then the
    # bias reshaped to (1, 1, 1, filters) and added, then the activation.
    __module__ = 'keras.src.layers.convolutional.conv2d'

    def __init__(self, filters, kernel_size, strides=(1, 1), padding='valid', data_format=None, dilation_rate=(1, 1),
                 groups=1, activation=None, use_bias=True, kernel_initializer='glorot_uniform', bias_initializer='zeros',
                 kernel_regularizer=None, bias_regularizer=None, activity_regularizer=None, kernel_constraint=None,
                 bias_constraint=None, **kwargs):
        super().__init__(**kwargs)
        _ts_no_penalties(kernel_regularizer=kernel_regularizer, bias_regularizer=bias_regularizer,
                         activity_regularizer=activity_regularizer, kernel_constraint=kernel_constraint,
                         bias_constraint=bias_constraint)
        _ts_channels_last(data_format)
        if groups != 1:
            raise ValueError("Conv2D with groups != 1 is not supported in tape scripts")
        self.filters = filters
        self.kernel_size = _ts_pair(kernel_size, 'kernel_size')
        self.strides = _ts_pair(strides, 'strides')
        self.dilation_rate = _ts_pair(dilation_rate, 'dilation_rate')
        if self.filters is not None and self.filters <= 0:
            raise ValueError(f"Invalid value for argument `filters`. Expected a strictly positive value. Received filters={self.filters}.")
        if max(self.strides) > 1 and max(self.dilation_rate) > 1:
            raise ValueError(f"`strides > 1` not supported in conjunction with `dilation_rate > 1`. Received: strides={self.strides} and dilation_rate={self.dilation_rate}")
        padding = padding.lower()
        if padding not in ('valid', 'same'):
            raise ValueError(f"The `padding` argument must be one of 'valid', 'same'. Received: padding={padding}")
        self.padding = padding
        self.activation = _activation(activation)
        self.use_bias = use_bias
        self.kernel_initializer = _ts_initializer_get(kernel_initializer)
        self.bias_initializer = _ts_initializer_get(bias_initializer)
        self._ts_min_ndim = 4

    def build(self, input_shape):
        channels = input_shape[-1]
        self.kernel = self.add_weight(shape=self.kernel_size + (channels, self.filters),
                                      initializer=self.kernel_initializer, name='kernel')
        if self.use_bias:
            self.bias = self.add_weight(shape=(self.filters,), initializer=self.bias_initializer, name='bias')
        else:
            self.bias = None
        self._ts_axes = {-1: channels}
        self.built = True

    def compute_output_shape(self, input_shape):
        dims = []
        for i in range(2):
            n = input_shape[1 + i]
            k = (self.kernel_size[i] - 1) * self.dilation_rate[i] + 1
            if n is None:
                dims.append(None)
            elif self.padding == 'same':
                dims.append((n + self.strides[i] - 1) // self.strides[i])
            else:
                dims.append((n - k) // self.strides[i] + 1)
        return (input_shape[0], dims[0], dims[1], self.filters)

    def call(self, inputs):
        outputs = tf.nn.convolution(inputs, self.kernel, strides=self.strides, padding=self.padding.upper(),
                                    dilations=self.dilation_rate)
        if self.use_bias:
            outputs = tf.add(outputs, tf.reshape(self.bias, (1, 1, 1, self.filters)))
        if self.activation is not None:
            outputs = self.activation(outputs)
        return outputs


class _ts_Pooling2D(Layer):
    def __init__(self, pool_size=(2, 2), strides=None, padding='valid', data_format=None, name=None, **kwargs):
        super().__init__(name=name, **kwargs)
        _ts_channels_last(data_format)
        self.pool_size = _ts_pair(pool_size, 'pool_size')
        self.strides = _ts_pair(pool_size if strides is None else strides, 'strides', allow_zero=True)
        padding = padding.lower()
        if padding not in ('valid', 'same'):
            raise ValueError(f"The `padding` argument must be one of 'valid', 'same'. Received: padding={padding}")
        self.padding = padding
        self._ts_ndim = 4
        self.built = True  # no weights: built when made, as Keras' pooling layers

    def compute_output_shape(self, input_shape):
        dims = []
        for i in range(2):
            n = input_shape[1 + i]
            if n is None:
                dims.append(None)
            elif self.padding == 'same':
                dims.append((n - 1) // self.strides[i] + 1)
            else:
                dims.append((n - self.pool_size[i]) // self.strides[i] + 1)
        return (input_shape[0], dims[0], dims[1], input_shape[3])


class MaxPooling2D(_ts_Pooling2D):
    __module__ = 'keras.src.layers.pooling.max_pooling2d'

    def call(self, inputs):
        return tf.nn.max_pool(inputs, self.pool_size, self.strides, self.padding.upper())


class AveragePooling2D(_ts_Pooling2D):
    __module__ = 'keras.src.layers.pooling.average_pooling2d'

    def call(self, inputs):
        return tf.nn.avg_pool(inputs, self.pool_size, self.strides, self.padding.upper())


class GlobalAveragePooling2D(Layer):
    __module__ = 'keras.src.layers.pooling.global_average_pooling2d'

    def __init__(self, data_format=None, keepdims=False, **kwargs):
        super().__init__(**kwargs)
        _ts_channels_last(data_format)
        self.keepdims = keepdims
        self._ts_ndim = 4

    def compute_output_shape(self, input_shape):
        if self.keepdims:
            return (input_shape[0], 1, 1, input_shape[3])
        return (input_shape[0], input_shape[3])

    def call(self, inputs):
        if not inputs.dtype.is_floating:  # ops.mean: result_type(x, float32)
            inputs = tf.cast(inputs, tf.float32)
        return tf.reduce_mean(inputs, axis=[1, 2], keepdims=self.keepdims)


class GlobalMaxPooling2D(GlobalAveragePooling2D):
    __module__ = 'keras.src.layers.pooling.global_max_pooling2d'

    def call(self, inputs):
        return tf.reduce_max(inputs, axis=[1, 2], keepdims=self.keepdims)


class Embedding(Layer):
    # Keras 3.7: ops.take(embeddings, ids, axis=0), i.e. TF's gather of the read
    # variable (an IndexedSlices gradient); float ids are cast to int32.
    __module__ = 'keras.src.layers.core.embedding'

    def __init__(self, input_dim, output_dim, embeddings_initializer='uniform', embeddings_regularizer=None,
                 embeddings_constraint=None, mask_zero=False, weights=None, lora_rank=None, **kwargs):
        _ts_no_penalties(embeddings_regularizer=embeddings_regularizer, embeddings_constraint=embeddings_constraint)
        input_length = kwargs.pop('input_length', None)
        if input_length is not None:
            _ts_warn('UserWarning', "Argument `input_length` is deprecated. Just remove it.")
        super().__init__(**kwargs)
        self.input_dim = input_dim
        self.output_dim = output_dim
        self.embeddings_initializer = _ts_initializer_get(embeddings_initializer)
        self.mask_zero = mask_zero
        self._ts_autocast = False

    def build(self, input_shape=None):
        if self.built:
            return
        self._embeddings = self.add_weight(shape=(self.input_dim, self.output_dim),
                                           initializer=self.embeddings_initializer, name='embeddings')
        self.built = True

    @property
    def embeddings(self):
        return self._embeddings

    def compute_output_shape(self, input_shape):
        return tuple(input_shape) + (self.output_dim,)

    def call(self, inputs):
        if inputs.dtype != tf.int32 and inputs.dtype != tf.int64:
            inputs = tf.cast(inputs, tf.int32)
        x = tf.convert_to_tensor(self.embeddings)
        indices = tf.where(inputs < 0, inputs + tf.cast(tf.shape(x)[0], inputs.dtype), inputs)
        return tf.cast(tf.gather(x, indices, axis=0), self.compute_dtype)


def _ts_norm_axes(axis):
    if isinstance(axis, (list, tuple)):
        return list(axis)
    if isinstance(axis, int):
        return axis
    raise TypeError("Expected an int or a list/tuple of ints for the argument 'axis', but received: %r" % (axis,))


class LayerNormalization(Layer):
    # Keras 3.7: ops.moments over `axis` (tf.nn.moments), then
    # x * (rsqrt(var + eps) * gamma) + (beta - mean * rsqrt(var + eps) * gamma).
    __module__ = 'keras.src.layers.normalization.layer_normalization'

    def __init__(self, axis=-1, epsilon=1e-3, center=True, scale=True, rms_scaling=False, beta_initializer='zeros',
                 gamma_initializer='ones', beta_regularizer=None, gamma_regularizer=None, beta_constraint=None,
                 gamma_constraint=None, **kwargs):
        super().__init__(**kwargs)
        _ts_no_penalties(beta_regularizer=beta_regularizer, gamma_regularizer=gamma_regularizer,
                         beta_constraint=beta_constraint, gamma_constraint=gamma_constraint)
        self.axis = _ts_norm_axes(axis)
        self.epsilon = epsilon
        self.center = center
        self.scale = scale
        self.rms_scaling = rms_scaling
        self.beta_initializer = _ts_initializer_get(beta_initializer)
        self.gamma_initializer = _ts_initializer_get(gamma_initializer)
        self._ts_autocast = False

    def build(self, input_shape):
        if isinstance(self.axis, list):
            shape = tuple([input_shape[dim] for dim in self.axis])
        else:
            shape = (input_shape[self.axis],)
            self.axis = [self.axis]
        if self.scale or self.rms_scaling:
            self.gamma = self.add_weight(name='gamma', shape=shape, initializer=self.gamma_initializer, autocast=False)
        else:
            self.gamma = None
        if self.center and not self.rms_scaling:
            self.beta = self.add_weight(name='beta', shape=shape, initializer=self.beta_initializer, autocast=False)
        else:
            self.beta = None
        self.built = True

    def compute_output_shape(self, input_shape):
        return input_shape

    def call(self, inputs):
        input_shape = inputs.shape
        ndims = len(input_shape)
        broadcast_shape = [1] * ndims
        for dim in self.axis:
            broadcast_shape[dim] = input_shape[dim]

        def _broadcast(v):
            if v is not None and len(v.shape) != ndims and self.axis != [ndims - 1]:
                return tf.reshape(v, broadcast_shape)
            return v

        if not inputs.dtype.is_floating or inputs.dtype == tf.float16:
            inputs = tf.cast(inputs, tf.float32)
        if self.rms_scaling:
            variance = tf.math.reduce_variance(inputs, axis=self.axis, keepdims=True)
            inv = tf.math.rsqrt(variance + self.epsilon)
            outputs = inputs * inv * tf.cast(_broadcast(self.gamma), inputs.dtype)
        else:
            mean, variance = tf.nn.moments(inputs, axes=self.axis, keepdims=True)
            gamma, beta = _broadcast(self.gamma), _broadcast(self.beta)
            inv = tf.math.rsqrt(variance + self.epsilon)
            if gamma is not None:
                inv = inv * tf.cast(gamma, inputs.dtype)
            res = -mean * inv
            if beta is not None:
                res = res + tf.cast(beta, inputs.dtype)
            outputs = inputs * inv + res
        return tf.cast(outputs, self.compute_dtype)


def _batch_normalization(x, mean, variance, offset, scale, variance_epsilon, name=None):
    # nn_impl.batch_normalization
    inv = tf.math.rsqrt(variance + variance_epsilon)
    if scale is not None:
        inv = inv * scale
    return x * tf.cast(inv, x.dtype) + tf.cast(offset - mean * inv if offset is not None else -mean * inv, x.dtype)


class BatchNormalization(Layer):
    # Keras 3.7: in training, the batch's moments normalize and the moving statistics
    # are assigned (momentum); otherwise the moving statistics normalize.
    __module__ = 'keras.src.layers.normalization.batch_normalization'

    def __init__(self, axis=-1, momentum=0.99, epsilon=1e-3, center=True, scale=True, beta_initializer='zeros',
                 gamma_initializer='ones', moving_mean_initializer='zeros', moving_variance_initializer='ones',
                 beta_regularizer=None, gamma_regularizer=None, beta_constraint=None, gamma_constraint=None,
                 synchronized=False, **kwargs):
        super().__init__(**kwargs)
        _ts_no_penalties(beta_regularizer=beta_regularizer, gamma_regularizer=gamma_regularizer,
                         beta_constraint=beta_constraint, gamma_constraint=gamma_constraint)
        self.axis = int(axis)
        self.momentum = float(momentum)
        self.epsilon = float(epsilon)
        self.center = center
        self.scale = scale
        self.beta_initializer = _ts_initializer_get(beta_initializer)
        self.gamma_initializer = _ts_initializer_get(gamma_initializer)
        self.moving_mean_initializer = _ts_initializer_get(moving_mean_initializer)
        self.moving_variance_initializer = _ts_initializer_get(moving_variance_initializer)
        self._ts_autocast = False

    def build(self, input_shape):
        shape = (input_shape[self.axis],)
        if self.scale:
            self.gamma = self.add_weight(shape=shape, name='gamma', initializer=self.gamma_initializer, autocast=False)
        if self.center:
            self.beta = self.add_weight(shape=shape, name='beta', initializer=self.beta_initializer, autocast=False)
        self.moving_mean = self.add_weight(shape=shape, name='moving_mean', initializer=self.moving_mean_initializer,
                                           trainable=False, autocast=False)
        self.moving_variance = self.add_weight(shape=shape, name='moving_variance',
                                               initializer=self.moving_variance_initializer, trainable=False,
                                               autocast=False)
        self._ts_ndim = len(input_shape)
        self._ts_axes = {self.axis: input_shape[self.axis]}
        reduction_axes = list(range(len(input_shape)))
        del reduction_axes[self.axis]
        self._reduction_axes = reduction_axes
        self.built = True

    def compute_output_shape(self, input_shape):
        return input_shape

    def call(self, inputs, training=None, mask=None):
        if not inputs.dtype.is_floating or inputs.dtype == tf.float16:
            inputs = tf.cast(inputs, tf.float32)
        moving_mean = tf.cast(self.moving_mean, inputs.dtype)
        moving_variance = tf.cast(self.moving_variance, inputs.dtype)
        if training and self.trainable:
            mean, variance = tf.nn.moments(inputs, axes=self._reduction_axes, keepdims=False)
            self.moving_mean.assign(moving_mean * self.momentum + mean * (1.0 - self.momentum))
            self.moving_variance.assign(moving_variance * self.momentum + variance * (1.0 - self.momentum))
        else:
            mean = moving_mean
            variance = moving_variance
        gamma = tf.cast(self.gamma, inputs.dtype) if self.scale else None
        beta = tf.cast(self.beta, inputs.dtype) if self.center else None
        axis = self.axis
        if axis != -1:
            shape = [1] * len(inputs.shape)
            shape[axis] = mean.shape[0]
            mean = tf.reshape(mean, shape)
            variance = tf.reshape(variance, shape)
            if beta is not None:
                beta = tf.reshape(beta, shape)
            if gamma is not None:
                gamma = tf.reshape(gamma, shape)
        outputs = _batch_normalization(inputs, mean, variance, beta, gamma, self.epsilon)
        return tf.cast(outputs, self.compute_dtype)


class _ts_Merge(Layer):
    # Keras 3.7's Merge layers (base_merge.py): build checks the shapes; inputs of lower
    # rank get axes added at 1 before they are combined pairwise, in order.
    def _ts_combine(self, a, b):
        raise NotImplementedError

    def _ts_elemwise_shape(self, shape1, shape2):
        if shape1 is None or shape2 is None:
            return None
        if len(shape1) < len(shape2):
            return self._ts_elemwise_shape(shape2, shape1)
        if not shape2:
            return shape1
        output_shape = list(shape1[:-len(shape2)])
        for i, j in zip(shape1[-len(shape2):], shape2):
            if i is None or j is None:
                output_shape.append(None)
            elif i == 1:
                output_shape.append(j)
            elif j == 1:
                output_shape.append(i)
            else:
                if i != j:
                    raise ValueError(f"Inputs have incompatible shapes. Received shapes {shape1} and {shape2}")
                output_shape.append(i)
        return tuple(output_shape)

    def build(self, input_shape):
        if input_shape is None or not isinstance(input_shape[0], (tuple, list)):
            raise ValueError(f"A merge layer should be called on a list of inputs. Received: input_shape={input_shape} (not a list of shapes)")
        batch_sizes = [s[0] for s in input_shape if s and s[0] is not None]
        if len(dict.fromkeys(batch_sizes)) > 1:
            raise ValueError(f"Cannot merge tensors with different batch sizes. Received tensors with shapes {input_shape}")
        output_shape = input_shape[0][1:]
        for i in range(1, len(input_shape)):
            output_shape = self._ts_elemwise_shape(output_shape, input_shape[i][1:])
        self._reshape_required = len(dict.fromkeys([len(s) for s in input_shape])) != 1
        self.built = True

    def _merge_function(self, inputs):
        output = inputs[0]
        for i in range(1, len(inputs)):
            output = self._ts_combine(output, inputs[i])
        return output

    def call(self, inputs):
        if not isinstance(inputs, (list, tuple)):
            raise ValueError(f"A merge layer should be called on a list of inputs. Received: inputs={inputs} (not a list of tensors)")
        if getattr(self, '_reshape_required', False):
            max_ndim = max([len(x.shape) for x in inputs])
            reshaped = []
            for x in inputs:
                for _ in range(max_ndim - len(x.shape)):
                    x = tf.expand_dims(x, axis=1)
                reshaped.append(x)
            return self._merge_function(reshaped)
        return self._merge_function(inputs)


class Add(_ts_Merge):
    __module__ = 'keras.src.layers.merging.add'

    def _ts_combine(self, a, b):
        return tf.add(a, b)


class Subtract(_ts_Merge):
    __module__ = 'keras.src.layers.merging.subtract'

    def build(self, input_shape):
        super().build(input_shape)
        if len(input_shape) != 2:
            raise ValueError(f"A `Subtract` layer should be called on exactly 2 inputs. Received: input_shape={input_shape}")

    def _merge_function(self, inputs):
        if len(inputs) != 2:
            raise ValueError(f"A `Subtract` layer should be called on exactly 2 inputs. Received: inputs={inputs}")
        return tf.subtract(inputs[0], inputs[1])


class Multiply(_ts_Merge):
    __module__ = 'keras.src.layers.merging.multiply'

    def _ts_combine(self, a, b):
        return tf.multiply(a, b)


class Average(_ts_Merge):
    __module__ = 'keras.src.layers.merging.average'

    def _merge_function(self, inputs):
        output = inputs[0]
        for i in range(1, len(inputs)):
            output = tf.add(output, inputs[i])
        return output / len(inputs)


class Concatenate(Layer):
    __module__ = 'keras.src.layers.merging.concatenate'

    def __init__(self, axis=-1, **kwargs):
        super().__init__(**kwargs)
        self.axis = axis

    def call(self, inputs):
        return tf.concat(inputs, axis=self.axis)


class Dropout(Layer):
    __module__ = 'keras.src.layers.regularization.dropout'

    def __init__(self, rate, noise_shape=None, seed=None, **kwargs):
        super().__init__(**kwargs)
        if not (0 <= rate and rate <= 1):
            raise ValueError(f"Invalid value received for argument `rate`. Expected a float value between 0 and 1. Received: rate={rate}")
        self.rate = rate
        self.seed = seed

    def compute_output_shape(self, input_shape):
        return input_shape

    def call(self, inputs, training=False):
        # Only while training: keep each value with probability 1 - rate, scaled up by
        # 1/(1 - rate). The mask is a seeded constant (its stream is not TF's).
        if not training or self.rate == 0:
            return inputs
        # As stateless_dropout: x·(1/(1 - rate)) where kept, 0 elsewhere.
        keep = _ts_random('uniform', _ts_shape_tuple(inputs), 0.0, 1.0, inputs.dtype) >= self.rate
        scaled = tf.multiply(inputs, tf.constant(1 / (1 - self.rate), dtype=inputs.dtype))
        return tf.where(keep, scaled, tf.zeros([], dtype=inputs.dtype))


class Activation(Layer):
    __module__ = 'keras.src.layers.activations.activation'

    def __init__(self, activation, **kwargs):
        super().__init__(**kwargs)
        self.activation = _activation(activation)

    def compute_output_shape(self, input_shape):
        return input_shape

    def call(self, inputs):
        return self.activation(inputs)


class ReLU(Layer):
    __module__ = 'keras.src.layers.activations.relu'

    def compute_output_shape(self, input_shape):
        return input_shape

    def call(self, inputs):
        return relu(inputs)


layers.Layer = Layer
layers.Dense = Dense
layers.Flatten = Flatten
layers.Embedding = Embedding
layers.LayerNormalization = LayerNormalization
layers.BatchNormalization = BatchNormalization
layers.Add = Add
layers.Subtract = Subtract
layers.Multiply = Multiply
layers.Average = Average
layers.Concatenate = Concatenate
layers.Conv2D = Conv2D
layers.Convolution2D = Conv2D
layers.MaxPooling2D = MaxPooling2D
layers.MaxPool2D = MaxPooling2D
layers.AveragePooling2D = AveragePooling2D
layers.AvgPool2D = AveragePooling2D
layers.GlobalAveragePooling2D = GlobalAveragePooling2D
layers.GlobalAvgPool2D = GlobalAveragePooling2D
layers.GlobalMaxPooling2D = GlobalMaxPooling2D
layers.GlobalMaxPool2D = GlobalMaxPooling2D
layers.Dropout = Dropout
layers.Activation = Activation
layers.ReLU = ReLU
keras.Model = Model
keras.Sequential = Sequential
keras.Input = _keras_input
layers.Input = _keras_input
keras.layers = layers
models = _ts_submodule(keras, 'models', 'keras.models')
models.Model = Model
models.Sequential = Sequential


_REDUCTIONS = ['sum_over_batch_size', 'sum', None, 'none', 'mean', 'mean_with_sample_weight']


def _ts_same_rank(x1, x2):
    # keras/src/losses/loss.py squeeze_or_expand_to_same_rank: labels (N,) against
    # predictions (N, 1) become (N, 1), not an (N, N) broadcast.
    r1 = len(x1.shape)
    r2 = len(x2.shape)
    if r1 == r2 + 1 and x1.shape[-1] == 1:
        if r2 == 1:
            x2 = tf.expand_dims(x2, -1)
        else:
            x1 = tf.squeeze(x1, -1)
    if r2 == r1 + 1 and x2.shape[-1] == 1:
        if r1 == 1:
            x1 = tf.expand_dims(x1, -1)
        else:
            x2 = tf.squeeze(x2, -1)
    return x1, x2


def _ts_as_float(x, dtype):
    # keras.ops.convert_to_tensor(x, dtype): a tensor of another dtype is cast.
    x = tf.convert_to_tensor(x)
    if x.dtype != dtype:
        x = tf.cast(x, dtype)
    return x


def _ts_reduce_weighted(values, sample_weight, reduction, mask=None):
    # keras/src/losses/loss.py reduce_weighted_values and reduce_values
    if mask is not None:
        # apply_mask: masked entries weigh 0, the others total / valid, so a mean is
        # taken over the valid ones.
        mask = tf.cast(mask, values.dtype)
        if reduction in ('mean', 'sum_over_batch_size'):
            total = tf.cast(tf.size(mask), values.dtype)
            valid = tf.reduce_sum(mask)
            mask = mask * (total / (valid + _ts_epsilon))
        if sample_weight is not None:
            sample_weight = _ts_as_float(sample_weight, values.dtype)
            mask, sample_weight = _ts_same_rank(mask, sample_weight)
            sample_weight = sample_weight * mask
        else:
            sample_weight = mask
    if sample_weight is not None:
        sample_weight = _ts_as_float(sample_weight, values.dtype)
        values, sample_weight = _ts_same_rank(values, sample_weight)
        values = values * sample_weight
    if reduction is None or reduction == 'none' or len(values.shape) == 0 or tuple(values.shape) == (0,):
        return values
    loss = tf.reduce_sum(values)
    if reduction == 'sum':
        return loss
    if reduction == 'mean_with_sample_weight' and sample_weight is not None:
        divisor = tf.reduce_sum(sample_weight)
    else:
        divisor = tf.cast(tf.size(values), loss.dtype)
    return tf.math.divide_no_nan(loss, divisor)


class Loss:
    __module__ = 'keras.src.losses.loss'

    def __init__(self, name=None, reduction='sum_over_batch_size', dtype=None):
        if reduction not in _REDUCTIONS:
            raise ValueError(f"Invalid value for argument `reduction`. Expected one of {{'sum_over_batch_size', 'sum', None, 'none', 'mean', 'mean_with_sample_weight'}}. Received: reduction={reduction}")
        self.name = name
        self.reduction = reduction
        if dtype is None:
            dtype = 'float32'
        self._ts_dtype = tf.dtypes.as_dtype(dtype)

    @property
    def dtype(self):
        return self._ts_dtype.name

    def __call__(self, y_true, y_pred, sample_weight=None):
        y_pred = _ts_as_float(y_pred, self._ts_dtype)
        y_true = _ts_as_float(y_true, self._ts_dtype)
        losses = self.call(y_true, y_pred)
        mask = _ts_keras_masks.get(_ts_key(losses), None)
        return _ts_reduce_weighted(losses, sample_weight, self.reduction, mask)

    def call(self, y_true, y_pred):
        raise NotImplementedError


class MeanSquaredError(Loss):
    __module__ = 'keras.src.losses.losses'

    def __init__(self, reduction='sum_over_batch_size', name='mean_squared_error', dtype=None):
        super().__init__(name=name, reduction=reduction, dtype=dtype)

    def call(self, y_true, y_pred):
        return mean_squared_error(y_true, y_pred)


class MeanAbsoluteError(Loss):
    __module__ = 'keras.src.losses.losses'

    def __init__(self, reduction='sum_over_batch_size', name='mean_absolute_error', dtype=None):
        super().__init__(name=name, reduction=reduction, dtype=dtype)

    def call(self, y_true, y_pred):
        return mean_absolute_error(y_true, y_pred)


losses.Loss = Loss
losses.MeanSquaredError = MeanSquaredError
losses.MeanAbsoluteError = MeanAbsoluteError


# The functions give one loss per sample (the mean over the last axis); the classes
# then reduce over the batch (keras/src/losses/losses.py).
def mean_squared_error(y_true, y_pred):
    y_pred = tf.convert_to_tensor(y_pred)
    y_true = _ts_as_float(y_true, y_pred.dtype)
    y_true, y_pred = _ts_same_rank(y_true, y_pred)
    return tf.reduce_mean(tf.square(y_true - y_pred), axis=-1)


def mean_absolute_error(y_true, y_pred):
    y_pred = tf.convert_to_tensor(y_pred)
    y_true = _ts_as_float(y_true, y_pred.dtype)
    y_true, y_pred = _ts_same_rank(y_true, y_pred)
    return tf.reduce_mean(tf.abs(y_true - y_pred), axis=-1)


losses.mean_squared_error = mean_squared_error
losses.mse = mean_squared_error
losses.MSE = mean_squared_error
losses.mean_absolute_error = mean_absolute_error
losses.mae = mean_absolute_error
losses.MAE = mean_absolute_error

_ts_epsilon = 1e-7
# Keras' sigmoid and softmax outputs remember their logits (output._keras_logits), and
# the cross-entropies use them instead of the clipped probabilities (_get_logits).
_ts_keras_logits = {}
# A loss's per-sample values may carry a mask (backend.set_keras_mask: ignore_class).
_ts_keras_masks = {}


def _ts_same_shape(target, output, what):
    # backend/tensorflow/nn.py: the cross-entropies' rank and shape checks
    if len(target.shape) != len(output.shape):
        raise ValueError(f"Arguments `target` and `output` must have the same rank (ndim). Received: target.shape={target.shape}, output.shape={output.shape}")
    for e1, e2 in zip(target.shape, output.shape):
        if e1 is not None and e2 is not None and e1 != e2:
            raise ValueError(f"Arguments `target` and `output` must have the same shape. Received: target.shape={target.shape}, output.shape={output.shape}")


def _ts_get_logits(output, from_logits, op_type, fn_name):
    # keras/src/backend/tensorflow/nn.py _get_logits: a Keras activation's logits, or, for a
    # graph tensor (in a tf.function), the input of the Softmax/Sigmoid op that made it.
    key = _ts_key(output)
    if key in _ts_keras_logits:
        logits = _ts_keras_logits[key]
    elif not tf.executing_eagerly():
        logits = _ts_producer_input(output, op_type)
        if logits is None:
            return output, from_logits
    else:
        return output, from_logits
    if from_logits:
        _ts_warn('UserWarning', f'"`{fn_name}` received `from_logits=True`, but the `output` argument was produced by a {op_type} activation and thus does not represent logits. Was this intended?')
    return logits, True


def binary_crossentropy(y_true, y_pred, from_logits=False, label_smoothing=0.0, axis=-1):
    # Keras 3.7 (TF backend): clip to [eps, 1 - eps] unless logits; mean over `axis`.
    y_pred = tf.convert_to_tensor(y_pred)
    y_true = _ts_as_float(y_true, y_pred.dtype)
    if label_smoothing:
        y_true = y_true * (1.0 - label_smoothing) + 0.5 * label_smoothing
    _ts_same_shape(y_true, y_pred, 'binary_crossentropy')
    y_pred, from_logits = _ts_get_logits(y_pred, from_logits, 'Sigmoid', 'binary_crossentropy')
    if from_logits:
        bce = tf.nn.sigmoid_cross_entropy_with_logits(labels=y_true, logits=y_pred)
    else:
        output = tf.clip_by_value(y_pred, _ts_epsilon, 1.0 - _ts_epsilon)
        bce = -(y_true * tf.math.log(output) + (1 - y_true) * tf.math.log(1 - output))
    return tf.reduce_mean(bce, axis=axis)


def categorical_crossentropy(y_true, y_pred, from_logits=False, label_smoothing=0.0, axis=-1):
    y_pred = tf.convert_to_tensor(y_pred)
    y_true = _ts_as_float(y_true, y_pred.dtype)
    if label_smoothing:
        num_classes = y_pred.shape[-1]
        y_true = y_true * (1.0 - label_smoothing) + label_smoothing / num_classes
    if len(y_true.shape) < 1:
        raise ValueError(f"Arguments `target` and `output` must be at least rank 1. Received: target.shape={y_true.shape}, output.shape={y_pred.shape}")
    _ts_same_shape(y_true, y_pred, 'categorical_crossentropy')
    y_pred, from_logits = _ts_get_logits(y_pred, from_logits, 'Softmax', 'categorical_crossentropy')
    if from_logits:
        return tf.nn.softmax_cross_entropy_with_logits(labels=y_true, logits=y_pred, axis=axis)
    output = y_pred / tf.reduce_sum(y_pred, axis, keepdims=True)
    output = tf.clip_by_value(output, _ts_epsilon, 1.0 - _ts_epsilon)
    return -tf.reduce_sum(y_true * tf.math.log(output), axis)


def _ts_sparse_cce_backend(target, output, from_logits, axis):
    # Keras 3.7's TF backend: no renormalisation, only clipping, for probabilities.
    if axis != -1 and axis != len(output.shape) - 1:
        raise ValueError(f"Only axis=-1 is currently supported. Received: axis={axis}")
    output, from_logits = _ts_get_logits(output, from_logits, 'Softmax', 'sparse_categorical_crossentropy')
    target = tf.cast(tf.convert_to_tensor(target), tf.int64)
    output = tf.convert_to_tensor(output)
    if len(target.shape) == len(output.shape) and target.shape[-1] == 1:
        target = tf.squeeze(target, -1)
    if len(output.shape) < 1:
        raise ValueError(f"Argument `output` must be at least rank 1. Received: output.shape={output.shape}")
    if len(target.shape) != len(output.shape[:-1]):
        raise ValueError(f"Argument `output` must have rank (ndim) `target.ndim - 1`. Received: target.shape={target.shape}, output.shape={output.shape}")
    for e1, e2 in zip(target.shape, output.shape[:-1]):
        if e1 is not None and e2 is not None and e1 != e2:
            raise ValueError(f"Arguments `target` and `output` must have the same shape up until the last dimension: target.shape={target.shape}, output.shape={output.shape}")
    if not from_logits:
        output = tf.math.log(tf.clip_by_value(output, _ts_epsilon, 1.0 - _ts_epsilon))
    return tf.nn.sparse_softmax_cross_entropy_with_logits(labels=target, logits=output)


def sparse_categorical_crossentropy(y_true, y_pred, from_logits=False, ignore_class=None, axis=-1):
    y_pred = tf.convert_to_tensor(y_pred)
    y_true = tf.convert_to_tensor(y_true)
    if len(y_true.shape) == len(y_pred.shape) and y_true.shape[-1] == 1:
        y_true = tf.squeeze(y_true, -1)
    valid_mask = None
    if ignore_class is not None:
        # Entries of ignore_class count as a valid class 0 with zeroed logits, then get 0
        # loss and a mask the reduction honours.
        res_shape = y_pred.shape[:-1]
        # (keras.ops.not_equal promotes an integer y_true to y_pred's dtype)
        valid_mask = tf.not_equal(tf.cast(y_true, y_pred.dtype), tf.cast(ignore_class, y_pred.dtype))
        y_true = y_true * tf.cast(valid_mask, y_true.dtype)
        y_pred = y_pred * tf.cast(tf.expand_dims(valid_mask, -1), y_pred.dtype)
    res = _ts_sparse_cce_backend(y_true, y_pred, from_logits, axis)
    if valid_mask is not None:
        valid_mask = tf.reshape(valid_mask, res_shape)
        res = tf.where(valid_mask, res, 0.0)
        _ts_keras_masks[_ts_key(res)] = valid_mask
    return res


class BinaryCrossentropy(Loss):
    __module__ = 'keras.src.losses.losses'

    def __init__(self, from_logits=False, label_smoothing=0.0, axis=-1, reduction='sum_over_batch_size', name='binary_crossentropy', dtype=None):
        super().__init__(name=name, reduction=reduction, dtype=dtype)
        self.from_logits = from_logits
        self.label_smoothing = label_smoothing
        self.axis = axis

    def call(self, y_true, y_pred):
        y_true, y_pred = _ts_same_rank(y_true, y_pred)
        return binary_crossentropy(y_true, y_pred, self.from_logits, self.label_smoothing, self.axis)


class CategoricalCrossentropy(Loss):
    __module__ = 'keras.src.losses.losses'

    def __init__(self, from_logits=False, label_smoothing=0.0, axis=-1, reduction='sum_over_batch_size', name='categorical_crossentropy', dtype=None):
        super().__init__(name=name, reduction=reduction, dtype=dtype)
        self.from_logits = from_logits
        self.label_smoothing = label_smoothing
        self.axis = axis

    def call(self, y_true, y_pred):
        y_true, y_pred = _ts_same_rank(y_true, y_pred)
        return categorical_crossentropy(y_true, y_pred, self.from_logits, self.label_smoothing, self.axis)


class SparseCategoricalCrossentropy(Loss):
    __module__ = 'keras.src.losses.losses'

    def __init__(self, from_logits=False, ignore_class=None, reduction='sum_over_batch_size', name='sparse_categorical_crossentropy', dtype=None):
        super().__init__(name=name, reduction=reduction, dtype=dtype)
        self.from_logits = from_logits
        self.ignore_class = ignore_class

    def call(self, y_true, y_pred):
        y_true, y_pred = _ts_same_rank(y_true, y_pred)
        return sparse_categorical_crossentropy(y_true, y_pred, self.from_logits, self.ignore_class)


losses.BinaryCrossentropy = BinaryCrossentropy
losses.CategoricalCrossentropy = CategoricalCrossentropy
losses.SparseCategoricalCrossentropy = SparseCategoricalCrossentropy
losses.binary_crossentropy = binary_crossentropy
losses.categorical_crossentropy = categorical_crossentropy
losses.sparse_categorical_crossentropy = sparse_categorical_crossentropy


class Optimizer:
    __module__ = 'keras.src.optimizers.optimizer'

    def __init__(self, learning_rate=0.001, weight_decay=None, clipnorm=None, clipvalue=None, global_clipnorm=None,
                 use_ema=False, ema_momentum=0.99, ema_overwrite_frequency=None, loss_scale_factor=None,
                 gradient_accumulation_steps=None, name=None, **kwargs):
        if kwargs.pop('decay', None) is not None:
            _ts_warn('UserWarning', "Argument `decay` is no longer supported and will be ignored.")
        if len(kwargs) > 0:
            raise ValueError(f"Argument(s) not recognized: {kwargs}")
        if name is None:
            name = _ts_snake(type(self).__name__)
        self.name = name
        if use_ema or loss_scale_factor is not None or gradient_accumulation_steps is not None:
            raise ValueError("use_ema, loss_scale_factor and gradient_accumulation_steps are not supported in tape scripts")
        if len([c for c in [clipnorm, clipvalue, global_clipnorm] if c is not None]) > 1:
            raise ValueError(f"Only one of `clipnorm`, `clipvalue` and `global_clipnorm` can be set. Received: clipnorm={clipnorm}, clipvalue={clipvalue}, global_clipnorm={global_clipnorm}")
        self.weight_decay = weight_decay
        self.clipnorm = clipnorm
        self.clipvalue = clipvalue
        self.global_clipnorm = global_clipnorm
        # Keras 3: an int64 Variable "<name>/iteration", then the learning rate as a
        # float32 Variable "<name>/learning_rate", neither trainable.
        scope = name
        if _ts_current_path() != '':
            scope = _ts_current_path() + '/' + name
        self.iterations = _ts_make_variable(tf.constant(0, dtype=tf.int64), 'iteration', False, scope + '/iteration')
        if callable(learning_rate):
            self._ts_learning_rate = learning_rate
        else:
            if not isinstance(learning_rate, float):
                raise ValueError(f"Argument `learning_rate` should be float, or an instance of LearningRateSchedule, or a callable (that takes in the current iteration value and returns the corresponding learning rate value). Received instead: learning_rate={learning_rate}")
            self._ts_learning_rate = _ts_make_variable(tf.constant(learning_rate, dtype=tf.float32), 'learning_rate', False, scope + '/learning_rate')
        self._ts_variables = []  # slot variables, in the order build made them
        self._ts_built_with = None  # the variables of the first apply (Keras builds with them)
        self.built = False

    @property
    def learning_rate(self):
        if isinstance(self._ts_learning_rate, tf.Variable):
            return self._ts_learning_rate
        return self._ts_learning_rate()

    @learning_rate.setter
    def learning_rate(self, value):
        if callable(value):
            self._ts_learning_rate = value
        else:
            self._ts_learning_rate.assign(value)

    def _ts_filter(self, grads_and_vars):
        grads, trainable_variables = zip(*grads_and_vars)
        kept = []
        missing = []
        for g, v in zip(grads, trainable_variables):
            if g is None:
                missing.append(v)
            elif type(g).__name__ == 'IndexedSlices':
                kept.append((tf.convert_to_tensor(g), v))
            else:
                kept.append((g, v))
        if len(kept) == 0:
            raise ValueError("No gradients provided for any variable.")
        if len(missing) > 0:
            names = [_ts_variable_label(v) for v in missing]
            _ts_warn('UserWarning', f"Gradients do not exist for variables {names} when minimizing the loss. If using `model.compile()`, did you forget to provide a `loss` argument?")
        return kept

    def _ts_slot(self, reference, name):
        # add_variable_from_reference: a zero variable like the reference, made under the
        # optimizer's name ("sgd/dense_kernel_momentum"); state kept in variables, so a
        # tf.function's traces change nothing and its calls update it.
        label = _ts_variable_label(reference).replace('/', '_').replace(':', '_')
        v = _ts_make_variable(tf.zeros(reference.shape, dtype=reference.dtype), label + '_' + name, False,
                              self.name + '/' + label + '_' + name)
        self._ts_variables.append(v)
        return v

    def build(self, variables):
        # Keras builds on the first apply, with every variable given (None gradients too).
        if self._ts_built_with is not None:
            return
        self._ts_built_with = list(variables)
        self._ts_index_of = {}
        for i, v in enumerate(self._ts_built_with):
            self._ts_index_of[_ts_key(v)] = i
        self._ts_build_slots(self._ts_built_with)
        self.built = True

    def _ts_build_slots(self, variables):
        pass

    def _ts_index(self, v):
        # BaseOptimizer._get_variable_index: the variable's place in build's list
        return self._ts_index_of[_ts_key(v)]

    @property
    def variables(self):
        out = [self.iterations]
        if isinstance(self._ts_learning_rate, tf.Variable):
            out.append(self._ts_learning_rate)
        return out + self._ts_variables

    def apply_gradients(self, grads_and_vars):
        pairs = list(grads_and_vars)
        variables = [v for g, v in pairs]
        if self._ts_built_with is None:
            self.build(variables)
        else:
            # BaseOptimizer._check_variables_are_known, before empty gradients are filtered.
            for v in variables:
                if not any([v is k for k in self._ts_built_with]):
                    raise ValueError(f"Unknown variable: {v}. This optimizer can only be called for the variables it was originally built with. When working with a new set of variables, you should recreate a new optimizer instance.")
        kept = self._ts_filter(pairs)
        grads = self._ts_clip([g for g, v in kept])
        kept = list(zip(grads, [v for g, v in kept]))
        if self.weight_decay is not None:
            # _apply_weight_decay: v -= v * wd * lr, before the update
            for g, v in kept:
                lr = tf.cast(self.learning_rate, v.dtype)
                wd = tf.cast(self.weight_decay, v.dtype)
                v.assign(v - v * wd * lr)
        for g, v in kept:
            # every update_step starts by casting the gradient to the variable's dtype
            self._ts_update(tf.cast(g, v.dtype), v)
        self.iterations.assign_add(1)
        return self.iterations

    def _ts_clip(self, grads):
        # BaseOptimizer._clip_gradients
        if self.clipnorm is not None and self.clipnorm > 0:
            out = []
            for g in grads:
                l2sum = tf.reduce_sum(tf.square(g), None, keepdims=True)
                pred = l2sum > 0
                l2sum_safe = tf.where(pred, l2sum, tf.ones_like(l2sum))
                l2norm = tf.where(pred, tf.sqrt(l2sum_safe), l2sum)
                out.append(tf.convert_to_tensor(g * self.clipnorm) / tf.maximum(l2norm, self.clipnorm))
            return out
        if self.global_clipnorm is not None and self.global_clipnorm > 0:
            use_norm = tf.sqrt(tf.reduce_sum(tf.stack([tf.reduce_sum(tf.square(g)) for g in grads])))
            scale_for_finite = self.global_clipnorm * tf.minimum(1.0 / use_norm, 1.0 / self.global_clipnorm)
            scale = scale_for_finite + (use_norm - use_norm)
            return [g * scale for g in grads]
        if self.clipvalue is not None and self.clipvalue > 0:
            return [tf.clip_by_value(g, -self.clipvalue, self.clipvalue) for g in grads]
        return grads

    def apply(self, grads, trainable_variables=None):
        grads = list(grads)
        if len(grads) == 0:
            return None  # base_optimizer.apply: no gradients, nothing to do
        if trainable_variables is None:
            # Built already: the variables it was built with.
            if self._ts_built_with is None:
                raise ValueError("When passing `grads` without `variables`, the optimizer must already be built on a list of variables. Call `optimizer.build(trainable_variables)` first. ")
            if len(grads) != len(self._ts_built_with):
                raise ValueError(f"When passing `grads` as a list of gradient tensors, the gradients must match `optimizer.variables` one-to-on. Received a list of {len(grads)} gradients, but the optimizer is tracking {len(self._ts_built_with)} trainable variables.")
            trainable_variables = self._ts_built_with
        return self.apply_gradients(zip(grads, trainable_variables))


class SGD(Optimizer):
    __module__ = 'keras.src.optimizers.sgd'

    def __init__(self, learning_rate=0.01, momentum=0.0, nesterov=False, name=None, **kwargs):
        super().__init__(learning_rate=learning_rate, name=name or 'SGD', **kwargs)
        if not isinstance(momentum, float) or momentum < 0 or momentum > 1:
            raise ValueError("`momentum` must be a float between [0, 1].")
        self.momentum = momentum
        self.nesterov = nesterov

    def _ts_build_slots(self, variables):
        self.momentums = []
        if self.momentum != 0:
            self.momentums = [self._ts_slot(v, 'momentum') for v in variables]

    def _ts_update(self, g, v):
        lr = tf.cast(self.learning_rate, v.dtype)
        if self.momentum == 0:
            v.assign_sub(g * lr)
            return
        m = self.momentums[self._ts_index(v)]
        momentum = tf.cast(self.momentum, v.dtype)
        m.assign(m * momentum - g * lr)
        if self.nesterov:
            v.assign_add(m * momentum - g * lr)
        else:
            v.assign_add(m)


class Adam(Optimizer):
    __module__ = 'keras.src.optimizers.adam'

    def __init__(self, learning_rate=0.001, beta_1=0.9, beta_2=0.999, epsilon=1e-07, amsgrad=False, name=None, **kwargs):
        super().__init__(learning_rate=learning_rate, name=name or 'adam', **kwargs)
        self.beta_1 = beta_1
        self.beta_2 = beta_2
        self.epsilon = epsilon
        self.amsgrad = amsgrad

    def _ts_build_slots(self, variables):
        # adam.py's build: each variable's momentum, then its velocity (their creation order).
        self._momentums = []
        self._velocities = []
        for v in variables:
            self._momentums.append(self._ts_slot(v, 'momentum'))
            self._velocities.append(self._ts_slot(v, 'velocity'))
        self._velocity_hats = []
        if self.amsgrad:
            self._velocity_hats = [self._ts_slot(v, 'velocity_hat') for v in variables]

    def _ts_update(self, g, v):
        i = self._ts_index(v)
        m = self._momentums[i]
        u = self._velocities[i]
        dtype = v.dtype
        lr = tf.cast(self.learning_rate, dtype)
        local_step = tf.cast(self.iterations + 1, dtype)
        beta_1_power = tf.pow(tf.cast(self.beta_1, dtype), local_step)
        beta_2_power = tf.pow(tf.cast(self.beta_2, dtype), local_step)
        alpha = lr * tf.sqrt(1 - beta_2_power) / (1 - beta_1_power)
        m.assign_add((g - m) * (1 - self.beta_1))
        u.assign_add((tf.square(g) - u) * (1 - self.beta_2))
        if self.amsgrad:
            u_hat = self._velocity_hats[i]
            u_hat.assign(tf.maximum(u_hat, u))
            u = u_hat
        v.assign_sub((m * alpha) / (tf.sqrt(u) + self.epsilon))


class RMSprop(Optimizer):
    __module__ = 'keras.src.optimizers.rmsprop'

    def __init__(self, learning_rate=0.001, rho=0.9, momentum=0.0, epsilon=1e-07, centered=False, name=None, **kwargs):
        super().__init__(learning_rate=learning_rate, name=name or 'rmsprop', **kwargs)
        self.rho = rho
        self.momentum = momentum
        self.epsilon = epsilon
        self.centered = centered

    def _ts_build_slots(self, variables):
        self._velocities = [self._ts_slot(v, 'velocity') for v in variables]
        self._momentums = []
        if self.momentum > 0:
            self._momentums = [self._ts_slot(v, 'momentum') for v in variables]
        self._average_gradients = []
        if self.centered:
            self._average_gradients = [self._ts_slot(v, 'average_gradient') for v in variables]

    def _ts_update(self, g, v):
        # keras/src/optimizers/rmsprop.py update_step
        i = self._ts_index(v)
        lr = tf.cast(self.learning_rate, v.dtype)
        velocity = self._velocities[i]
        rho = self.rho
        velocity.assign(rho * velocity + (1 - rho) * tf.square(g))
        if self.centered:
            average_grad = self._average_gradients[i]
            average_grad.assign(rho * average_grad + (1 - rho) * g)
            denominator = velocity - tf.square(average_grad) + self.epsilon
        else:
            denominator = velocity + self.epsilon
        increment = (lr * g) / tf.sqrt(denominator)
        if self.momentum > 0:
            momentum = self._momentums[i]
            momentum.assign(self.momentum * momentum + increment)
            v.assign_sub(momentum)
        else:
            v.assign_sub(increment)


optimizers.Optimizer = Optimizer
optimizers.SGD = SGD
optimizers.Adam = Adam
optimizers.RMSprop = RMSprop


def _optimizer_get(identifier):
    # keras.optimizers.get: an instance is kept, a name makes one with its defaults.
    if identifier is None or isinstance(identifier, Optimizer):
        return identifier
    if isinstance(identifier, str):
        if identifier.lower() == 'sgd':
            return SGD()
        if identifier.lower() == 'adam':
            return Adam()
        if identifier.lower() == 'rmsprop':
            return RMSprop()
    raise ValueError(f"Could not interpret optimizer identifier: {identifier}")


optimizers.get = _optimizer_get


def _ts_nest_leaves(value, out):
    if isinstance(value, dict):
        for k in sorted(value.keys()):
            _ts_nest_leaves(value[k], out)
    elif isinstance(value, list) or isinstance(value, tuple):
        for item in value:
            _ts_nest_leaves(item, out)
    else:
        out.append(value)


class Module:
    __module__ = 'tensorflow.python.module.module'

    def __init__(self, name=None):
        if name is None:
            name = _ts_snake(type(self).__name__)
        self._ts_name = name

    @property
    def name(self):
        return self._ts_name

    @property
    def name_scope(self):
        return name_scope(self._ts_name + '/')  # absolute, as the module's scope is

    def _ts_collect(self, want_trainable, seen=None):
        # module.py _flatten_module: attributes in sorted order, each flattened as
        # tf.nest does (dicts by sorted key, lists, tuples); every object once; the
        # modules found are walked after this one's own variables.
        if seen is None:
            seen = [self]
        out = []
        subs = []
        for key in sorted(self.__dict__.keys()):
            leaves = []
            _ts_nest_leaves(self.__dict__[key], leaves)
            for item in leaves:
                if any([item is s for s in seen]):
                    continue
                seen.append(item)
                if isinstance(item, tf.Variable):
                    if not want_trainable or item.trainable:
                        out.append(item)
                elif isinstance(item, Module) or isinstance(item, Layer):
                    subs.append(item)
        for sub in subs:
            if isinstance(sub, Module):
                out = out + list(sub._ts_collect(want_trainable, seen))
            elif want_trainable:
                out = out + list(sub.trainable_variables)
            else:
                out = out + list(sub.variables)
        return tuple(out)

    @property
    def trainable_variables(self):
        return self._ts_collect(True)

    @property
    def variables(self):
        return self._ts_collect(False)

    def _ts_submodules(self, seen):
        own = []
        for key in sorted(self.__dict__.keys()):
            leaves = []
            _ts_nest_leaves(self.__dict__[key], leaves)
            for item in leaves:
                if isinstance(item, Module) and not any([item is s for s in seen]):
                    seen.append(item)
                    own.append(item)
        out = list(own)
        for m in own:
            out = out + m._ts_submodules(seen)
        return out

    @property
    def submodules(self):
        # Every tf.Module below this one, in module.py's walk order.
        return tuple(self._ts_submodules([self]))


tf.Module = Module


class _Element:
    pass


class Dataset:
    __module__ = 'tensorflow.python.data.ops.dataset_ops'

    @staticmethod
    def from_tensor_slices(tensors, name=None):
        return _TensorSliceDataset(tensors)

    @staticmethod
    def from_tensors(tensors, name=None):
        return _TensorDataset(tensors, whole=True, ts_name='_TensorDataset')

    @staticmethod
    def range(*args):
        return _RangeDataset(tf.range(*args, dtype=tf.int64), ts_name='_RangeDataset')

    @property
    def element_spec(self):
        return self._ts_element_spec()

    def _ts_element_spec(self):
        return self._ts_inner._ts_element_spec()

    def __repr__(self):
        return f"<{self._ts_name} element_spec={self.element_spec}>"

    def batch(self, batch_size, drop_remainder=False, num_parallel_calls=None, **kwargs):
        b = _BatchDataset(self, batch_size, drop_remainder)
        if num_parallel_calls is not None:
            b._ts_name = '_ParallelBatchDataset'
        return b

    def shuffle(self, buffer_size, seed=None, reshuffle_each_iteration=True, **kwargs):
        return _ShuffleDataset(self, buffer_size, seed, reshuffle_each_iteration)

    def prefetch(self, buffer_size, **kwargs):
        return _PassDataset(self, '_PrefetchDataset')

    def cache(self, filename=''):
        return _PassDataset(self, 'CacheDataset')

    def repeat(self, count=None):
        return _RepeatDataset(self, count)

    def take(self, count):
        return _TakeDataset(self, count)

    def skip(self, count):
        return _SkipDataset(self, count)

    def map(self, map_func, num_parallel_calls=None, **kwargs):
        return _MapDataset(self, map_func, '_MapDataset' if num_parallel_calls is None else '_ParallelMapDataset')

    @staticmethod
    def zip(*args, datasets=None, name=None):
        if datasets is None:
            datasets = args[0] if len(args) == 1 else args
        return _ZipDataset(datasets)

    def enumerate(self, start=0, name=None):
        return _ZipDataset((_CounterDataset(start), self), ts_name='_EnumerateDataset')

    def filter(self, predicate, name=None):
        return _FilterDataset(self, predicate)

    def concatenate(self, dataset, name=None):
        return _ConcatenateDataset(self, dataset)

    def unbatch(self, name=None):
        return _UnbatchDataset(self)

    def __iter__(self):
        return OwnedIterator(self)

    def as_numpy_iterator(self):
        return _NumpyIterator(OwnedIterator(self))

    def _ts_sources(self):
        return self._ts_inner._ts_sources()

    def __len__(self):
        n = self._ts_length()
        if n == -1:
            raise TypeError("The dataset is infinite.")
        if n < 0:
            raise TypeError("The dataset length is unknown.")
        return n

    def cardinality(self):
        return tf.constant(self._ts_length(), dtype=tf.int64)


def _ts_to_numpy(element):
    if isinstance(element, tuple):
        return tuple([_ts_to_numpy(e) for e in element])
    if isinstance(element, dict):
        out = {}
        for k, v in element.items():
            out[k] = _ts_to_numpy(v)
        return out
    return element.numpy()


class _NumpyIterator:
    def __init__(self, inner):
        self._ts_inner = inner

    def __iter__(self):
        return self

    def __next__(self):
        return _ts_to_numpy(next(self._ts_inner))


def _ts_keep_shape(shape):
    return shape


def _ts_drop_first(shape):
    return shape[1:]


def _ts_respec(spec, prefix):
    # A batch's spec: each TensorSpec's shape with `prefix` in front.
    def one(leaf):
        return TensorSpec(shape=prefix + tuple(leaf.shape), dtype=leaf.dtype)
    return tf.nest.map_structure(one, spec)


def _ts_spec_structure(s, fn):
    # The TensorSpec structure of an element (its lists are tensors already), fn(shape) -> shape.
    def one(leaf):
        t = tf.convert_to_tensor(leaf) if _ts_is_ndarray(leaf) else leaf
        return TensorSpec(shape=fn(_ts_shape_tuple(t)), dtype=t.dtype)
    return tf.nest.map_structure(one, s)


def _ts_lists_to_tensors(s):
    # tf.data treats tuples and dicts as structure and a list as one tensor.
    if isinstance(s, list):
        return tf.convert_to_tensor(s)
    if isinstance(s, tuple):
        return tuple([_ts_lists_to_tensors(x) for x in s])
    if isinstance(s, dict):
        out = {}
        for k in s:
            out[k] = _ts_lists_to_tensors(s[k])
        return out
    return s


class _ts_End:
    pass


_ts_END = _ts_End()


# Datasets stream: each gives an iterator per epoch whose _ts_next() returns the next
# element or _ts_END, so an infinite dataset (repeat()) can feed batch, map, shuffle,
# skip and take as in TF.
class _ts_SliceIter:
    def __init__(self, ds):
        self._ts_ds = ds
        self._ts_pos = 0

    def _ts_next(self):
        ds = self._ts_ds
        if self._ts_pos >= ds._ts_n:
            return _ts_END
        self._ts_pos = self._ts_pos + 1
        if ds._ts_whole:
            return _ts_detach_structure(ds._ts_structure)
        return _ts_slice_structure(ds._ts_structure, self._ts_pos - 1)


class _SliceDataset(Dataset):
    def __init__(self, tensors, whole=False, ts_name='_TensorSliceDataset'):
        self._ts_name = ts_name
        tensors = _ts_lists_to_tensors(tensors)
        self._ts_structure = tensors
        self._ts_whole = whole
        self._ts_flat = _ts_flatten(tensors)
        if whole:
            self._ts_n = 1
        else:
            self._ts_n = _ts_first_dim(self._ts_flat)

    def _ts_sources(self):
        return [t for t in self._ts_flat if _ts_is_tensor(t)]

    def _ts_element_spec(self):
        if self._ts_whole:
            return _ts_spec_structure(self._ts_structure, _ts_keep_shape)
        return _ts_spec_structure(self._ts_structure, _ts_drop_first)

    def _ts_length(self):
        return self._ts_n

    def _ts_iter(self, epoch):
        return _ts_SliceIter(self)


class _TensorSliceDataset(_SliceDataset):
    pass


class _TensorDataset(_SliceDataset):
    pass


class _RangeDataset(_SliceDataset):
    pass


class _ts_BatchIter:
    def __init__(self, inner, n, drop):
        self._ts_inner = inner
        self._ts_n = n
        self._ts_drop = drop

    def _ts_next(self):
        chunk = []
        while len(chunk) < self._ts_n:
            x = self._ts_inner._ts_next()
            if x is _ts_END:
                break
            chunk.append(x)
        if len(chunk) == 0 or (len(chunk) < self._ts_n and self._ts_drop):
            return _ts_END
        return _ts_stack_structure(chunk)


class _BatchDataset(Dataset):
    _ts_name = '_BatchDataset'

    def __init__(self, inner, n, drop_remainder):
        if n <= 0:
            _ts_raise('InvalidArgumentError', 'Batch size must be greater than zero.')
        self._ts_inner = inner
        self._ts_batch = n
        self._ts_drop = drop_remainder

    def _ts_element_spec(self):
        first = self._ts_batch if self._ts_drop else None
        return _ts_respec(self._ts_inner._ts_element_spec(), (first,))

    def _ts_length(self):
        n = self._ts_inner._ts_length()
        if n < 0:
            return n
        if self._ts_drop:
            return n // self._ts_batch
        return (n + self._ts_batch - 1) // self._ts_batch

    def _ts_iter(self, epoch):
        return _ts_BatchIter(self._ts_inner._ts_iter(epoch), self._ts_batch, self._ts_drop)


class _ts_ShuffleIter:
    # ShuffleDatasetOp: a buffer of `size` elements; each output is a uniformly chosen
    # buffer slot, refilled from the input (so with a buffer of 1 nothing moves).
    def __init__(self, inner, size, state):
        self._ts_inner = inner
        self._ts_buffer = []
        self._ts_state = state
        while len(self._ts_buffer) < size:
            x = inner._ts_next()
            if x is _ts_END:
                break
            self._ts_buffer.append(x)

    def _ts_next(self):
        n = len(self._ts_buffer)
        if n == 0:
            return _ts_END
        self._ts_state = (self._ts_state * 1103515245 + 12345) % 2147483648
        i = (self._ts_state // 65536) % n
        item = self._ts_buffer[i]
        x = self._ts_inner._ts_next()
        if x is _ts_END:
            self._ts_buffer.pop(i)
        else:
            self._ts_buffer[i] = x
        return item


class _ShuffleDataset(Dataset):
    _ts_name = '_ShuffleDataset'

    def __init__(self, inner, buffer_size, seed, reshuffle):
        self._ts_inner = inner
        self._ts_buffer = buffer_size
        self._ts_seed = seed
        self._ts_reshuffle = reshuffle

    def _ts_length(self):
        return self._ts_inner._ts_length()

    def _ts_iter(self, epoch):
        e = epoch
        if not self._ts_reshuffle:
            e = 0
        seed = 87654321 if self._ts_seed is None else self._ts_seed
        state = (seed % 2147483648 * 1000003 + e * 7919) % 2147483648
        return _ts_ShuffleIter(self._ts_inner._ts_iter(epoch), max(1, self._ts_buffer), state)


class _PassDataset(Dataset):
    def __init__(self, inner, ts_name):
        self._ts_inner = inner
        self._ts_name = ts_name

    def _ts_length(self):
        return self._ts_inner._ts_length()

    def _ts_iter(self, epoch):
        return self._ts_inner._ts_iter(epoch)


def _ts_map_output(out):
    # structured_function: a top-level list is a tuple of components; Python values
    # become tensors.
    if isinstance(out, list):
        out = tuple(out)
    return tf.nest.map_structure(tf.convert_to_tensor, _ts_lists_to_tensors(out))


class _ts_MapIter:
    def __init__(self, inner, fn):
        self._ts_inner = inner
        self._ts_fn = fn

    def _ts_next(self):
        item = self._ts_inner._ts_next()
        if item is _ts_END:
            return _ts_END
        if isinstance(item, tuple):
            return _ts_map_output(self._ts_fn(*item))
        return _ts_map_output(self._ts_fn(item))


class _MapDataset(Dataset):
    def __init__(self, inner, fn, ts_name):
        self._ts_inner = inner
        self._ts_fn = fn
        self._ts_name = ts_name

    def _ts_element_spec(self):
        # TF traces map_func once for this; here it runs on the first element.
        item = _ts_MapIter(self._ts_inner._ts_iter(0), self._ts_fn)._ts_next()
        if item is _ts_END:
            return self._ts_inner._ts_element_spec()
        return _ts_spec_structure(item, _ts_keep_shape)

    def _ts_length(self):
        return self._ts_inner._ts_length()

    def _ts_iter(self, epoch):
        return _ts_MapIter(self._ts_inner._ts_iter(epoch), self._ts_fn)


class _ts_RepeatIter:
    def __init__(self, ds, count, epoch):
        self._ts_ds = ds
        self._ts_count = count
        self._ts_epoch = epoch
        self._ts_k = 0
        self._ts_cur = None

    def _ts_next(self):
        while True:
            if self._ts_count is not None and self._ts_count >= 0 and self._ts_k >= self._ts_count:
                return _ts_END
            if self._ts_cur is None:
                self._ts_cur = self._ts_ds._ts_iter(self._ts_epoch * 1000 + self._ts_k)
                self._ts_fresh = True
            x = self._ts_cur._ts_next()
            if not (x is _ts_END):
                self._ts_fresh = False
                return x
            if self._ts_fresh:
                return _ts_END  # an empty dataset repeated is empty
            self._ts_cur = None
            self._ts_k = self._ts_k + 1


class _RepeatDataset(Dataset):
    _ts_name = '_RepeatDataset'

    def __init__(self, inner, count):
        self._ts_inner = inner
        self._ts_count = count

    def _ts_length(self):
        # RepeatDatasetOp::CardinalityInternal
        n = self._ts_inner._ts_length()
        if self._ts_count is None or self._ts_count < 0:
            return 0 if n == 0 else -1
        if self._ts_count == 0:
            return 0
        if n < 0:
            return n
        return n * self._ts_count

    def _ts_iter(self, epoch):
        return _ts_RepeatIter(self._ts_inner, self._ts_count, epoch)


class _ts_TakeIter:
    def __init__(self, inner, count):
        self._ts_inner = inner
        self._ts_left = count

    def _ts_next(self):
        if self._ts_left == 0:
            return _ts_END
        self._ts_left = self._ts_left - 1
        return self._ts_inner._ts_next()


class _TakeDataset(Dataset):
    _ts_name = '_TakeDataset'

    def __init__(self, inner, count):
        self._ts_inner = inner
        self._ts_count = count

    def _ts_length(self):
        n = self._ts_inner._ts_length()
        if self._ts_count < 0 or n == -2:
            return n  # take(-1): all of it; of an unknown length: unknown
        if n < 0:
            return self._ts_count
        return min(n, self._ts_count)

    def _ts_iter(self, epoch):
        return _ts_TakeIter(self._ts_inner._ts_iter(epoch), self._ts_count)


class _ts_SkipIter:
    def __init__(self, inner, count):
        self._ts_inner = inner
        self._ts_count = count

    def _ts_next(self):
        if self._ts_count < 0:
            return _ts_END  # skip(-1) skips everything
        while self._ts_count > 0:
            self._ts_count = self._ts_count - 1
            if self._ts_inner._ts_next() is _ts_END:
                return _ts_END
        return self._ts_inner._ts_next()


class _SkipDataset(Dataset):
    _ts_name = '_SkipDataset'

    def __init__(self, inner, count):
        self._ts_inner = inner
        self._ts_count = count

    def _ts_length(self):
        # SkipDatasetOp::CardinalityInternal
        n = self._ts_inner._ts_length()
        if n < 0:
            return n
        if self._ts_count < 0:
            return 0
        return max(0, n - self._ts_count)

    def _ts_iter(self, epoch):
        return _ts_SkipIter(self._ts_inner._ts_iter(epoch), self._ts_count)


class _ts_CounterIter:
    def __init__(self, start):
        self._ts_i = start

    def _ts_next(self):
        self._ts_i = self._ts_i + 1
        return tf.constant(self._ts_i - 1, dtype=tf.int64)


class _CounterDataset(Dataset):
    _ts_name = '_CounterDataset'

    def __init__(self, start):
        self._ts_start = start

    def _ts_sources(self):
        return []

    def _ts_element_spec(self):
        return TensorSpec(shape=(), dtype=tf.int64)

    def _ts_length(self):
        return -1

    def _ts_iter(self, epoch):
        return _ts_CounterIter(self._ts_start)


class _ts_ZipIter:
    def __init__(self, its, structure):
        self._ts_its = its
        self._ts_structure = structure

    def _ts_next(self):
        items = []
        for it in self._ts_its:
            x = it._ts_next()
            if x is _ts_END:
                return _ts_END
            items.append(x)
        return tf.nest.pack_sequence_as(self._ts_structure, items)


class _ZipDataset(Dataset):
    # Dataset.zip: elements of the datasets side by side, in the nest they were given
    # in; it ends with the shortest.
    def __init__(self, datasets, ts_name='_ZipDataset'):
        self._ts_name = ts_name
        self._ts_structure = datasets
        self._ts_parts = tf.nest.flatten(datasets)
        if len(self._ts_parts) == 0:
            raise TypeError("Must pass at least one dataset to `zip`.")
        for d in self._ts_parts:
            if not isinstance(d, Dataset):
                raise TypeError(f"Invalid `datasets`. `datasets` is expected to be a (nested) structure of `tf.data.Dataset` objects. Received: {datasets}")

    def _ts_sources(self):
        out = []
        for d in self._ts_parts:
            out = out + list(d._ts_sources())
        return out

    def _ts_element_spec(self):
        return tf.nest.pack_sequence_as(self._ts_structure, [d._ts_element_spec() for d in self._ts_parts])

    def _ts_length(self):
        # ZipDatasetOp: unknown if any part is, else the shortest (infinite if all are).
        n = -1
        for d in self._ts_parts:
            k = d._ts_length()
            if k == -2:
                return -2
            if k >= 0 and (n < 0 or k < n):
                n = k
        return n

    def _ts_iter(self, epoch):
        return _ts_ZipIter([d._ts_iter(epoch) for d in self._ts_parts], self._ts_structure)


class _ts_FilterIter:
    def __init__(self, inner, predicate):
        self._ts_inner = inner
        self._ts_predicate = predicate

    def _ts_next(self):
        while True:
            item = self._ts_inner._ts_next()
            if item is _ts_END:
                return _ts_END
            keep = self._ts_predicate(*item) if isinstance(item, tuple) else self._ts_predicate(item)
            keep = tf.convert_to_tensor(keep)
            if keep.dtype != tf.bool or len(keep.shape) != 0:
                raise ValueError(f"Invalid predicate. `predicate` must return a `tf.bool` scalar tensor, but its return type is {TensorSpec(shape=keep.shape, dtype=keep.dtype)}.")
            if bool(keep):
                return item


class _FilterDataset(Dataset):
    _ts_name = '_FilterDataset'

    def __init__(self, inner, predicate):
        self._ts_inner = inner
        self._ts_predicate = predicate

    def _ts_length(self):
        return -2  # tf.data.UNKNOWN_CARDINALITY

    def _ts_iter(self, epoch):
        return _ts_FilterIter(self._ts_inner._ts_iter(epoch), self._ts_predicate)


class _ts_ConcatIter:
    def __init__(self, first, second, epoch):
        self._ts_it = first._ts_iter(epoch)
        self._ts_second = second
        self._ts_epoch = epoch
        self._ts_on_second = False

    def _ts_next(self):
        x = self._ts_it._ts_next()
        if x is _ts_END and not self._ts_on_second:
            self._ts_on_second = True
            self._ts_it = self._ts_second._ts_iter(self._ts_epoch)
            x = self._ts_it._ts_next()
        return x


class _ConcatenateDataset(Dataset):
    _ts_name = '_ConcatenateDataset'

    def __init__(self, first, second):
        self._ts_inner = first
        self._ts_second = second
        a = tf.nest.flatten(first.element_spec)
        b = tf.nest.flatten(second.element_spec)
        if len(a) != len(b) or any([x.dtype != y.dtype for x, y in zip(a, b)]):
            raise TypeError(f"Incompatible dataset elements:\n  {first.element_spec} vs.   {second.element_spec}")

    def _ts_sources(self):
        return list(self._ts_inner._ts_sources()) + list(self._ts_second._ts_sources())

    def _ts_length(self):
        a = self._ts_inner._ts_length()
        b = self._ts_second._ts_length()
        if a == -1 or b == -1:
            return -1
        if a < 0 or b < 0:
            return -2
        return a + b

    def _ts_iter(self, epoch):
        return _ts_ConcatIter(self._ts_inner, self._ts_second, epoch)


class _ts_UnbatchIter:
    def __init__(self, inner):
        self._ts_inner = inner
        self._ts_batch = None
        self._ts_pos = 0
        self._ts_n = 0

    def _ts_next(self):
        while self._ts_batch is None or self._ts_pos >= self._ts_n:
            b = self._ts_inner._ts_next()
            if b is _ts_END:
                return _ts_END
            self._ts_batch = b
            self._ts_pos = 0
            self._ts_n = _ts_first_dim(_ts_flatten(b))
        self._ts_pos = self._ts_pos + 1
        return _ts_slice_structure(self._ts_batch, self._ts_pos - 1)


class _UnbatchDataset(Dataset):
    _ts_name = '_UnbatchDataset'

    def __init__(self, inner):
        self._ts_inner = inner

    def _ts_element_spec(self):
        def one(leaf):
            return TensorSpec(shape=tuple(leaf.shape)[1:], dtype=leaf.dtype)
        return tf.nest.map_structure(one, self._ts_inner._ts_element_spec())

    def _ts_length(self):
        return -2

    def _ts_iter(self, epoch):
        return _ts_UnbatchIter(self._ts_inner._ts_iter(epoch))


class OwnedIterator:
    __module__ = 'tensorflow.python.data.ops.iterator_ops'

    def __init__(self, dataset):
        self._ts_dataset = dataset
        self._ts_it = dataset._ts_iter(_ts_next_epoch(dataset))
        self._ts_source_tensors = dataset._ts_sources()

    @property
    def element_spec(self):
        return self._ts_dataset.element_spec

    def __iter__(self):
        return self

    def _ts_get(self):
        item = self._ts_it._ts_next()
        if item is _ts_END:
            return _ts_END
        return _ts_iterator_get_next(item, self._ts_source_tensors)

    def __next__(self):
        item = self._ts_get()
        if item is _ts_END:
            raise StopIteration()
        return item

    def get_next(self):
        # iterator_ops.get_next: the end of the data is the op's OutOfRangeError.
        item = self._ts_get()
        if item is _ts_END:
            _ts_raise('OutOfRangeError', 'End of sequence')
        return item


# tf ops TF itself writes in Python from other ops (same formulas, so the same
# gradients): norms, clipping by norm, log-sum-exp, moments, losses of tf.nn.

def _norm(tensor, ord='euclidean', axis=None, keepdims=None, name=None):
    # linalg_ops.norm: vector norms (p > 0) over one axis or all; matrix norms over two.
    is_matrix_norm = isinstance(axis, (list, tuple)) and len(axis) == 2
    if is_matrix_norm:
        axis = tuple(axis)
        if not isinstance(axis[0], int) or not isinstance(axis[1], int) or axis[0] == axis[1]:
            raise ValueError(f"'axis' must be None, an integer, or a tuple of 2 unique integers, got {axis}")
        if ord not in ['euclidean', 'fro', 1, 2, float('inf')]:
            raise ValueError(f"'ord' must be a supported matrix norm in ['euclidean', 'fro', 1, 2, inf], got {ord}")
    else:
        if not (isinstance(axis, int) or axis is None):
            raise ValueError(f"'axis' must be None, an integer, or a tuple of 2 unique integers, got {axis}")
        if ord not in ['euclidean', 1, 2, float('inf')] and (isinstance(ord, str) or ord <= 0):
            raise ValueError(f"'ord' must be a supported vector norm, got {ord}")
        if axis is not None:
            axis = (axis,)
    x = tf.convert_to_tensor(tensor)
    if ord in ['fro', 'euclidean', 2, 2.0]:
        if is_matrix_norm and ord in [2, 2.0]:
            raise ValueError("tf.norm(ord=2) of a matrix (its largest singular value, by SVD) is not supported in tape scripts")
        result = tf.sqrt(tf.reduce_sum(x * x, axis, keepdims=True))
    else:
        result = tf.abs(x)
        if ord == 1:
            result = tf.reduce_sum(result, None if axis is None else axis[0], keepdims=True)
            if is_matrix_norm:
                result = tf.reduce_max(result, axis[-1], keepdims=True)
        elif ord == float('inf'):
            if is_matrix_norm:
                result = tf.reduce_sum(result, axis[1], keepdims=True)
            result = tf.reduce_max(result, None if axis is None else axis[0], keepdims=True)
        else:
            result = tf.pow(tf.reduce_sum(tf.pow(result, ord), axis, keepdims=True), 1.0 / ord)
    if not keepdims:
        result = tf.squeeze(result, axis)
    return result


def _clip_by_norm(t, clip_norm, axes=None, name=None):
    # clip_ops.clip_by_norm: an IndexedSlices clips its values; a negative limit is zero.
    values = tf.convert_to_tensor(t.values if isinstance(t, tf.IndexedSlices) else t)
    if isinstance(clip_norm, (int, float)):
        if clip_norm < 0:
            clip_norm = 0
    else:
        clip_norm = tf.cast(tf.maximum(clip_norm, 0), dtype=values.dtype)
    l2sum = tf.reduce_sum(values * values, axes, keepdims=True)
    pred = l2sum > 0
    l2sum_safe = tf.where(pred, l2sum, tf.ones_like(l2sum))
    l2norm = tf.where(pred, tf.sqrt(l2sum_safe), l2sum)
    intermediate = values * clip_norm
    values_clip = tf.identity(intermediate / tf.maximum(l2norm, clip_norm))
    if isinstance(t, tf.IndexedSlices):
        return tf.IndexedSlices(values_clip, t.indices, t.dense_shape)
    return values_clip


def _reduce_logsumexp(input_tensor, axis=None, keepdims=False, name=None):
    x = tf.convert_to_tensor(input_tensor)
    raw_max = tf.reduce_max(x, axis, keepdims=True)
    my_max = tf.stop_gradient(tf.where(tf.math.is_finite(raw_max), raw_max, tf.zeros_like(raw_max)))
    result = tf.math.log(tf.reduce_sum(tf.exp(x - my_max), axis, keepdims))
    if not keepdims:
        my_max = tf.reshape(my_max, tf.shape(result))
    return result + my_max


def _reduce_variance(input_tensor, axis=None, keepdims=False, name=None):
    x = tf.convert_to_tensor(input_tensor)
    means = tf.reduce_mean(x, axis, keepdims=True)
    if means.dtype.is_integer:
        raise TypeError(f"Input must be either real or complex. Received integer type {means.dtype}.")
    return tf.reduce_mean(tf.math.squared_difference(x, means), axis, keepdims)


def _reduce_std(input_tensor, axis=None, keepdims=False, name=None):
    return tf.sqrt(_reduce_variance(input_tensor, axis, keepdims))


def _sigmoid_cross_entropy_with_logits(labels=None, logits=None, name=None):
    # nn_impl.py converts labels without a cast: int or float64 labels with float32
    # logits fail at `logits * labels` (Mul's dtype error), unlike softmax's version.
    logits = tf.convert_to_tensor(logits)
    labels = tf.convert_to_tensor(labels)
    if logits.shape != labels.shape:
        raise ValueError(f"`logits` and `labels` must have the same shape, received ({logits.shape} vs {labels.shape}).")
    zeros = tf.zeros_like(logits)
    cond = logits >= zeros
    relu_logits = tf.where(cond, logits, zeros)
    neg_abs_logits = tf.where(cond, -logits, logits)
    return tf.add(relu_logits - logits * labels, tf.math.log1p(tf.exp(neg_abs_logits)))


def _softmax_cross_entropy_with_logits(labels=None, logits=None, axis=-1, name=None):
    # As nn_ops' v2 helper: the class axis moved last, outer dims flattened, TF's fused
    # op (whose gradient is softmax - labels), the loss reshaped back.
    logits = tf.convert_to_tensor(logits)
    labels = tf.cast(tf.convert_to_tensor(labels), logits.dtype)
    rank = len(logits.shape)
    if axis < 0:
        axis = axis + rank
    if axis != rank - 1:
        perm = [d for d in range(rank) if d != axis] + [axis]
        logits = tf.transpose(logits, perm)
        labels = tf.transpose(labels, perm)
    shape = logits.shape
    cost = _ts_softmax_xent(tf.reshape(logits, [-1, shape[-1]]), tf.reshape(labels, [-1, labels.shape[-1]]))
    return tf.reshape(cost, shape[:-1])


def _sparse_softmax_cross_entropy_with_logits(labels=None, logits=None, name=None):
    # nn_ops' checks, then the kernel's label range check.
    labels = tf.convert_to_tensor(labels)
    logits = tf.convert_to_tensor(logits)
    if len(logits.shape) == 0:
        raise ValueError(f"`logits` cannot be a scalar. Received logits={logits}`")
    if len(labels.shape) != len(logits.shape) - 1:
        raise ValueError("`labels.shape.rank` must equal `logits.shape.rank - 1`. " +
                         f"Received: labels.shape={labels.shape} of rank {len(labels.shape)} " +
                         f"and logits.shape={logits.shape} of rank {len(logits.shape)}")
    if labels.shape != logits.shape[:-1]:
        raise ValueError("`labels.shape` must equal `logits.shape` except for " +
                         f"the last dimension. Received: labels.shape={labels.shape} " +
                         f"and logits.shape={logits.shape}")
    depth = logits.shape[-1]
    _ts_check_sparse_labels(labels, depth)
    # nn_ops: TF's fused op on [batch, classes] (outer dims flattened), the loss reshaped back.
    if len(logits.shape) == 2:
        return _ts_raw_op('SparseSoftmaxCrossEntropyWithLogits', [logits, labels], {},
                          'tf.nn.sparse_softmax_cross_entropy_with_logits')
    cost = _ts_raw_op('SparseSoftmaxCrossEntropyWithLogits',
                      [tf.reshape(logits, [-1, depth]), tf.reshape(labels, [-1])], {},
                      'tf.nn.sparse_softmax_cross_entropy_with_logits')
    return tf.reshape(cost, labels.shape)


def _log_sigmoid(x, name=None):
    return -tf.nn.softplus(-tf.convert_to_tensor(x))


def _gelu(features, approximate=False, name=None):
    features = tf.convert_to_tensor(features)
    if approximate:
        return 0.5 * features * (1.0 + tf.tanh(0.7978845608028654 * (features + 0.044715 * tf.pow(features, 3))))
    return 0.5 * features * (1.0 + tf.math.erf(features / 1.4142135623730951))


def _silu(features, beta=1.0, name=None):
    features = tf.convert_to_tensor(features)
    return features * tf.sigmoid(beta * features)


def _moments(x, axes, shift=None, keepdims=False, name=None):
    x = tf.convert_to_tensor(x)
    mean = tf.reduce_mean(x, axes, keepdims=True)
    variance = tf.reduce_mean(tf.math.squared_difference(x, tf.stop_gradient(mean)), axes, keepdims=True)
    if not keepdims:
        mean = tf.squeeze(mean, axes)
        variance = tf.squeeze(variance, axes)
    return mean, variance


def _ts_check_t_list(t_list):
    if not isinstance(t_list, (list, tuple)):
        raise TypeError(f"`t_list` should be a sequence of tensors. Received {type(t_list)}.")


def _global_norm(t_list, name=None):
    # clip_ops.global_norm: half squared norms by l2_loss, an IndexedSlices by its values.
    _ts_check_t_list(t_list)
    values = [tf.convert_to_tensor(t.values if isinstance(t, tf.IndexedSlices) else t) for t in t_list if t is not None]
    if not values:
        return tf.constant(0.0)
    half_squared_norm = tf.reduce_sum(tf.stack([tf.nn.l2_loss(v) for v in values]))
    return tf.sqrt(half_squared_norm * tf.constant(2.0, dtype=half_squared_norm.dtype))


def _clip_by_global_norm(t_list, clip_norm, use_norm=None, name=None):
    _ts_check_t_list(t_list)
    if use_norm is None:
        use_norm = _global_norm(t_list)
    scale_for_finite = clip_norm * tf.minimum(1.0 / use_norm, tf.constant(1.0, dtype=use_norm.dtype) / clip_norm)
    # As clip_ops: a norm of inf or NaN makes every value NaN.
    scale = scale_for_finite + (use_norm - use_norm)
    out = []
    for t in t_list:
        if t is None:
            out.append(None)
            continue
        v = tf.convert_to_tensor(t.values if isinstance(t, tf.IndexedSlices) else t)
        c = tf.identity(v * tf.cast(scale, v.dtype))
        out.append(tf.IndexedSlices(c, t.indices, t.dense_shape) if isinstance(t, tf.IndexedSlices) else c)
    return out, use_norm


def _embedding_lookup(params, ids, max_norm=None, name=None):
    # embedding_ops: one params tensor is a gather (an IndexedSlices gradient), then identity.
    if isinstance(params, (list, tuple)):
        if len(params) != 1:
            raise ValueError("tf.nn.embedding_lookup over several sharded params is not supported in tape scripts")
        params = params[0]
    if max_norm is not None:
        raise ValueError("tf.nn.embedding_lookup(max_norm=...) is not supported in tape scripts")
    return tf.identity(tf.gather(params, ids))


def _diag(diagonal, name='diag', k=0, num_rows=-1, num_cols=-1, padding_value=0, align='RIGHT_LEFT'):
    if k != 0:
        raise ValueError("tf.linalg.diag with k != 0 (an off-diagonal) is not supported in tape scripts")
    return _ts_raw_op('MatrixDiagV3', [diagonal], {'num_rows': num_rows, 'num_cols': num_cols,
                                                   'padding_value': float(padding_value)}, 'tf.linalg.diag')


def _diag_part(input, name='diag_part', k=0, padding_value=0, align='RIGHT_LEFT'):
    if k != 0:
        raise ValueError("tf.linalg.diag_part with k != 0 (an off-diagonal) is not supported in tape scripts")
    return _ts_raw_op('MatrixDiagPartV3', [input], {}, 'tf.linalg.diag_part')


def _set_diag(input, diagonal, name='set_diag', k=0, align='RIGHT_LEFT'):
    if k != 0:
        raise ValueError("tf.linalg.set_diag with k != 0 (an off-diagonal) is not supported in tape scripts")
    input = tf.convert_to_tensor(input)
    return _ts_raw_op('MatrixSetDiagV3', [input, tf.convert_to_tensor(diagonal, dtype=input.dtype)], {},
                      'tf.linalg.set_diag')


def _trace(x, name=None):
    # linalg_ops.trace: the sum of the diagonal.
    return tf.reduce_sum(_diag_part(x), [-1])


def _matrix_transpose(a, name='matrix_transpose', conjugate=False):
    a = tf.convert_to_tensor(a)
    rank = len(a.shape)
    if rank < 2:
        raise ValueError(f"Argument `a` should be a (batch) matrix with rank >= 2.  Received `a` = {a} with shape: {a.shape}")
    return tf.transpose(a, list(range(rank - 2)) + [rank - 1, rank - 2])


def _matvec(a, b, transpose_a=False, adjoint_a=False, a_is_sparse=False, b_is_sparse=False, name=None):
    output = tf.matmul(a, tf.expand_dims(b, -1), transpose_a=transpose_a, adjoint_a=adjoint_a)
    return tf.squeeze(output, -1)


def _tensordot(a, b, axes, name=None):
    # math_ops.tensordot: free axes first, contracted axes last (and first for b), one matmul.
    a = tf.convert_to_tensor(a)
    b = tf.convert_to_tensor(b)
    rank_a = len(a.shape)
    rank_b = len(b.shape)
    if isinstance(axes, int):
        if axes < 0:
            raise ValueError(f"'axes' must be at least 0, got {axes}.")
        a_axes = list(range(rank_a - axes, rank_a))
        b_axes = list(range(axes))
    else:
        if len(axes) != 2:
            raise ValueError(f"`axes` must be an integer or have length 2. Received {axes}.")
        a_axes = axes[0]
        b_axes = axes[1]
        if isinstance(a_axes, int):
            a_axes = [a_axes]
        if isinstance(b_axes, int):
            b_axes = [b_axes]
        a_axes = [i % rank_a if rank_a else i for i in a_axes]
        b_axes = [i % rank_b if rank_b else i for i in b_axes]
        if len(a_axes) != len(b_axes):
            raise ValueError(f"Different number of contraction axes `a` and `b`, {len(a_axes)} != {len(b_axes)}.")
    free_a = [i for i in range(rank_a) if i not in a_axes]
    free_b = [i for i in range(rank_b) if i not in b_axes]
    free_dims = [a.shape[i] for i in free_a] + [b.shape[i] for i in free_b]
    n_free_a = 1
    for i in free_a:
        n_free_a = n_free_a * a.shape[i]
    n_sum = 1
    for i in a_axes:
        n_sum = n_sum * a.shape[i]
    n_free_b = 1
    for i in free_b:
        n_free_b = n_free_b * b.shape[i]
    perm_a = free_a + a_axes
    if perm_a != list(range(rank_a)):
        a = tf.transpose(a, perm_a)
    perm_b = b_axes + free_b
    if perm_b != list(range(rank_b)):
        b = tf.transpose(b, perm_b)
    product = tf.matmul(tf.reshape(a, [n_free_a, n_sum]), tf.reshape(b, [n_sum, n_free_b]))
    return tf.reshape(product, free_dims)


def _scalar_mul(scalar, x, name=None):
    return tf.multiply(scalar, x)


def _recompute_grad(f):
    # custom_gradient's recompute_grad: the forward pass as usual; the backward pass runs
    # f again under a tape of its own and differentiates that (the activations are not kept).
    @tf.custom_gradient
    def inner(*args, **kwargs):
        result = f(*args, **kwargs)

        def grad_wrapper(*dresult, variables=None):
            with tf.GradientTape() as t:
                id_args = [tf.identity(a) for a in args]
                t.watch(id_args)
                if variables is not None:
                    t.watch(variables)
                recomputed = f(*id_args, **kwargs)
            kw_vars = []
            if variables is not None:
                kw_vars = list(variables)
            upstream = dresult[0] if len(dresult) == 1 else list(dresult)
            grads = t.gradient(recomputed, id_args + kw_vars, output_gradients=upstream,
                               unconnected_gradients=tf.UnconnectedGradients.ZERO)
            if variables is None:
                return grads[:len(id_args)]
            return grads[:len(id_args)], grads[len(id_args):]

        return result, grad_wrapper

    return inner


def _map_fn(fn, elems, dtype=None, parallel_iterations=None, back_prop=True, swap_memory=False,
            infer_shape=True, name=None, fn_output_signature=None):
    # map_fn's values: fn on each slice along axis 0 of every tensor in elems, the
    # results stacked (TF runs a while_loop over TensorArrays; the values and gradients
    # are those of the slices and the stack).
    flat = [tf.convert_to_tensor(t) for t in tf.nest.flatten(elems)]
    if len(flat) == 0:
        raise ValueError("elems must be a Tensor or (possibly nested) sequence of Tensors. Got []")
    for t in flat:
        if len(t.shape) == 0:
            raise ValueError("Elements in elems must be 1+ dimensional Tensors, not scalars")
    n = flat[0].shape[0]
    for t in flat:
        if t.shape[0] != n:
            raise ValueError(f"Tensors in elems must have the same first dimension, got {n} and {t.shape[0]}")
    results = []
    for i in range(n):
        results.append(fn(tf.nest.pack_sequence_as(elems, [t[i] for t in flat])))
    if n == 0:
        raise ValueError("tf.map_fn over zero elements is not supported in tape scripts")
    columns = [tf.nest.flatten(r) for r in results]
    stacked = [tf.stack([c[k] for c in columns]) for k in range(len(columns[0]))]
    return tf.nest.pack_sequence_as(results[0], stacked)


def _vectorized_map(fn, elems, fallback_to_while_loop=True, warn=True):
    return _map_fn(fn, elems)


def _boolean_mask(tensor, mask, name="boolean_mask", axis=None):
    # array_ops.boolean_mask: the masked dims flattened into one, then a gather of the
    # positions where(mask) is true, so the gradient scatters back through Reshape.
    tensor = tf.convert_to_tensor(tensor)
    mask = tf.convert_to_tensor(mask)
    ndims_mask = len(mask.shape)
    if ndims_mask == 0:
        raise ValueError("mask cannot be scalar.")
    if axis is None:
        axis = 0
    if axis < 0:
        axis = axis + len(tensor.shape)
    if tuple(tensor.shape[axis:axis + ndims_mask]) != tuple(mask.shape):
        raise ValueError(f"Shapes {tensor.shape[axis:axis + ndims_mask]} and {mask.shape} are incompatible")
    shape = list(tensor.shape)
    leading_size = 1
    for d in shape[axis:axis + ndims_mask]:
        leading_size = leading_size * d
    tensor = tf.reshape(tensor, shape[:axis] + [leading_size] + shape[axis + ndims_mask:])
    mask = tf.reshape(mask, [-1])
    indices = tf.squeeze(tf.where(mask), axis=[1])
    return tf.gather(tensor, indices, axis=axis)


def _ts_case_chain(index, pairs, default, i):
    key, fn = pairs[i]
    if i == len(pairs) - 1 and default is None:
        return fn()  # the last branch is also where an index out of range goes

    def rest():
        if i + 1 < len(pairs):
            return _ts_case_chain(index, pairs, default, i + 1)
        return default()
    return tf.cond(tf.equal(index, key), fn, rest)


def _switch_case(branch_index, branch_fns, default=None, name='switch_case'):
    # control_flow_switch_case._indexed_case_verify_and_canonicalize_args, then eagerly
    # the branch at the index runs (out of range: the last action, default if given).
    if not isinstance(branch_index, tf.Tensor):
        raise TypeError("'branch_index' must be a Tensor, got {}".format(type(branch_index)))
    if not branch_index.dtype.is_integer:
        raise TypeError("'branch_index' must be an integer Tensor, got {}".format(branch_index.dtype))
    if not branch_fns:
        raise ValueError("Must provide at least one item in 'branch_fns'")
    if not isinstance(branch_fns, (list, tuple, dict)):
        raise TypeError("'branch_fns' must be a list, tuple, or dict")
    if isinstance(branch_fns, dict):
        branch_fns = list(branch_fns.items())
    if all(callable(fn) for fn in branch_fns):
        branch_fns = list(enumerate(branch_fns))
    for key_fn_pair in branch_fns:
        if not isinstance(key_fn_pair, tuple) or len(key_fn_pair) != 2:
            raise TypeError(f"Each entry in 'branch_fns' must be a 2-tuple. Received {key_fn_pair}.")
        key, branch_fn = key_fn_pair
        if not isinstance(key, int):
            raise TypeError("key must be a Python `int`, got {}".format(type(key)))
        if not callable(branch_fn):
            raise TypeError("fn for key {} must be callable.".format(key))
    keys = [p[0] for p in branch_fns]
    if sorted(keys) != list(range(len(keys))):  # in [0, n) without repeats
        raise ValueError("branch indices (keys) must form contiguous range of [0 to {}) but found {{{}}}".format(
            len(keys), ",".join(map(str, sorted(keys)))))
    pairs = sorted(branch_fns, key=_ts_first)
    if not tf.executing_eagerly():
        # Traced, it is one Case op: every branch is traced, and _CaseGrad gives zeros to
        # what only a branch that did not run used. A chain of conds does the same.
        return _ts_case_chain(branch_index, pairs, default, 0)
    actions = [p[1] for p in pairs]
    if default is not None:
        actions.append(default)
    index = int(branch_index)
    if index < 0 or index >= len(actions):
        index = len(actions) - 1
    return actions[index]()


def _ts_first(pair):
    return pair[0]


class TensorArray:
    # tensor_array_ops._EagerTensorArray: a list of tensors. write/unstack store them,
    # read returns the stored tensor and stack packs them, so gradients flow as in TF.
    __module__ = 'tensorflow.python.ops.tensor_array_ops'

    def __init__(self, dtype, size=None, dynamic_size=None, clear_after_read=None, tensor_array_name=None,
                 handle=None, flow=None, infer_shape=True, element_shape=None, colocate_with_first_write_call=True,
                 name=None):
        self._ts_dtype = tf.dtypes.as_dtype(dtype)
        if size is None:
            size = 0
        self._ts_items = [None for _ in range(int(size))]
        self._ts_dynamic = bool(dynamic_size)
        self._ts_infer_shape = infer_shape
        self._ts_element_shape = None if element_shape is None else tuple(element_shape)
        # Eagerly a read clears its slot (clear_after_read defaults to True); a traced
        # TensorArray is a TensorList, which keeps what it holds.
        self._ts_eager = tf.executing_eagerly()
        self._ts_clear = (clear_after_read is None or bool(clear_after_read)) and self._ts_eager
        self._ts_previously_read = []

    def _ts_next(self):
        # Eagerly a write changes this TensorArray; traced (a TensorList) it makes a new
        # one and this one keeps what it held, so two branches of a cond do not share.
        if self._ts_eager:
            return self
        ta = TensorArray(self._ts_dtype, size=0, dynamic_size=self._ts_dynamic, infer_shape=self._ts_infer_shape)
        ta._ts_items = list(self._ts_items)
        ta._ts_element_shape = self._ts_element_shape
        ta._ts_eager = False
        ta._ts_clear = False
        return ta

    @property
    def dtype(self):
        return self._ts_dtype

    @property
    def dynamic_size(self):
        return self._ts_dynamic

    @property
    def element_shape(self):
        return tf.TensorShape(self._ts_element_shape)

    def size(self, name=None):
        return tf.constant(len(self._ts_items), dtype=tf.int32)

    def _ts_check(self, value):
        if value.dtype != self._ts_dtype:
            _ts_raise('InvalidArgumentError', f"TensorArray dtype is {self._ts_dtype.name} but Op is trying to write dtype {value.dtype.name} ")
        shape = tuple(value.shape)
        if self._ts_infer_shape:
            if self._ts_element_shape is None:
                self._ts_element_shape = shape
            elif self._ts_element_shape != shape:
                raise ValueError(f"Incompatible shape for value ({value.shape}), expected ({tf.TensorShape(self._ts_element_shape)})")

    def write(self, index, value, name=None):
        value = tf.convert_to_tensor(value, dtype=self._ts_dtype)
        index = int(index)
        if index < 0:
            _ts_raise('OutOfRangeError', f"Writing to negative indices (index {index}) is not allowed.")
        ta = self._ts_next()
        size = len(ta._ts_items)
        if index >= size:
            if not ta._ts_dynamic:
                _ts_raise('OutOfRangeError', f"Tried to write to index {index} but array is not resizeable and size is: {size} ")
            for _ in range(index - size + 1):
                ta._ts_items.append(None)
        ta._ts_check(value)
        ta._ts_items[index] = value
        return ta

    def read(self, index, name=None):
        index = int(index)
        if index < 0:
            _ts_raise('OutOfRangeError', f"Reading from negative indices (index {index}) is not allowed.")
        if index >= len(self._ts_items):
            _ts_raise('OutOfRangeError', f"Tried to read from index {index} but array size is: {len(self._ts_items)} ")
        value = self._ts_items[index]
        if value is None:
            if index in self._ts_previously_read:
                _ts_raise('InvalidArgumentError', f"Could not read index {index} twice because it was cleared after a previous read (perhaps try setting clear_after_read = false?)")
            value = self._ts_maybe_zero(index)
        if self._ts_clear:
            self._ts_items[index] = None
            self._ts_previously_read.append(index)
        return value

    def _ts_maybe_zero(self, index):
        # An unwritten (or read and cleared) slot becomes zeros of the element shape.
        value = self._ts_items[index]
        if value is None:
            if self._ts_element_shape is None:
                _ts_raise('InvalidArgumentError', f"Could not read from TensorArray index {index}.  Furthermore, the element shape is not fully defined: <unknown>.  It is possible you are working with a resizeable TensorArray and stop_gradients is not allowing the gradients to be written.  If you set the full element_shape property on the forward TensorArray, the proper all-zeros tensor will be returned instead of incurring this error.")
            value = tf.zeros(self._ts_element_shape, dtype=self._ts_dtype)
            self._ts_items[index] = value
        return value

    def _ts_values(self):
        return [self._ts_maybe_zero(i) for i in range(len(self._ts_items))]

    def stack(self, name=None):
        if len(self._ts_items) == 0:
            shape = [0]
            if self._ts_element_shape is not None:
                shape = [0] + list(self._ts_element_shape)
            return tf.zeros(shape, dtype=self._ts_dtype)
        return tf.stack(self._ts_values())

    def gather(self, indices, element_shape=None, name=None):
        return tf.stack([self._ts_maybe_zero(i) for i in tf.convert_to_tensor(indices).numpy().tolist()])

    def concat(self, name=None):
        return tf.concat(self._ts_values(), 0)

    def unstack(self, value, name=None):
        value = tf.convert_to_tensor(value, dtype=self._ts_dtype)
        tensors = tf.unstack(value)
        if len(tensors) > len(self._ts_items) and not self._ts_dynamic:
            raise ValueError(f"Cannot unstack {len(tensors)} tensors into a TensorArray of static size {len(self._ts_items)} ")
        ta = self._ts_next()
        for t in tensors:
            ta._ts_check(t)
        ta._ts_items = tensors
        return ta

    def scatter(self, indices, value, name=None):
        value = tf.convert_to_tensor(value, dtype=self._ts_dtype)
        ta = self
        for k, i in enumerate(tf.convert_to_tensor(indices).numpy().tolist()):
            ta = ta.write(i, value[k])
        return ta

    def close(self, name=None):
        self._ts_items = []


tf.TensorArray = TensorArray
tf.nn.embedding_lookup = _embedding_lookup
tf.map_fn = _map_fn
tf.vectorized_map = _vectorized_map
tf.switch_case = _switch_case
tf.boolean_mask = _boolean_mask
class _ts_OpTuple:
    # A generated op wrapper's namedtuple of outputs (TopKV2, LogMatrixDeterminant).
    _fields = ()

    def __init__(self, *values):
        for name, value in zip(self._fields, values):
            setattr(self, name, value)

    def __iter__(self):
        return iter([getattr(self, name) for name in self._fields])

    def __getitem__(self, i):
        return [getattr(self, name) for name in self._fields][i]

    def __len__(self):
        return len(self._fields)

    def __repr__(self):
        parts = [f"{name}={getattr(self, name)!r}" for name in self._fields]
        return f"{type(self).__name__}({', '.join(parts)})"


class TopKV2(_ts_OpTuple):
    __module__ = 'tensorflow.python.ops.gen_nn_ops'
    _fields = ('values', 'indices')


class LogMatrixDeterminant(_ts_OpTuple):
    __module__ = 'tensorflow.python.ops.gen_linalg_ops'
    _fields = ('sign', 'log_abs_determinant')


def _slogdet(input, name=None):
    sign, log_abs = tf.linalg._ts_slogdet(input)
    return LogMatrixDeterminant(sign, log_abs)


tf.linalg.slogdet = _slogdet


def _top_k(input, k=1, sorted=True, index_type=None, name=None):
    if index_type is None:
        index_type = tf.int32
    values, indices = tf.math._ts_top_k(input, k, sorted, index_type)
    return TopKV2(values, indices)


def _sort_or_argsort(values, axis, direction, return_argsort):
    # sort_ops.py: a descending sort is top_k over the whole axis (the axis swapped with
    # the last first); an ascending one sorts the negated values.
    if direction not in ('ASCENDING', 'DESCENDING'):
        raise ValueError(f"Argument `direction` should be one of ASCENDING, DESCENDING. Received: direction={direction}")
    if not isinstance(axis, int):
        raise ValueError(f"Argument `axis` must be a constant scalar. Received: axis={axis}.")
    values = tf.convert_to_tensor(values)
    # Integers sort ascending as -values - 1 (negating INT_MIN would overflow).
    integer = not values.dtype.is_floating
    if direction == 'ASCENDING':
        values = -values - 1 if integer else -values
    rank = len(values.shape)
    transposition = None
    if not (axis == -1 or axis + 1 == rank):
        if axis < 0:
            axis += rank
        transposition = list(range(axis)) + [rank - 1] + list(range(axis + 1, rank - 1)) + [axis]
        values = tf.transpose(values, transposition)
    top = _top_k(values, values.shape[-1])
    result = top.indices if return_argsort else top.values
    if transposition is not None:
        result = tf.transpose(result, transposition)
    if direction == 'ASCENDING' and not return_argsort:
        result = -result - 1 if integer else -result
    return result


def _sort(values, axis=-1, direction='ASCENDING', name=None):
    return _sort_or_argsort(values, axis, direction, False)


def _argsort(values, axis=-1, direction='ASCENDING', stable=False, name=None):
    return _sort_or_argsort(values, axis, direction, True)


def _repeat(input, repeats, axis=None, name=None):
    # array_ops.repeat_with_axis: one count expands, tiles and reshapes; a count per
    # slice tiles to the largest and drops the extra copies with boolean_mask.
    if axis is None:
        input = tf.reshape(input, [-1])
        axis = 0
    if not isinstance(axis, int):
        raise TypeError(f"Argument `axis` must be an int. Received `axis` = {axis} of type {type(axis).__name__}")
    data = tf.convert_to_tensor(input)
    if len(data.shape) == 0:
        data = tf.reshape(data, [1])
    rank = len(data.shape)
    if not (-rank <= axis and axis < rank):
        raise ValueError(f"axis={axis} out of bounds: expected {-rank}<=axis<{rank}")
    if axis < 0:
        axis += rank
    counts = repeats.numpy().tolist() if hasattr(repeats, 'numpy') else repeats
    if isinstance(counts, (list, tuple)) and len(counts) == 1:
        counts = counts[0]
    shape = list(data.shape)
    multiples = [1] * (rank + 1)
    if not isinstance(counts, (list, tuple)):
        multiples[axis + 1] = counts
        tiled = tf.tile(tf.expand_dims(data, axis + 1), multiples)
        return tf.reshape(tiled, shape[:axis] + [counts * shape[axis]] + shape[axis + 1:])
    if len(counts) != shape[axis]:
        raise ValueError(f"Dimensions {shape[axis]} and {len(counts)} are not compatible")
    max_repeat = max(0, max(counts))
    mask = tf.constant([[j < r for j in range(max_repeat)] for r in counts])
    if axis > 0:
        mask = tf.broadcast_to(mask, shape[:axis] + [shape[axis], max_repeat])
    multiples[axis + 1] = max_repeat
    tiled = tf.tile(tf.expand_dims(data, axis + 1), multiples)
    masked = tf.boolean_mask(tiled, mask)
    if axis == 0:
        return masked
    return tf.reshape(masked, shape[:axis] + [sum(counts)] + shape[axis + 1:])


def _l2_normalize(x, axis=None, epsilon=1e-12, name=None, dim=None):
    if axis is None:
        axis = dim
    x = tf.convert_to_tensor(x)
    square_sum = tf.reduce_sum(tf.square(x), axis, keepdims=True)
    x_inv_norm = tf.math.rsqrt(tf.maximum(square_sum, epsilon))
    return tf.multiply(x, x_inv_norm)


def _count_nonzero(input, axis=None, keepdims=None, dtype=None, name=None):
    if dtype is None:
        dtype = tf.int64
    if keepdims is None:
        keepdims = False
    input = tf.convert_to_tensor(input)
    zero = tf.zeros([], dtype=input.dtype)
    return tf.cast(tf.reduce_sum(tf.cast(tf.not_equal(input, zero), tf.int64), axis=axis, keepdims=keepdims), dtype)


def _polyval(coeffs, x, name=None):
    if not isinstance(coeffs, list):
        raise ValueError(f"Argument coeffs must be list type. Received type {type(coeffs)}.")
    x = tf.convert_to_tensor(x)
    if len(coeffs) < 1:
        return tf.zeros_like(x)
    coeffs = [tf.convert_to_tensor(c) for c in coeffs]
    p = coeffs[0]
    for c in coeffs[1:]:
        p = c + p * x
    return p


def _accumulate_n(inputs, shape=None, tensor_dtype=None, name=None):
    return tf.add_n(inputs)


def _dropout(x, rate, noise_shape=None, seed=None, name=None):
    # nn_ops.dropout_v2: the kept values scaled by 1/(1 - rate); the mask's random
    # stream is not TF's.
    if isinstance(rate, (int, float)) and not isinstance(rate, bool) and (rate < 0 or rate >= 1):
        raise ValueError(f"`rate` must be a scalar tensor or a float in the range [0, 1). Received: rate={rate}")
    x = tf.convert_to_tensor(x)
    if not x.dtype.is_floating:
        raise ValueError(f"`x.dtype` must be a floating point tensor as `x` will be scaled. Received: x_dtype={x.dtype}")
    if isinstance(rate, (int, float)) and rate == 0:
        return x
    scale = tf.constant(1 / (1 - rate), dtype=x.dtype)
    ret = tf.multiply(x, scale)
    if noise_shape is None:
        noise_shape = tf.shape(x)
    random_tensor = tf.random.uniform(noise_shape, seed=seed, dtype=x.dtype)
    keep_mask = random_tensor >= rate
    return tf.where(keep_mask, ret, tf.zeros([], dtype=x.dtype))


def _grad_pass_through(f):
    # custom_gradient.grad_pass_through: f forward, the identity backward (variables f
    # read get None).
    @tf.custom_gradient
    def _grad_pass_through_op(*args, **kwargs):
        def grad(*dys, variables=None):
            if variables is not None:
                return dys, [None] * len(variables)
            return dys
        return f(*args, **kwargs), grad
    return _grad_pass_through_op


tf.grad_pass_through = _grad_pass_through
tf.nn.batch_normalization = _batch_normalization


def _logdet(matrix, name=None):
    # linalg_impl.logdet: twice the sum of the log of the Cholesky factor's diagonal.
    chol = tf.linalg.cholesky(matrix)
    return 2.0 * tf.reduce_sum(tf.math.log(tf.linalg.diag_part(chol)), axis=[-1])


tf.linalg.logdet = _logdet


def _unsorted_segment_n(data, segment_ids, num_segments):
    # math_ops._unsorted_segment_N: each segment's size (at least 1), shaped to broadcast.
    ones = tf.ones(tf.shape(segment_ids), dtype=data.dtype)
    n = tf.math.unsorted_segment_sum(ones, segment_ids, num_segments)
    n = tf.reshape(n, [num_segments] + [1] * (len(data.shape) - len(segment_ids.shape)))
    return tf.maximum(n, 1)


def _unsorted_segment_mean(data, segment_ids, num_segments, name=None):
    data = tf.convert_to_tensor(data)
    segment_ids = tf.convert_to_tensor(segment_ids)
    n = _unsorted_segment_n(data, segment_ids, num_segments)
    return tf.math.unsorted_segment_sum(data, segment_ids, num_segments) / n


def _unsorted_segment_sqrt_n(data, segment_ids, num_segments, name=None):
    data = tf.convert_to_tensor(data)
    segment_ids = tf.convert_to_tensor(segment_ids)
    n = _unsorted_segment_n(data, segment_ids, num_segments)
    return tf.math.unsorted_segment_sum(data, segment_ids, num_segments) / tf.sqrt(n)


tf.math.unsorted_segment_mean = _unsorted_segment_mean
tf.math.unsorted_segment_sqrt_n = _unsorted_segment_sqrt_n
tf.math.top_k = _top_k
tf.nn.top_k = _top_k
tf.sort = _sort
tf.argsort = _argsort
tf.repeat = _repeat
tf.math.l2_normalize = _l2_normalize
tf.nn.l2_normalize = _l2_normalize
tf.linalg.l2_normalize = _l2_normalize
tf.math.count_nonzero = _count_nonzero
tf.math.polyval = _polyval
tf.math.accumulate_n = _accumulate_n
tf.nn.dropout = _dropout
tf.linalg.diag = _diag
tf.linalg.diag_part = _diag_part
tf.linalg.set_diag = _set_diag
tf.linalg.trace = _trace
tf.linalg.matrix_transpose = _matrix_transpose
tf.linalg.matvec = _matvec
tf.tensordot = _tensordot
tf.linalg.tensordot = _tensordot
tf.scalar_mul = _scalar_mul
tf.math.scalar_mul = _scalar_mul
tf.recompute_grad = _recompute_grad
tf.math.log_sigmoid = _log_sigmoid
tf.nn.moments = _moments
tf.linalg.global_norm = _global_norm
tf.clip_by_global_norm = _clip_by_global_norm
tf.norm = _norm
tf.linalg.norm = _norm
tf.clip_by_norm = _clip_by_norm
tf.reduce_logsumexp = _reduce_logsumexp
tf.math.reduce_logsumexp = _reduce_logsumexp
tf.math.reduce_variance = _reduce_variance
tf.math.reduce_std = _reduce_std
tf.nn.sigmoid_cross_entropy_with_logits = _sigmoid_cross_entropy_with_logits
tf.nn.softmax_cross_entropy_with_logits = _softmax_cross_entropy_with_logits
tf.nn.sparse_softmax_cross_entropy_with_logits = _sparse_softmax_cross_entropy_with_logits
tf.nn.gelu = _gelu
tf.nn.silu = _silu
tf.nn.swish = _silu
for _name in _ACTIVATIONS:
    setattr(activations, _name, _ACTIVATIONS[_name])
activations.get = _activation


def _sequence_mask(lengths, maxlen=None, dtype=tf.bool, name=None):
    # array_ops.sequence_mask: range(maxlen) < lengths[..., None].
    lengths = tf.convert_to_tensor(lengths)
    if maxlen is None:
        maxlen = tf.reduce_max(lengths)
        maxlen = tf.maximum(tf.constant(0, maxlen.dtype), maxlen)
    else:
        maxlen = tf.convert_to_tensor(maxlen)
    if len(maxlen.shape) != 0:
        raise ValueError(f"Argument `maxlen` must be scalar for sequence_mask, received `maxlen` = {maxlen} with shape '{maxlen.shape}' instead")
    row_vector = tf.range(tf.constant(0, maxlen.dtype), maxlen, tf.constant(1, maxlen.dtype))
    matrix = tf.cast(tf.expand_dims(lengths, -1), maxlen.dtype)
    result = row_vector < matrix
    if dtype is None or dtype == tf.bool:
        return result
    return tf.cast(result, dtype)


class _ts_NullContext:
    # What tf.control_dependencies gives eagerly (ops run in program order anyway).
    def __enter__(self):
        return None

    def __exit__(self, exc_type, exc_value, traceback):
        return False


def _control_dependencies(control_inputs):
    return _ts_NullContext()


def _no_op(name=None):
    return None  # eagerly an op with no outputs


def _group(*inputs, name=None):
    return None  # eagerly, control_flow_ops.group returns None


tf.sequence_mask = _sequence_mask
tf.control_dependencies = _control_dependencies
tf.no_op = _no_op
tf.group = _group
# TF 2's initializers (init_ops_v2) draw what Keras' do.
tf.zeros_initializer = Zeros
tf.ones_initializer = Ones
tf.constant_initializer = Constant
tf.random_normal_initializer = RandomNormal
tf.random_uniform_initializer = RandomUniform


class TensorSpec:
    __module__ = 'tensorflow.python.framework.tensor'

    def __init__(self, shape=None, dtype=None, name=None):
        if dtype is None:
            dtype = tf.float32
        self.shape = shape
        self.dtype = tf.dtypes.as_dtype(dtype)
        self.name = name

    def __repr__(self):
        if self.shape is None:
            shape = '<unknown>'
        else:
            dims = [str(d) for d in self.shape]
            shape = '(' + ', '.join(dims) + (',' if len(dims) == 1 else '') + ')'
        return f"TensorSpec(shape={shape}, dtype={repr(self.dtype)}, name={repr(self.name)})"


tf.TensorSpec = TensorSpec


data.Dataset = Dataset
data.AUTOTUNE = -1
data.experimental = _ts_submodule(data, 'experimental', 'tf.data.experimental')
data.experimental.AUTOTUNE = -1
)PY";

}  // namespace ts::script
