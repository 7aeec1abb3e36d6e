// SPDX-License-Identifier: Apache-2.0
// models/qwen3/collectives_sm90.cu: collectives.hpp's two implementations: NCCL's, and the one-device
// emulation (a host barrier of the rank threads and a sum kernel) that checks the per-rank model on
// one GPU.
#include "models/qwen3/collectives.hpp"

#include "models/common/error.hpp"  // LoadError
#include "models/common/nccl.hpp"   // Communicators

#include <cute_cpp/host/buffer.hpp>  // DeviceBuffer
#include <cute_cpp/host/error.hpp>   // cuda_check

#include <algorithm>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <stdexcept>
#include <string>
#include <utility>

namespace cute_cpp::models {

namespace {

using bf16 = __nv_bfloat16;
using host::cuda_check;

constexpr const char* kRuleRanks = "cute-cpp [tp.ranks]: --tensor-parallel needs at least 1 device";
constexpr const char* kRuleRankFailed =
    "cute-cpp [tp.rank-failed]: another rank of the tensor-parallel model failed; this one stopped in a collective";

/// The ranks' inputs of one emulated all-reduce (at most max_ranks; tp.* allows no more GPUs than that).
constexpr int max_ranks = 16;
struct Sources {
  bf16 const* p[max_ranks];
  int n;
};

/// out[i] = bf16(sum over q < n, in rank order, of f32(in_q[i])): every rank sums in the same order,
/// so that the replicated residual stream stays identical on every rank.
template <int = 0>
__global__ void __launch_bounds__(256) sum_ranks_kernel(Sources in, bf16* __restrict__ out, std::size_t count) {
  std::size_t const stride = std::size_t(gridDim.x) * blockDim.x;
  for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += stride) {
    float sum = 0.0f;
    for (int q = 0; q < in.n; ++q) sum += __bfloat162float(in.p[q][i]);
    out[i] = __float2bfloat16(sum);
  }
}

class NcclCollectives final : public Collectives {
 public:
  explicit NcclCollectives(std::vector<int> devices) : comms_(NcclLibrary::load(), std::move(devices)) {}
  int ranks() const noexcept override { return comms_.ranks(); }
  bool capturable() const noexcept override { return true; }
  void all_reduce_sum(int rank, bf16* data, std::size_t count, cudaStream_t stream) override {
    comms_.all_reduce_sum(rank, data, data, count, Dtype::BF16, stream);
  }
  void all_gather(int rank, bf16 const* send, bf16* recv, std::size_t count, cudaStream_t stream) override {
    comms_.all_gather(rank, send, recv, count, Dtype::BF16, stream);
  }

 private:
  Communicators comms_;
};

/// N ranks' threads on one device: each collective is a barrier (every rank's input written: each
/// rank waits for its stream first), the work, and a second barrier (every rank done reading the
/// others' inputs before any rank writes its own again).
class EmulatedCollectives final : public Collectives {
 public:
  explicit EmulatedCollectives(int ranks) : n_(ranks), sources_(std::size_t(ranks)), scratch_(std::size_t(ranks)) {}
  int ranks() const noexcept override { return n_; }
  bool capturable() const noexcept override { return false; }

  void all_reduce_sum(int rank, bf16* data, std::size_t count, cudaStream_t stream) override {
    publish(rank, data, stream);
    Sources in{};
    in.n = n_;
    for (int q = 0; q < n_; ++q) in.p[q] = sources_[std::size_t(q)];
    host::DeviceBuffer<bf16>& sum = scratch_[std::size_t(rank)];  // only this rank's thread touches it
    if (sum.size() < count) sum = host::DeviceBuffer<bf16>(count);
    unsigned const blocks = unsigned(std::min<std::size_t>((count + 255) / 256, 4096));
    sum_ranks_kernel<><<<blocks, 256, 0, stream>>>(in, sum.data(), count);
    cuda_check(cudaGetLastError(), "sum_ranks_kernel launch");
    cuda_check(cudaStreamSynchronize(stream), "cudaStreamSynchronize(emulated all-reduce)");
    barrier();  // every rank has read every input
    cuda_check(cudaMemcpyAsync(data, sum.data(), count * sizeof(bf16), cudaMemcpyDeviceToDevice, stream),
               "cudaMemcpyAsync(emulated all-reduce)");
  }

  void all_gather(int rank, bf16 const* send, bf16* recv, std::size_t count, cudaStream_t stream) override {
    publish(rank, send, stream);
    for (int q = 0; q < n_; ++q)
      cuda_check(cudaMemcpyAsync(recv + std::size_t(q) * count, sources_[std::size_t(q)], count * sizeof(bf16),
                                 cudaMemcpyDeviceToDevice, stream),
                 "cudaMemcpyAsync(emulated all-gather)");
    cuda_check(cudaStreamSynchronize(stream), "cudaStreamSynchronize(emulated all-gather)");
    barrier();
  }

  void abort() noexcept override {
    std::lock_guard<std::mutex> lock(mutex_);
    aborted_ = true;
    cv_.notify_all();
  }

 private:
  /// Rank `rank`'s input, written once its stream has run, then the barrier that shows it to all.
  void publish(int rank, bf16 const* data, cudaStream_t stream) {
    cuda_check(cudaStreamSynchronize(stream), "cudaStreamSynchronize(emulated collective)");
    {
      std::lock_guard<std::mutex> lock(mutex_);
      sources_[std::size_t(rank)] = data;
    }
    barrier();
  }
  void barrier() {
    std::unique_lock<std::mutex> lock(mutex_);
    if (aborted_) throw LoadError(kRuleRankFailed, "before a collective");
    std::uint64_t const generation = generation_;
    if (++arrived_ == n_) {
      arrived_ = 0;
      ++generation_;
      cv_.notify_all();
      return;
    }
    cv_.wait(lock, [&] { return generation_ != generation || aborted_; });
    if (generation_ == generation) throw LoadError(kRuleRankFailed, "while waiting for the other ranks");
  }

  int n_;
  std::mutex mutex_;
  std::condition_variable cv_;
  int arrived_ = 0;
  std::uint64_t generation_ = 0;
  bool aborted_ = false;
  std::vector<bf16 const*> sources_;
  std::vector<host::DeviceBuffer<bf16>> scratch_;
};

}  // namespace

std::unique_ptr<Collectives> nccl_collectives(std::vector<int> devices) {
  return std::make_unique<NcclCollectives>(std::move(devices));
}

std::unique_ptr<Collectives> emulated_collectives(int ranks) {
  if (ranks < 1 || ranks > max_ranks)
    throw LoadError(kRuleRanks, std::to_string(ranks) + " ranks emulated on one device (1 to " +
                                    std::to_string(max_ranks) + ")");
  return std::make_unique<EmulatedCollectives>(ranks);
}

}  // namespace cute_cpp::models
