// TensorList: what a kernel returns. Nearly every op has one output, so the first value
// is held inline and a second moves both into a vector: a one-output op allocates no
// list, in the forward pass and for every gradient op of a backward pass.
#pragma once
#include <initializer_list>
#include <stdexcept>
#include <utility>
#include <vector>

#include "tensor.h"

namespace ts {

class TensorList {
 public:
  TensorList() = default;
  TensorList(std::initializer_list<TensorValue> init) {
    for (const TensorValue& v : init) push_back(v);
  }
  TensorList(std::vector<TensorValue> v) {  // NOLINT: implicit, for kernels that build a vector
    if (v.size() == 1) {
      first_ = std::move(v[0]);
      n_ = 1;
    } else {
      n_ = v.size();
      more_ = std::move(v);
    }
  }
  operator std::vector<TensorValue>() && {  // NOLINT: implicit, for callers that want a vector
    if (n_ == 1) {
      std::vector<TensorValue> out;
      out.push_back(std::move(first_));
      return out;
    }
    return std::move(more_);
  }

  void push_back(TensorValue v) {
    if (n_ == 0) {
      first_ = std::move(v);
    } else {
      if (n_ == 1) more_.push_back(std::move(first_));
      more_.push_back(std::move(v));
    }
    ++n_;
  }
  template <class... A>
  TensorValue& emplace_back(A&&... a) {
    push_back(TensorValue(std::forward<A>(a)...));
    return back();
  }
  void reserve(size_t) {}

  size_t size() const { return n_; }
  bool empty() const { return n_ == 0; }
  TensorValue* begin() { return n_ <= 1 ? &first_ : more_.data(); }
  TensorValue* end() { return begin() + n_; }
  const TensorValue* begin() const { return n_ <= 1 ? &first_ : more_.data(); }
  const TensorValue* end() const { return begin() + n_; }
  TensorValue& operator[](size_t i) { return begin()[i]; }
  const TensorValue& operator[](size_t i) const { return begin()[i]; }
  TensorValue& at(size_t i) {
    if (i >= n_) throw std::out_of_range("TensorList::at");
    return begin()[i];
  }
  const TensorValue& at(size_t i) const {
    if (i >= n_) throw std::out_of_range("TensorList::at");
    return begin()[i];
  }
  TensorValue& back() { return begin()[n_ - 1]; }
  TensorValue& front() { return begin()[0]; }

 private:
  size_t n_ = 0;
  TensorValue first_;               // the only value while n_ == 1
  std::vector<TensorValue> more_;   // every value once n_ >= 2
};

}  // namespace ts
