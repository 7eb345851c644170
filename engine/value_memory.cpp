#include "value_memory.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <condition_variable>
#include <mutex>
#include <system_error>
#include <thread>

#if defined(__linux__) && defined(__GLIBC__)
#include <malloc.h>
#include <sys/mman.h>
#include <unistd.h>
#endif

namespace ts {

#if defined(__linux__) && defined(__GLIBC__) && defined(MADV_POPULATE_WRITE)

namespace {

// Pages mapped ahead of the newest value; a new stretch is asked for when fewer than
// half remain. A run that stays small never asks.
constexpr uintptr_t kAhead = uintptr_t{32} << 20;

// MADV_POPULATE_WRITE maps pages as a write would, without writing: pages in use keep
// their contents, so the helper never races with what the run writes. Never destroyed:
// the thread may outlive every engine.
struct Populator {
  std::mutex mu;
  std::condition_variable wake;
  uintptr_t done = 0;          // mapped (or handed to madvise) up to here
  uintptr_t from = 0, to = 0;  // the stretch asked for
  bool works = true;

  void run() {
    const uintptr_t page = static_cast<uintptr_t>(sysconf(_SC_PAGESIZE));
    std::unique_lock lock(mu);
    for (;;) {
      wake.wait(lock, [&] { return to > done; });
      const uintptr_t a = std::max(from, done) & ~(page - 1), b = to;
      done = b;
      lock.unlock();
      // EINVAL: a kernel without MADV_POPULATE_WRITE (before Linux 5.14); stop asking.
      // Other failures (a stretch the heap has since given back) are harmless.
      const bool ok = madvise(reinterpret_cast<void*>(a), b - a, MADV_POPULATE_WRITE) == 0 || errno != EINVAL;
      lock.lock();
      if (!ok) {
        works = false;
        return;
      }
    }
  }
};

Populator* populator = nullptr;
std::atomic<uintptr_t> asked_to{0};  // the end of the last stretch asked for

// Before main, so before any thread has allocated: every thread shares the one heap that
// grows by brk (a run goes on its own thread, run.cpp, and would otherwise get an arena of
// its own), big values come from that heap rather than an mmap each, and the heap's
// address space grows in large steps (pages are mapped only when touched or asked for).
const bool malloc_configured = [] {
  mallopt(M_ARENA_MAX, 1);
  mallopt(M_MMAP_THRESHOLD, 32 << 20);
  mallopt(M_TOP_PAD, 64 << 20);
  return true;
}();

}  // namespace

void configure_value_memory() {
  static std::once_flag once;
  std::call_once(once, [] {
    (void)malloc_configured;
    auto* p = new Populator;
    try {
      std::thread([p] { p->run(); }).detach();
      populator = p;
    } catch (const std::system_error&) {  // no thread: pages fault as the run writes them
      delete p;
    }
  });
}

void note_heap_frontier(const void* end) {
  const auto e = reinterpret_cast<uintptr_t>(end);
  uintptr_t asked = asked_to.load(std::memory_order_relaxed);
  if (asked == 0) {  // the first value: nothing is asked for until the values grow 8 MiB past it
    asked_to.compare_exchange_strong(asked, e + kAhead / 2 + (uintptr_t{8} << 20));
    return;
  }
  if (!populator || e + kAhead / 2 <= asked) return;
  // Only the heap's own pages, up to its current top (sbrk(0) reads a cached value).
  const auto top = reinterpret_cast<uintptr_t>(sbrk(0));
  if (e > top || top - e > (uintptr_t{1} << 40)) return;  // not a heap address
  const uintptr_t to = std::min(top, e + kAhead);
  if (to <= asked_to.load(std::memory_order_relaxed)) return;
  asked_to = to;
  {
    std::lock_guard lock(populator->mu);
    if (!populator->works) return;
    populator->from = e;
    populator->to = std::max(populator->to, to);
  }
  populator->wake.notify_one();
}

#else

void configure_value_memory() {}
void note_heap_frontier(const void*) {}

#endif

}  // namespace ts
