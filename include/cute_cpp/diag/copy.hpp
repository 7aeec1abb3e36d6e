// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// Rule templates for copy atoms and tiled copies (the values under test are the template
// arguments, so nvcc prints them on the first context line).

namespace cute_cpp::diag {

/// Rule copy.tv.coverage: the thread and value layouts of a TiledCopy must give every element of
/// the tile to exactly one (thread, value). BadThread/BadValue name the first pair that is hit
/// `Hits` times (0: a hole in the tile; 2 or more: an element copied twice), or that lies outside
/// [0, Threads) x [0, Values) (Hits = -1).
template <int TileM, int TileN, int Threads, int Values, int BadThread, int BadValue, int Hits>
struct copy_tv_covers_tile_once {
  static_assert(Hits == 1,
                "cute-cpp [copy.tv.coverage]: the thread and value layouts must cover the copy tile exactly once; "
                "make each a bijection onto [0, size) (compact, no repeated strides)");
  static constexpr bool ok = true;
};

/// Rule copy.tv.rank: thread and value layouts of a TiledCopy are rank 2 (M, N).
template <int ThrRank, int ValRank>
struct copy_tv_rank_2 {
  static_assert(ThrRank == 2 && ValRank == 2,
                "cute-cpp [copy.tv.rank]: a TiledCopy takes rank-2 (M,N) thread and value layouts");
  static constexpr bool ok = true;
};

/// Rule copy.atom.vector-width, for the atom alone: it moves whole ElemBytes-wide elements.
template <int AtomBytes, int ElemBytes>
struct copy_atom_element_width {
  static_assert(AtomBytes % ElemBytes == 0,
                "cute-cpp [copy.atom.vector-width]: the atom's width must be a multiple of the element size");
  static constexpr bool ok = true;
};

/// Rule copy.atom.vector-width: one atom moves AtomBytes of ElemBytes-wide elements, so each
/// thread's values must hold a whole number of atoms along the contiguous mode.
template <int AtomBytes, int ElemBytes, int ContiguousValues>
struct copy_atom_vector_width {
  static_assert(copy_atom_element_width<AtomBytes, ElemBytes>::ok);
  static_assert(ContiguousValues % (AtomBytes / ElemBytes) == 0,
                "cute-cpp [copy.atom.vector-width]: each thread's contiguous values must be a multiple of the atom's "
                "vector (AtomBytes / ElemBytes elements)");
  static constexpr bool ok = true;
};

/// Rule copy.atom.contiguous: a vector atom wider than one element needs a mode with static
/// stride 1 in both source and destination.
template <int AtomElems, bool Mode0Unit, bool Mode1Unit>
struct copy_atom_contiguous {
  static_assert(AtomElems == 1 || Mode0Unit || Mode1Unit,
                "cute-cpp [copy.atom.contiguous]: a vector copy needs source and destination contiguous (static stride "
                "C<1>) along the same mode; use CopyUniversalOp of one element otherwise");
  static constexpr bool ok = true;
};

/// Rule copy.atom.direction: cp.async copies global to shared memory only.
template <bool IsG2S>
struct copy_atom_g2s_only {
  static_assert(IsG2S, "cute-cpp [copy.atom.direction]: CopyG2SOp (cp.async) copies global to shared memory only; "
                       "use copy_g2s, or CopyUniversalOp for this direction");
  static constexpr bool ok = true;
};

}  // namespace cute_cpp::diag
