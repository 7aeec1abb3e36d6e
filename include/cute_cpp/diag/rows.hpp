// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// Rule templates of the row kernels' shapes and barriers (rows.*).
// The values under test are the template arguments, so the compiler prints them on the first
// context line.

namespace cute_cpp::diag {

/// Rule rows.threads-per-row: a row belongs to a warp, a group of 64 or 128 threads, or a block.
template <int ThreadsPerRow, int BlockThreads>
struct row_threads_per_row {
  static_assert(ThreadsPerRow == 32 || ThreadsPerRow == 64 || ThreadsPerRow == 128 || ThreadsPerRow == BlockThreads,
                "cute-cpp [rows.threads-per-row]: a row belongs to a warp, a group of 64 or 128 threads, or a "
                "block of 256");
  static constexpr bool ok = true;
};

/// Rule rows.slots: a thread holds 1 to 16 vectors of its row per round; groups of a block (not
/// whole blocks) hold the default number, the one the plan sizes them by.
template <int ThreadsPerRow, int Slots, int BlockThreads, int DefaultSlots>
struct row_slots_per_thread {
  static_assert(Slots >= 1 && Slots <= 16, "cute-cpp [rows.slots]: a thread holds 1 to 16 vectors per round");
  static_assert(ThreadsPerRow == BlockThreads || Slots == DefaultSlots,
                "cute-cpp [rows.slots]: only rows of whole blocks take another number of vectors per thread");
  static constexpr bool ok = true;
};

/// Rule rows.barriers: the named barriers handed to the row reductions hold one per row group,
/// each for the group's threads.
template <int GroupBarriers, int ThreadsPerRow, int Count, int Threads>
struct row_group_barriers {
  static_assert(Count >= GroupBarriers && Threads == ThreadsPerRow,
                "cute-cpp [rows.barriers]: the row reductions need one named barrier per row group, each for the "
                "group's threads; allocate RowBarrierRequest<Config>");
  static constexpr bool ok = true;
};

/// Rule rows.staged: only a row split over the blocks of a cluster (cached, whole blocks) is
/// staged in shared memory.
template <bool Staged, bool Cached, int ThreadsPerRow, int BlockThreads>
struct row_staged_split {
  static_assert(!Staged || (Cached && ThreadsPerRow == BlockThreads),
                "cute-cpp [rows.staged]: only rows split over whole blocks (cached, a block of 256 threads per "
                "segment) are staged in shared memory");
  static constexpr bool ok = true;
};

/// Rule rows.staged-vector: a staged row moves as 16-byte vectors (the bulk copy takes 16-byte
/// multiples and addresses): V elements of ElemBytes bytes.
template <int V, int ElemBytes>
struct row_staged_vector {
  static_assert(V * ElemBytes == 16,
                "cute-cpp [rows.staged-vector]: a row staged in shared memory is read in 16-byte vectors (the "
                "bulk copy needs 16-byte sizes and addresses)");
  static constexpr bool ok = true;
};

}  // namespace cute_cpp::diag
