// Where a run's values live. A run keeps every value it makes (the views step back
// through them), so its heap only grows, and each fresh page costs a fault (the kernel
// zeroes it) when first written: for a training step of a 784x128 layer that was 40% of
// the step. A helper thread maps the pages just ahead of where the run allocates.
#pragma once
#include <cstdint>

namespace ts {

// Called by every engine; the first call starts the helper thread.
void configure_value_memory();

// Called as values are made, with the end of the newest one: when the run comes near
// the end of the pages mapped ahead of it, the helper maps the next stretch.
void note_heap_frontier(const void* end);

}  // namespace ts
