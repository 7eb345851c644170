// The log's containers: ChunkedVector (appending never moves an entry), SmallVector
// (an op's id lists, inline up to N) and the flat IdMap / IdSet the tapes and the
// backward pass use.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>

#include "chunked_vector.h"
#include "engine.h"
#include "id_map.h"
#include "small_vector.h"
#include "tensor_list.h"

using namespace ts;

namespace {

struct Counted {
  static inline int alive = 0;
  std::string text;
  explicit Counted(std::string t) : text(std::move(t)) { ++alive; }
  Counted(const Counted& o) : text(o.text) { ++alive; }
  ~Counted() { --alive; }
};

}  // namespace

TEST_CASE("ChunkedVector keeps references valid while it grows across chunks", "[containers]") {
  ChunkedVector<std::string, 4> v;
  std::string& first = v.emplace_back("first");
  const std::string* fifth = nullptr;
  for (int i = 1; i < 100; ++i) {
    std::string& s = v.emplace_back("item " + std::to_string(i));
    if (i == 5) fifth = &s;
  }
  REQUIRE(v.size() == 100);
  CHECK(&v[0] == &first);
  CHECK(first == "first");
  CHECK(&v[5] == fifth);
  CHECK(*fifth == "item 5");
  CHECK(v.back() == "item 99");
  CHECK(v.at(42) == "item 42");
  CHECK_THROWS_AS(v.at(100), std::out_of_range);
}

TEST_CASE("ChunkedVector iterates in order, works with algorithms, copies and moves", "[containers]") {
  ChunkedVector<int, 8> v;
  for (int i = 0; i < 50; ++i) v.push_back(i * 3);
  int expect = 0;
  for (int x : v) {
    CHECK(x == expect);
    expect += 3;
  }
  CHECK(std::find(v.begin(), v.end(), 30) - v.begin() == 10);
  CHECK(std::lower_bound(v.begin(), v.end(), 31) - v.begin() == 11);
  CHECK(v.end() - v.begin() == 50);

  ChunkedVector<int, 8> copy = v;
  copy.push_back(-1);
  CHECK(v.size() == 50);
  CHECK(copy.size() == 51);
  CHECK(copy[49] == v[49]);

  ChunkedVector<int, 8> moved = std::move(copy);
  CHECK(moved.size() == 51);
  CHECK(moved.back() == -1);
  CHECK(copy.empty());  // moved-from is empty
}

TEST_CASE("ChunkedVector destroys every element it made", "[containers]") {
  Counted::alive = 0;
  {
    ChunkedVector<Counted, 4> v;
    for (int i = 0; i < 13; ++i) v.emplace_back("x");
    CHECK(Counted::alive == 13);
    ChunkedVector<Counted, 4> copy = v;
    CHECK(Counted::alive == 26);
    copy.clear();
    CHECK(Counted::alive == 13);
    copy = v;
    CHECK(Counted::alive == 26);
  }
  CHECK(Counted::alive == 0);
}

TEST_CASE("SmallVector stays inline up to N, then grows on the heap, keeping its values", "[containers]") {
  SmallVector<int64_t, 2> v;
  CHECK(v.empty());
  v.push_back(7);
  v.push_back(8);
  CHECK(v.capacity() == 2);  // still inline
  for (int64_t i = 0; i < 50; ++i) v.push_back(v[static_cast<size_t>(i)] + 1);  // argument aliases the vector
  REQUIRE(v.size() == 52);
  CHECK(v.capacity() >= 52);
  CHECK(v.front() == 7);
  CHECK(v[1] == 8);
  CHECK(v[2] == 8);  // v[0] + 1
  CHECK(v.back() == 8 + 25);  // pairs repeat: 7,8,8,9,9,10,...
  CHECK_THROWS_AS(v.at(52), std::out_of_range);
  v.pop_back();
  CHECK(v.size() == 51);
  v.clear();
  CHECK(v.empty());
}

TEST_CASE("SmallVector copies, moves, compares and converts like a std::vector", "[containers]") {
  for (size_t n : {0u, 1u, 2u, 3u, 17u}) {
    std::vector<int64_t> ref;
    for (size_t i = 0; i < n; ++i) ref.push_back(static_cast<int64_t>(i * 10 + 1));
    const SmallVector<int64_t, 2> a = ref;
    CHECK(a == ref);
    SmallVector<int64_t, 2> b = a;  // copy
    CHECK(b == a);
    SmallVector<int64_t, 2> c = std::move(b);  // move (steals the heap block or copies inline)
    CHECK(c == ref);
    CHECK(b.empty());  // NOLINT: a moved-from SmallVector is empty
    b.push_back(5);    // and usable
    CHECK(b.size() == 1);
    SmallVector<int64_t, 2> d{99, 98, 97};
    d = c;  // copy-assign over a heap block
    CHECK(d == ref);
    d = SmallVector<int64_t, 2>{4};  // move-assign an inline one over it
    CHECK(d.size() == 1);
    CHECK(d[0] == 4);
    const std::vector<int64_t> back = c;  // implicit conversion for code that wants a vector
    CHECK(back == ref);
    CHECK(std::accumulate(c.begin(), c.end(), int64_t{0}) == std::accumulate(ref.begin(), ref.end(), int64_t{0}));
  }
}

TEST_CASE("SmallVector insert, erase and resize keep order", "[containers]") {
  SmallVector<int64_t, 2> v{1, 5};
  const std::vector<int64_t> mid{2, 3, 4};
  v.insert(v.begin() + 1, mid.begin(), mid.end());
  CHECK(v == std::vector<int64_t>{1, 2, 3, 4, 5});
  v.erase(v.begin() + 1, v.begin() + 3);
  CHECK(v == std::vector<int64_t>{1, 4, 5});
  v.erase(v.begin());
  CHECK(v == std::vector<int64_t>{4, 5});
  v.resize(4, -1);
  CHECK(v == std::vector<int64_t>{4, 5, -1, -1});
  v.insert(v.end(), int64_t{6});
  CHECK(v.back() == 6);
  // A range taken from the vector itself (copied before the vector changes).
  SmallVector<int64_t, 2> w{1, 2, 3};
  w.insert(w.begin() + 1, w.begin(), w.end());
  CHECK(w == std::vector<int64_t>{1, 1, 2, 3, 2, 3});
  struct Pair {
    int64_t tape;
    int reason;
  };
  SmallVector<Pair, 1> p;
  p.emplace_back(int64_t{3}, 1);
  p.emplace_back(int64_t{4}, 2);
  CHECK(p.size() == 2);
  CHECK(p[1].tape == 4);
  CHECK(p[1].reason == 2);
}

TEST_CASE("TensorList keeps one value inline and moves to a vector for more, in order", "[containers]") {
  TensorList l;
  CHECK(l.empty());
  l.push_back(make_scalar(DType::Float32, 1.0));
  REQUIRE(l.size() == 1);
  CHECK(l[0].scalar() == 1.0);
  l.push_back(make_scalar(DType::Float64, 2.0));
  l.push_back(make_scalar(DType::Int32, 3.0));
  REQUIRE(l.size() == 3);
  double sum = 0;
  for (const TensorValue& v : l) sum += v.scalar();
  CHECK(sum == 6.0);
  CHECK(l.at(0).dtype == DType::Float32);  // the inline value moved first
  CHECK(l.back().dtype == DType::Int32);
  CHECK_THROWS_AS(l.at(3), std::out_of_range);
  const std::vector<TensorValue> v = std::move(l);  // callers that want a vector
  CHECK(v.size() == 3);
  CHECK(v[1].scalar() == 2.0);
  TensorList one = std::vector<TensorValue>{make_scalar(DType::Float32, 7.0)};  // kernels that build a vector
  CHECK(one.size() == 1);
  CHECK(one.front().scalar() == 7.0);
  const std::vector<TensorValue> back = std::move(one);
  CHECK(back.size() == 1);
}

TEST_CASE("IdMap finds every key through growth, whatever the key pattern", "[containers]") {
  for (int64_t stride : {int64_t{1}, int64_t{3}, int64_t{16}, int64_t{1024}}) {
    IdMap<int> m;
    for (int64_t i = 0; i < 5000; ++i) m[i * stride + 7] = static_cast<int>(i);
    INFO("stride " << stride);
    REQUIRE(m.size() == 5000);
    for (int64_t i = 0; i < 5000; ++i) {
      const int* v = m.find(i * stride + 7);
      REQUIRE(v);
      CHECK(*v == static_cast<int>(i));
    }
    CHECK_FALSE(m.find(6));
    CHECK(m.count(5000 * stride + 7) == 0);
    int64_t sum = 0;
    size_t n = 0;
    m.for_each([&](int64_t, int v) {
      sum += v;
      ++n;
    });
    CHECK(n == 5000);
    CHECK(sum == 4999 * 5000 / 2);
  }
}

TEST_CASE("IdMap insert reports new keys and keeps values; IdSet too", "[containers]") {
  IdMap<std::string> m;
  auto [v, fresh] = m.insert(-5);
  CHECK(fresh);
  v = "minus five";
  CHECK_FALSE(m.insert(-5).second);
  CHECK(m[-5] == "minus five");
  m.reserve(1000);
  CHECK(*m.find(-5) == "minus five");
  m.clear();
  CHECK(m.empty());
  CHECK_FALSE(m.find(-5));

  IdSet s;
  CHECK(s.insert(3));
  CHECK_FALSE(s.insert(3));
  CHECK(s.count(3) == 1);
  CHECK(s.count(4) == 0);
  CHECK(s.size() == 1);
}

TEST_CASE("a backward pass over thousands of ops holds its op while the log grows", "[containers][tape]") {
  // Each gradient function runs ops (the log grows past many chunk boundaries) while the
  // backward pass holds a reference to the op being differentiated.
  Engine e;
  const TensorId x = e.constant(make_scalar(DType::Float64, 0.3));
  const TapeId t = e.create_tape(false, true, "tape");
  e.enter_tape(t);
  e.watch(t, x);
  TensorId y = x;
  for (int i = 0; i < 3000; ++i) y = e.execute1("Sin", {y});
  e.exit_tape(t);
  GradientRequest req;
  req.tape = t;
  req.targets = {y};
  req.sources = {{x, "x"}};
  const TensorId g = e.gradient(req)[0];
  REQUIRE(g != kNoId);
  double v = 0.3, d = 1.0;
  for (int i = 0; i < 3000; ++i) {
    d *= std::cos(v);
    v = std::sin(v);
  }
  CHECK(e.value(g).scalar() == Approx(d).epsilon(1e-12));
  CHECK(e.value(y).scalar() == Approx(v).epsilon(1e-12));
}
