// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// Rule templates of the pipelines (pipeline.*).
// The values under test are the template arguments, so the compiler prints them on the first
// context line.
#include <cstdint>

namespace cute_cpp::diag {

template <int ProducerArrivals, int ConsumerArrivals>
struct pipeline_async_arrivals {
  static_assert(ProducerArrivals >= 1 && ConsumerArrivals >= 1,
                "cute-cpp [pipeline.arrivals]: a pipeline needs at least one producer and one consumer arrival");
  static constexpr bool ok = true;
};

template <int Stages>
struct pipeline_stages {
  static_assert(Stages >= 1, "cute-cpp [pipeline.stages]: a pipeline needs at least one stage");
  static constexpr bool ok = true;
};

template <int ConsumerArrivals, std::uint32_t TxBytes>
struct pipeline_tma_plan {
  static_assert(ConsumerArrivals >= 1, "cute-cpp [pipeline.consumers]: a pipeline needs at least one consumer arrival");
  static_assert(TxBytes > 0 && TxBytes % 16 == 0 && TxBytes < (1u << 20),
                "cute-cpp [pipeline.tx-bytes]: a stage's transaction bytes are a positive multiple of 16 below 2^20");
  static constexpr bool ok = true;
};

}  // namespace cute_cpp::diag
