// Tape: the data a GradientTape keeps (tape.h in TF "does not perform backpropagation,
// just maintains the data structures required to do so"): which tensors are on it
// (watched, or produced by an op it recorded), which variables it watched, and the
// ops it recorded, in order. The backward pass over it lives in backward.cpp.
#pragma once
#include <string>
#include <vector>

#include "id_map.h"
#include "ids.h"
#include "small_vector.h"

namespace ts {

enum class TapeState {
  Created,    // constructed, block not entered
  Recording,  // inside its `with` block
  Exited,     // its block ended (may be re-entered)
  Consumed,   // a non-persistent tape after its one gradient call
};

// One recorded op as the backward pass needs it (TF's OpTapeEntry): its id and its
// inputs, kept here so walking back from the targets reads the tape, not the whole log.
struct TapeEntry {
  OpId op = kNoId;
  SmallVector<TensorId, 2> inputs;
};

struct Tape {
  TapeId id = kNoId;
  std::string name;
  bool persistent = false;
  bool watch_accessed_variables = true;
  TapeState state = TapeState::Created;
  int stop_depth = 0;  // nesting of stop_recording() blocks
  bool used = false;   // a gradient/jacobian was computed (non-persistent: only once)

  std::vector<TensorId> watched;            // explicitly watched tensors, in order
  std::vector<TensorId> watched_variables;  // variable handles, in order of creation
  IdSet on_tape;     // watched or produced by a recorded op
  IdSet watched_set; // explicitly watched (tensor or handle)
  std::vector<TapeEntry> records;  // recorded ops in execution order
  IdMap<size_t> tensor_tape;       // output tensor -> its producer's entry in `records` (TF's tensor_tape_)

  // Facts the None diagnosis reads in O(1) (kept across reset/consumption): where a
  // tensor or variable was first watched ({the engine's next id then, the line}: ops with
  // a smaller id ran before it), where a reset dropped a watch, and the engine's next id
  // when the block was first entered (a variable with a larger handle id was made inside).
  struct WatchMark {
    int64_t next_id = 0;
    int line = 0;
  };
  IdMap<WatchMark> first_watch;
  IdMap<int> watch_reset_line;
  int64_t first_entered_id = 0;

  bool recording() const { return state == TapeState::Recording && stop_depth == 0; }
  void clear_records() {
    watched.clear();
    watched_variables.clear();
    on_tape.clear();
    watched_set.clear();
    records.clear();
    tensor_tape.clear();
  }
  void drop_records() {  // a non-persistent tape after its gradient call
    records.clear();
    tensor_tape.clear();
    on_tape.clear();
  }
};

}  // namespace ts
