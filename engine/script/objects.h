// Heap objects of the tape-script interpreter: containers, functions, classes,
// instances, modules and native objects. Python reference semantics: a Value holds a
// shared pointer, so `a = b` aliases lists and instances as Python does.
#pragma once
#include <functional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "value.h"

namespace ts::script {

class Interpreter;
struct FunctionDef;  // ast

enum class OKind {
  List, Tuple, Dict, Range, Slice,
  Function,     // a `def` (user script or prelude)
  BoundMethod,  // self + function
  Builtin,      // a native function
  Class, Instance, Module,
  Native,       // a native object with a tag and a payload (tape, dtype, shape, iterator, ...)
  Property, StaticMethod, ClassMethod, Super,
};

// Every object and scope made while an interpreter is active is linked into that
// interpreter's Heap. Shared pointers alone leak Python's ordinary reference cycles
// (a module scope holds a function whose closure is that scope; an instance holds a
// bound method of itself), so tearing the heap down empties every node first.
using Graveyard = std::vector<std::shared_ptr<void>>;

// Moves `x` into the graveyard without destroying anything (teardown must not free
// nodes while it walks the list).
template <class T>
void bury(Graveyard& g, T& x) {
  auto p = std::make_shared<T>();
  std::swap(*p, x);
  g.push_back(std::move(p));
}

class Heap;

class HeapNode {
 public:
  HeapNode();  // links into the active heap, if any
  virtual ~HeapNode();
  HeapNode(const HeapNode&) = delete;
  HeapNode& operator=(const HeapNode&) = delete;
  // Moves every reference this node holds into `g` (heap teardown, deep frees).
  virtual void release(Graveyard& g) = 0;
  // Creation order on its heap (0 outside one): a tf.function replay tells the
  // objects its call made from those that existed before it.
  uint64_t serial() const { return serial_; }

 protected:
  // First thing in each most-derived destructor: past a nesting depth, hands this
  // node's references to a queue that the outermost destruction drains, so freeing a
  // million-deep list (`l = [l]` in a loop) neither recurses nor overflows the stack.
  void begin_destroy();

 private:
  friend class Heap;
  bool counted_ = false;
  uint64_t serial_ = 0;
  Heap* heap_ = nullptr;
  HeapNode* prev_ = nullptr;
  HeapNode* next_ = nullptr;
};

class Heap {
 public:
  Heap() = default;
  ~Heap() { teardown(); }
  Heap(const Heap&) = delete;
  Heap& operator=(const Heap&) = delete;
  // Empties every live node (breaking all cycles), frees what that frees and detaches
  // the rest: nodes still held from outside survive, empty.
  void teardown();
  size_t size() const { return size_; }
  uint64_t next_serial() const { return next_serial_; }

  // Makes `h` the heap new nodes join on this thread while the activation lives.
  class Activation {
   public:
    explicit Activation(Heap& h);
    ~Activation();
    Activation(const Activation&) = delete;
    Activation& operator=(const Activation&) = delete;

   private:
    Heap* saved_;
  };

 private:
  friend class HeapNode;
  HeapNode* first_ = nullptr;
  size_t size_ = 0;
  uint64_t next_serial_ = 1;
};

struct Object : HeapNode {
  explicit Object(OKind k) : okind(k) {}
  OKind okind;
};

// Insertion-ordered attribute table.
class AttrTable {
 public:
  const Value* find(const std::string& k) const {
    auto it = index_.find(k);
    return it == index_.end() ? nullptr : &items_[it->second].second;
  }
  Value* find(const std::string& k) {
    auto it = index_.find(k);
    return it == index_.end() ? nullptr : &items_[it->second].second;
  }
  void set(const std::string& k, Value v) {
    auto it = index_.find(k);
    if (it != index_.end()) {
      items_[it->second].second = std::move(v);
      return;
    }
    index_[k] = items_.size();
    items_.emplace_back(k, std::move(v));
  }
  bool erase(const std::string& k) {
    auto it = index_.find(k);
    if (it == index_.end()) return false;
    items_.erase(items_.begin() + static_cast<std::ptrdiff_t>(it->second));
    index_.clear();
    for (size_t i = 0; i < items_.size(); ++i) index_[items_[i].first] = i;
    return true;
  }
  const std::vector<std::pair<std::string, Value>>& items() const { return items_; }
  void release(Graveyard& g) {
    bury(g, items_);
    bury(g, index_);
  }

 private:
  std::vector<std::pair<std::string, Value>> items_;
  std::unordered_map<std::string, size_t> index_;
};

struct ListObj : Object {
  ~ListObj() override { begin_destroy(); }
  explicit ListObj(std::vector<Value> v = {}, OKind k = OKind::List) : Object(k), items(std::move(v)) {}
  std::vector<Value> items;
  void release(Graveyard& g) override { bury(g, items); }
};

// Dict keys are compared through a canonical key string (str, int, bool, None,
// tuples of those; tensors and objects by identity).
struct DictObj : Object {
  ~DictObj() override { begin_destroy(); }
  DictObj() : Object(OKind::Dict) {}
  std::vector<std::pair<Value, Value>> items;
  std::unordered_map<std::string, size_t> index;
  void release(Graveyard& g) override {
    bury(g, items);
    bury(g, index);
  }
};

struct RangeObj : Object {
  RangeObj(int64_t a, int64_t b, int64_t s) : Object(OKind::Range), start(a), stop(b), step(s) {}
  int64_t start, stop, step;
  int64_t size() const {
    if (step > 0) return stop > start ? (stop - start + step - 1) / step : 0;
    return start > stop ? (start - stop - step - 1) / -step : 0;
  }
  void release(Graveyard&) override {}
};

struct SliceObj : Object {
  ~SliceObj() override { begin_destroy(); }
  SliceObj() : Object(OKind::Slice) {}
  Value start, stop, step;  // None when omitted
  void release(Graveyard& g) override {
    bury(g, start);
    bury(g, stop);
    bury(g, step);
  }
};

struct CallArgs {
  std::vector<Value> args;
  std::vector<std::pair<std::string, Value>> kwargs;
  // The argument at `pos` or named `name`, or nullptr.
  const Value* get(size_t pos, const char* name) const {
    for (const auto& [k, v] : kwargs)
      if (k == name) return &v;
    return pos < args.size() ? &args[pos] : nullptr;
  }
  const Value* kw(const char* name) const {
    for (const auto& [k, v] : kwargs)
      if (k == name) return &v;
    return nullptr;
  }
  Value get_or(size_t pos, const char* name, Value def) const {
    const Value* v = get(pos, name);
    return v ? *v : def;
  }
};

using NativeFn = std::function<Value(Interpreter&, CallArgs&)>;

struct BuiltinObj : Object {
  ~BuiltinObj() override { begin_destroy(); }
  BuiltinObj(std::string n, NativeFn f) : Object(OKind::Builtin), name(std::move(n)), fn(std::move(f)) {}
  std::string name;  // qualified: "tf.reduce_sum"
  NativeFn fn;
  std::string repr_text;  // what repr() shows when this stands for a class ("<class 'numpy.float32'>")
  void release(Graveyard& g) override { bury(g, fn); }
};

struct Scope;
struct ClassObj;

struct FunctionObj : Object {
  ~FunctionObj() override { begin_destroy(); }
  FunctionObj() : Object(OKind::Function) {}
  std::string name;
  const FunctionDef* def = nullptr;
  std::shared_ptr<Scope> closure;
  std::vector<Value> defaults;  // one per parameter with a default, in order
  bool prelude = false;         // library code: its lines are not the learner's
  std::weak_ptr<ClassObj> owner;  // the class whose body defined it (zero-argument super())
  void release(Graveyard& g) override {
    bury(g, closure);
    bury(g, defaults);
  }
};

struct BoundMethodObj : Object {
  ~BoundMethodObj() override { begin_destroy(); }
  BoundMethodObj(Value s, Value f) : Object(OKind::BoundMethod), self(std::move(s)), func(std::move(f)) {}
  Value self, func;
  void release(Graveyard& g) override {
    bury(g, self);
    bury(g, func);
  }
};

struct ClassObj : Object {
  ~ClassObj() override { begin_destroy(); }
  ClassObj() : Object(OKind::Class) {}
  std::string name;
  std::string module = "__main__";  // for repr: <class '__main__.Foo'>
  std::shared_ptr<ClassObj> base;
  AttrTable attrs;
  const Value* lookup(const std::string& k) const {
    for (const ClassObj* c = this; c; c = c->base.get())
      if (const Value* v = c->attrs.find(k)) return v;
    return nullptr;
  }
  bool is_subclass_of(const ClassObj* other) const {
    for (const ClassObj* c = this; c; c = c->base.get())
      if (c == other) return true;
    return false;
  }
  bool is_subclass_of(const std::string& n) const {
    for (const ClassObj* c = this; c; c = c->base.get())
      if (c->name == n) return true;
    return false;
  }
  void release(Graveyard& g) override {
    bury(g, base);
    attrs.release(g);
  }
};

struct InstanceObj : Object {
  ~InstanceObj() override { begin_destroy(); }
  explicit InstanceObj(std::shared_ptr<ClassObj> c) : Object(OKind::Instance), cls(std::move(c)) {}
  std::shared_ptr<ClassObj> cls;
  AttrTable attrs;
  std::shared_ptr<void> native;  // state of a native base class, if any
  void release(Graveyard& g) override {
    bury(g, cls);
    attrs.release(g);
    bury(g, native);
  }
};

struct ModuleObj : Object {
  ~ModuleObj() override { begin_destroy(); }
  explicit ModuleObj(std::string n) : Object(OKind::Module), name(std::move(n)) {}
  std::string name;
  AttrTable attrs;
  void release(Graveyard& g) override { attrs.release(g); }
};

// A native object: `tag` names its type ("GradientTape", "DType", "TensorShape", ...);
// `attrs` hold its methods/fields as Values; `payload` any C++ state.
struct NativeObj : Object {
  ~NativeObj() override { begin_destroy(); }
  NativeObj(std::string t) : Object(OKind::Native), tag(std::move(t)) {}
  std::string tag;
  std::string type_name;  // what type(x).__name__ prints
  AttrTable attrs;
  std::shared_ptr<void> payload;
  std::function<std::string()> repr;  // optional custom repr
  void release(Graveyard& g) override {
    attrs.release(g);
    bury(g, payload);
    bury(g, repr);
  }
};

// The payload of a dict view (NativeObj tag "dict_view"): d.keys(), d.values() or
// d.items() of a live dict.
struct DictViewPayload {
  enum Kind { Keys, Values, Items } kind = Keys;
  std::shared_ptr<DictObj> dict;
};

struct WrapperObj : Object {  // property / staticmethod / classmethod
  ~WrapperObj() override { begin_destroy(); }
  WrapperObj(OKind k, Value f) : Object(k), func(std::move(f)) {}
  Value func;
  void release(Graveyard& g) override { bury(g, func); }
};

struct SuperObj : Object {
  ~SuperObj() override { begin_destroy(); }
  SuperObj(std::shared_ptr<ClassObj> c, Value s) : Object(OKind::Super), start(std::move(c)), self(std::move(s)) {}
  std::shared_ptr<ClassObj> start;  // lookups begin at start->base
  Value self;
  void release(Graveyard& g) override {
    bury(g, start);
    bury(g, self);
  }
};

template <class T>
T* Value::as() const {
  return kind == VKind::Object ? dynamic_cast<T*>(obj.get()) : nullptr;
}

// A raised Python exception travelling through C++ frames.
struct PyException {
  Value exc;        // an instance of an exception class
  std::string type; // its class name
  std::string message;
  int line = 0;     // innermost script line that raised
};

}  // namespace ts::script
