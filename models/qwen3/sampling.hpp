// SPDX-License-Identifier: Apache-2.0
#pragma once
// models/qwen3/sampling.hpp: the next token of each row of the logits, drawn on the device: greedy
// (argmax), or sampled after temperature, top-k and top-p, as transformers' generate applies them.
// The kernels are in sampling.cu (library cute_cpp_qwen3_sampling); this header needs no nvcc.
#include <cuda_bf16.h>          // __nv_bfloat16
#include <cuda_runtime_api.h>   // cudaStream_t

#include <cstddef>  // std::size_t
#include <cstdint>  // std::int32_t, std::int64_t, std::uint32_t, std::uint64_t

#include <cute_cpp/config.hpp>  // CUTE_CPP_HD

#include "models/qwen3/vocab_shards.hpp"  // LogitsLayout

namespace cute_cpp::models {

/// How the next token is drawn, as transformers' generate applies its warpers: temperature, then top-k, then top-p.
/// The tokens are ordered by logit, larger first, and equal logits by id, smaller first; top-k and top-p each keep
/// a prefix of that order, so a tie at the boundary is broken by the smaller id. The kept tokens are drawn with
/// probability softmax(logit / temperature) over the kept set.
struct SamplingParams {
  float temperature = 0.0f;  ///< 0: greedy (argmax; ties go to the smallest id, as torch.argmax)
  int top_k = 0;             ///< 0: off; else keep the k most likely tokens
  float top_p = 1.0f;        ///< 1: off; else keep the smallest most-likely set whose probability is >= top_p (HF TopPLogitsWarper semantics, at least one token kept)
  std::uint64_t seed = 0;    ///< the random stream is a pure function of (seed, step, row): reruns reproduce
};

/// The rule sample_tokens' argument errors name.
inline constexpr char const* kSamplingRule =
    "cute-cpp [qwen3.sampling]: rows >= 1, 1 <= vocab <= 2^23, ld >= vocab, a finite temperature >= 0, top_k >= 0, "
    "0 < top_p <= 1, and the workspace sampling_workspace_bytes asks for";

/// The bytes of device workspace sample_tokens needs for `rows` rows of `vocab` logits (0 today: the
/// kernels keep their state in shared memory; allocate what this returns, which may become nonzero).
std::size_t sampling_workspace_bytes(int rows, int vocab);

/// ids[r] = a token drawn from row r of logits (bf16 [rows, vocab], row stride ld elements).
/// Asynchronous on `stream`; logits and ids are device pointers. NaN logits are never drawn (greedy
/// picks one only when the whole row is NaN: id 0). A row whose largest logit is +-inf gives those
/// largest tokens equal probability. The row's random number is philox4x32_10({step, step >> 32, row, 0},
/// {seed, seed >> 32}), so a rerun with the same (seed, step) gives the same ids.
/// @pre rows >= 1; 1 <= vocab <= 2^23; ld >= vocab; temperature finite and >= 0; top_k >= 0;
///      0 < top_p <= 1; workspace_bytes >= sampling_workspace_bytes(rows, vocab) [qwen3.sampling]
void sample_tokens(__nv_bfloat16 const* logits, std::int64_t ld, int rows, int vocab, SamplingParams const& params,
                   std::uint64_t step, std::int32_t* ids, void* workspace, std::size_t workspace_bytes,
                   cudaStream_t stream);

/// sample_tokens with part of the step on the device: the random stream's step is step + *device_step,
/// read when the kernel runs, so that a CUDA graph replayed again and again (Qwen3-TTS's frames) draws
/// new numbers each time. device_step null: step alone, as above.
void sample_tokens(__nv_bfloat16 const* logits, std::int64_t ld, int rows, int vocab, SamplingParams const& params,
                   std::uint64_t step, std::uint64_t const* device_step, std::int32_t* ids, void* workspace,
                   std::size_t workspace_bytes, cudaStream_t stream);

/// sample_tokens over logits in `layout` (vocab_shards.hpp): one device's row-major rows, or the
/// tensor-parallel ranks' all-gathered shards, read rank-major with the padding columns past `vocab`
/// skipped. A layout of one shard runs the same kernels as the overloads above.
/// @pre as above, with check_logits_layout(layout, rows, vocab) "" [qwen3.sampling]
void sample_tokens(__nv_bfloat16 const* logits, LogitsLayout const& layout, int rows, int vocab,
                   SamplingParams const& params, std::uint64_t step, std::uint64_t const* device_step,
                   std::int32_t* ids, void* workspace, std::size_t workspace_bytes, cudaStream_t stream);

// ---- the random stream ----

/// 128 random bits.
struct Philox4x32Block {
  std::uint32_t v[4];
};

/// Philox-4x32-10 (Salmon et al., "Parallel random numbers: as easy as 1, 2, 3", SC'11; Random123's
/// philox4x32 with 10 rounds): a counter-based generator, 128 bits from a 128-bit counter and a 64-bit key.
CUTE_CPP_HD constexpr Philox4x32Block philox4x32_10(Philox4x32Block counter, std::uint32_t key0, std::uint32_t key1) {
  for (int round = 0; round < 10; ++round) {
    if (round > 0) {
      key0 += 0x9E3779B9u;
      key1 += 0xBB67AE85u;
    }
    std::uint64_t const p0 = std::uint64_t(0xD2511F53u) * counter.v[0];
    std::uint64_t const p1 = std::uint64_t(0xCD9E8D57u) * counter.v[2];
    counter = {{std::uint32_t(p1 >> 32) ^ counter.v[1] ^ key0, std::uint32_t(p1),
                std::uint32_t(p0 >> 32) ^ counter.v[3] ^ key1, std::uint32_t(p0)}};
  }
  return counter;
}

/// The 64 random bits sample_tokens uses for `row` at `step`: the first two words of the Philox block.
CUTE_CPP_HD constexpr std::uint64_t sampling_random_bits(std::uint64_t seed, std::uint64_t step, std::uint32_t row) {
  Philox4x32Block const r =
      philox4x32_10({{std::uint32_t(step), std::uint32_t(step >> 32), row, 0u}}, std::uint32_t(seed),
                    std::uint32_t(seed >> 32));
  return (std::uint64_t(r.v[0]) << 32) | r.v[1];
}

namespace detail {
// Random123's known-answer vectors (kat_vectors, philox4x32 10).
constexpr bool philox_matches(Philox4x32Block c, std::uint32_t k0, std::uint32_t k1, Philox4x32Block expected) {
  Philox4x32Block const r = philox4x32_10(c, k0, k1);
  return r.v[0] == expected.v[0] && r.v[1] == expected.v[1] && r.v[2] == expected.v[2] && r.v[3] == expected.v[3];
}
static_assert(philox_matches({{0, 0, 0, 0}}, 0, 0, {{0x6627e8d5u, 0xe169c58du, 0xbc57ac4cu, 0x9b00dbd8u}}));
static_assert(philox_matches({{0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu}}, 0xffffffffu, 0xffffffffu,
                             {{0x408f276du, 0x41c83b0eu, 0xa20bc7c6u, 0x6d5451fdu}}));
static_assert(philox_matches({{0x243f6a88u, 0x85a308d3u, 0x13198a2eu, 0x03707344u}}, 0xa4093822u, 0x299f31d0u,
                             {{0xd16cfe09u, 0x94fdccebu, 0x5001e420u, 0x24126ea1u}}));
}  // namespace detail

}  // namespace cute_cpp::models
