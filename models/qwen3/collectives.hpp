// SPDX-License-Identifier: Apache-2.0
#pragma once
// models/qwen3/collectives.hpp: the two collectives a tensor-parallel Qwen3 rank calls
// (tensor_parallel.md: a sum all-reduce of bf16 activations after o_proj, after down_proj or the
// experts' combine, and after the vocabulary-split embedding; an all-gather of the LM head's
// logits), on the rank's stream, behind one interface with two implementations:
//   nccl_collectives      over models/common/nccl.hpp's Communicators: one device per rank, one host
//                         thread per rank; capturable into the decode graphs.
//   emulated_collectives  N ranks on one device, the collectives done by the host (a barrier of the
//                         rank threads, then a sum kernel or copies): the per-rank model checked
//                         against the one-device model on one GPU. Eager only: a host barrier
//                         cannot be recorded in a CUDA graph.
#include <cstddef>  // std::size_t
#include <memory>   // std::unique_ptr
#include <vector>   // std::vector

#include <cuda_bf16.h>          // __nv_bfloat16
#include <cuda_runtime_api.h>   // cudaStream_t

namespace cute_cpp::models {

class NcclLibrary;  // models/common/nccl.hpp

/// A tensor-parallel rank's collectives. Each rank calls for itself, from its own host thread, in
/// the same order on every rank (the model's forward pass is the same on every rank).
class Collectives {
 public:
  virtual ~Collectives() = default;
  [[nodiscard]] virtual int ranks() const noexcept = 0;
  /// Whether the calls may be recorded in a CUDA graph (stream capture).
  [[nodiscard]] virtual bool capturable() const noexcept = 0;
  /// data[i] = the sum over ranks of their data[i], i < count, in place, ordered on `stream`.
  virtual void all_reduce_sum(int rank, __nv_bfloat16* data, std::size_t count, cudaStream_t stream) = 0;
  /// recv[q count + i] = rank q's send[i], i < count (rank-major), ordered on `stream`.
  virtual void all_gather(int rank, __nv_bfloat16 const* send, __nv_bfloat16* recv, std::size_t count,
                          cudaStream_t stream) = 0;
  /// A rank failed: the others, waiting in a collective or entering one, give up with tp.rank-failed
  /// instead of waiting for it forever (the emulation; NCCL's waits are on the device).
  virtual void abort() noexcept {}
};

/// NCCL over `devices` (rank r on devices[r]; one entry: a communicator of one rank).
/// @pre NcclLibrary::load's and Communicators' (tp.nccl, tp.nccl-call).
[[nodiscard]] std::unique_ptr<Collectives> nccl_collectives(std::vector<int> devices);
/// `ranks` ranks on the current device, the collectives done by their host threads (see the file comment).
/// @pre ranks >= 1 [tp.ranks].
[[nodiscard]] std::unique_ptr<Collectives> emulated_collectives(int ranks);

}  // namespace cute_cpp::models
