// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// UmmaCtaPair<CtaGroup>: which CTAs of a cluster a tcgen05 MMA group spans. With cta_group::2
// the pair is cluster ranks 2k (the leader, whose MMA thread issues the pair's MMAs and whose
// barriers count the pair's TMA bytes) and 2k + 1 (CuTeDSL's V mode of cta_layout_vmnk, of
// size 2); with cta_group::1 every CTA is its own leader. Host and device: the pipelines'
// masks and arrival counts are tested on the CPU from these.
#include <cute_cpp/config.hpp>            // CUTE_CPP_HD
#include <cute_cpp/diag/umma_pipeline.hpp>  // pipeline.umma.cta-group

#include <cstdint>

namespace cute_cpp {

/// The CTA group of a tcgen05 MMA (see the file comment).
template <int CtaGroup>
struct UmmaCtaPair {
  static_assert(diag::umma_pipeline_cluster<CtaGroup, CtaGroup>::ok);
  static constexpr int cta_group = CtaGroup;

  /// The rank of the leader of `rank`'s group: 5 -> 4 with a pair, 5 -> 5 alone.
  CUTE_CPP_HD static constexpr std::uint32_t leader_rank(std::uint32_t rank) {
    return CtaGroup == 2 ? rank & ~1u : rank;
  }
  /// Whether `rank` issues its group's MMAs (and arms its TMA barriers).
  CUTE_CPP_HD static constexpr bool is_leader(std::uint32_t rank) { return leader_rank(rank) == rank; }
  /// The rank of the other CTA of a pair (itself alone): 4 <-> 5.
  CUTE_CPP_HD static constexpr std::uint32_t peer_rank(std::uint32_t rank) {
    return CtaGroup == 2 ? rank ^ 1u : rank;
  }
  /// The multicast mask (bit r = cluster rank r) of `rank`'s group: rank 5 -> 0b110000 with a
  /// pair, 0b100000 alone. The leader's tcgen05.commit arrives on these CTAs' barriers.
  CUTE_CPP_HD static constexpr std::uint16_t mask(std::uint32_t rank) {
    return std::uint16_t((CtaGroup == 2 ? 3u : 1u) << leader_rank(rank));
  }
};

}  // namespace cute_cpp
