// The interpreter heap: an intrusive list of live objects and scopes, so a finished run
// can break the reference cycles Python code makes as a matter of course.
#include "objects.h"

namespace ts::script {

namespace {
thread_local Heap* active_heap = nullptr;
thread_local int destroy_depth = 0;
thread_local bool draining = false;
constexpr int kMaxDestroyDepth = 200;

Graveyard& deferred() {
  thread_local Graveyard queue;
  return queue;
}
}  // namespace

void HeapNode::begin_destroy() {
  counted_ = true;
  if (++destroy_depth > kMaxDestroyDepth) release(deferred());
}

HeapNode::HeapNode() {
  Heap* h = active_heap;
  if (!h) return;
  heap_ = h;
  serial_ = h->next_serial_++;
  next_ = h->first_;
  if (next_) next_->prev_ = this;
  h->first_ = this;
  ++h->size_;
}

HeapNode::~HeapNode() {
  if (heap_) {
    if (prev_) prev_->next_ = next_;
    else heap_->first_ = next_;
    if (next_) next_->prev_ = prev_;
    --heap_->size_;
  }
  if (counted_ && --destroy_depth == 0 && !draining) {
    Graveyard& queue = deferred();
    draining = true;
    while (!queue.empty()) {
      std::shared_ptr<void> p = std::move(queue.back());
      queue.pop_back();
      p.reset();  // may queue more; the loop takes them
    }
    draining = false;
  }
}

void Heap::teardown() {
  // Nothing is freed while the list is walked: release() only moves references into
  // the graveyard. Clearing the graveyard then frees nodes, which unlink themselves.
  Graveyard grave;
  for (HeapNode* n = first_; n; n = n->next_) n->release(grave);
  // Every node's members are buried, so each free here is shallow.
  grave.clear();
  for (HeapNode* n = first_; n;) {
    HeapNode* next = n->next_;
    n->heap_ = nullptr;
    n->prev_ = n->next_ = nullptr;
    n = next;
  }
  first_ = nullptr;
  size_ = 0;
}

Heap::Activation::Activation(Heap& h) : saved_(active_heap) { active_heap = &h; }
Heap::Activation::~Activation() { active_heap = saved_; }

}  // namespace ts::script
