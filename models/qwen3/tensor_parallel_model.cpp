// SPDX-License-Identifier: Apache-2.0
// models/qwen3/tensor_parallel_model.cpp: N rank models behind one Qwen3Model (tensor_parallel_model.hpp).
#include "models/qwen3/tensor_parallel_model.hpp"

#include "models/common/error.hpp"      // LoadError
#include "models/qwen3/collectives.hpp"  // Collectives

#include <cute_cpp/host/error.hpp>  // cuda_check

#include <cuda_runtime_api.h>

#include <exception>
#include <thread>
#include <utility>
#include <vector>

namespace cute_cpp::models {

namespace {

using host::cuda_check;

class TensorParallelModel final : public Qwen3Model {
 public:
  TensorParallelModel(const std::filesystem::path& folder, Qwen3Options options, TensorParallelOptions tp) {
    int current = 0;
    cuda_check(cudaGetDevice(&current), "cudaGetDevice");
    for (int r = 0; r < tp.ranks; ++r) devices_.push_back(tp.emulate ? current : r);
    collectives_ = tp.emulate ? emulated_collectives(tp.ranks) : nccl_collectives(devices_);
    ranks_.resize(std::size_t(tp.ranks));
    on_ranks([&](int r) {
      ranks_[std::size_t(r)] = load_rank(folder, options, tp.random_seed, {tp.ranks, r, collectives_.get()});
    });
  }
  ~TensorParallelModel() override {
    // The rank models first (their streams and buffers), then the communicators.
    for (auto& m : ranks_) m.reset();
  }

  const Qwen3Config& config() const noexcept override { return first().config(); }
  const Qwen3Options& options() const noexcept override { return first().options(); }
  std::uint64_t weight_bytes() const noexcept override {
    std::uint64_t n = 0;
    for (auto const& m : ranks_) n += m->weight_bytes();
    return n;
  }
  std::uint64_t kv_cache_bytes() const noexcept override {
    std::uint64_t n = 0;
    for (auto const& m : ranks_) n += m->kv_cache_bytes();
    return n;
  }
  std::vector<int> prefill(std::span<const std::vector<std::int32_t>> prompts, LogitsRows rows) override {
    std::vector<int> slots;
    on_ranks([&](int r) {
      std::vector<int> s = ranks_[std::size_t(r)]->prefill(prompts, rows);
      if (r == 0) slots = std::move(s);  // every rank's pages take the same slots (the same calls)
    });
    return slots;
  }
  void decode(std::span<const int> slots, std::span<const std::int32_t> ids, const std::int32_t* device_ids) override {
    if (device_ids != nullptr) wait_for_rank0();  // the ids were drawn on rank 0's stream
    on_ranks([&](int r) { ranks_[std::size_t(r)]->decode(slots, ids, device_ids); });
  }
  std::vector<StepPhase> profile_decode(std::span<const int> slots, std::span<const std::int32_t> ids,
                                        int replays) override {
    std::vector<StepPhase> phases;
    on_ranks([&](int r) {
      std::vector<StepPhase> p = ranks_[std::size_t(r)]->profile_decode(slots, ids, replays);
      if (r == 0) phases = std::move(p);
    });
    return phases;
  }
  MarginalProfile marginal_decode(std::span<const int>, std::span<const std::int32_t>, int) override {
    throw LoadError(kTpProfileRule, "marginal_decode with --tensor-parallel");
  }
  void release(int slot) override {
    for (auto& m : ranks_) m->release(slot);
  }
  int length(int slot) const override { return first().length(slot); }
  const __nv_bfloat16* logits() const noexcept override { return first().logits(); }
  int logits_rows() const noexcept override { return first().logits_rows(); }
  cudaStream_t stream() const noexcept override { return first().stream(); }
  LogitsLayout logits_layout() const noexcept override { return first().logits_layout(); }

 private:
  const Qwen3Model& first() const noexcept { return *ranks_.front(); }

  /// f(r) for every rank at once, on its device: one thread a rank (the calls meet in the
  /// collectives). A rank that throws aborts the collectives, so that the others stop too; the
  /// first rank's error is rethrown.
  /// NOTE: a thread a call, not a pool: simple, and its cost (tens of microseconds) is the
  /// emulation's least; a pool is for the several-GPU benchmarks (tensor_parallel.md).
  template <class F>
  void on_ranks(F&& f) {
    int const n = int(devices_.size());
    auto const run = [&](int r) {
      cuda_check(cudaSetDevice(devices_[std::size_t(r)]), "cudaSetDevice(rank)");
      f(r);
    };
    if (n == 1) {
      run(0);
      return;
    }
    std::vector<std::exception_ptr> errors(static_cast<std::size_t>(n));
    {
      std::vector<std::jthread> threads;
      for (int r = 0; r < n; ++r)
        threads.emplace_back([&, r] {
          try {
            run(r);
          } catch (...) {
            errors[std::size_t(r)] = std::current_exception();
            collectives_->abort();
          }
        });
    }
    cuda_check(cudaSetDevice(devices_[0]), "cudaSetDevice(rank 0)");
    rethrow_first(errors);
  }
  /// The first rank's own error; tp.rank-failed (a rank stopped by another's failure) only if no other.
  static void rethrow_first(std::vector<std::exception_ptr> const& errors) {
    std::exception_ptr stopped;
    for (std::exception_ptr const& e : errors) {
      if (!e) continue;
      try {
        std::rethrow_exception(e);
      } catch (LoadError const& error) {
        if (error.rule() != "tp.rank-failed") throw;
        if (!stopped) stopped = e;
      }
    }
    if (stopped) std::rethrow_exception(stopped);
  }
  void wait_for_rank0() {
    cuda_check(cudaStreamSynchronize(first().stream()), "cudaStreamSynchronize(rank 0)");
  }

  std::vector<int> devices_;
  std::unique_ptr<Collectives> collectives_;
  std::vector<std::unique_ptr<Qwen3Model>> ranks_;
};

}  // namespace

std::unique_ptr<Qwen3Model> load_tensor_parallel(const std::filesystem::path& folder, Qwen3Options options,
                                                 TensorParallelOptions tp) {
  return std::make_unique<TensorParallelModel>(folder, options, tp);
}

}  // namespace cute_cpp::models
