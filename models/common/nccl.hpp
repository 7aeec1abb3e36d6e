// SPDX-License-Identifier: Apache-2.0
#pragma once
// models/common/nccl.hpp: NCCL for tensor parallelism (issue 49) without a build-time dependency.
// libnccl.so.2 is loaded at run time (dlopen: CUTE_CPP_NCCL, else the soname through the loader's
// path), and the few entry points the decoders call are resolved by name; NCCL's C types are declared
// here from its public nccl.h. Communicators holds one communicator per device of this process
// (ncclCommInitAll) and runs the sum all-reduce and the all-gather on bf16 and f32 buffers.
// Host only: no CUDA header (a stream is CUDA's own `CUstream_st*`, i.e. cudaStream_t).
#include <cstddef>      // std::size_t
#include <stdexcept>    // std::runtime_error
#include <string>       // std::string
#include <vector>       // std::vector

#include "models/common/safetensors.hpp"  // Dtype

struct CUstream_st;  // CUDA's stream type: cudaStream_t is `CUstream_st*` (driver_types.h)

namespace cute_cpp::models {

// ---- NCCL's C API, as its public nccl.h declares it ----

namespace nccl {
struct Comm;  ///< ncclComm: opaque; ncclComm_t is a pointer to it
using CommHandle = Comm*;
/// ncclResult_t.
enum class Result : int {
  success = 0,
  unhandled_cuda_error = 1,
  system_error = 2,
  internal_error = 3,
  invalid_argument = 4,
  invalid_usage = 5,
  remote_error = 6,
  in_progress = 7,
  timeout = 8,
};
/// ncclDataType_t (the values the collectives here pass, and their neighbours).
enum class DataType : int { float16 = 6, float32 = 7, float64 = 8, bfloat16 = 9 };
/// ncclRedOp_t.
enum class RedOp : int { sum = 0 };

/// "ncclInvalidArgument" for Result::invalid_argument; "ncclResult 42" for a value NCCL added later.
[[nodiscard]] std::string result_name(Result result);

/// The NCCL version code of `major.minor`: ncclGetVersion's encoding (2.10.3 -> 21003, 2.8.4 -> 2804).
[[nodiscard]] constexpr int version_code(int major, int minor, int patch) noexcept {
  return major <= 2 && minor <= 8 ? major * 1000 + minor * 100 + patch : major * 10000 + minor * 100 + patch;
}

/// The entry points, with nccl.h's signatures.
struct Api {
  Result (*get_version)(int* version) = nullptr;
  const char* (*get_error_string)(Result result) = nullptr;
  Result (*comm_init_all)(CommHandle* comms, int ndev, const int* devlist) = nullptr;
  Result (*comm_destroy)(CommHandle comm) = nullptr;
  Result (*all_reduce)(const void* send, void* recv, std::size_t count, DataType type, RedOp op, CommHandle comm,
                       CUstream_st* stream) = nullptr;
  Result (*all_gather)(const void* send, void* recv, std::size_t send_count, DataType type, CommHandle comm,
                       CUstream_st* stream) = nullptr;
  Result (*group_start)() = nullptr;
  Result (*group_end)() = nullptr;
};
}  // namespace nccl

/// A failed NCCL call, e.g. `cute-cpp [tp.nccl-call]: ncclAllReduce(rank 1 of 2, device 1, 4099 BF16 elements)
/// failed: ncclInvalidArgument (invalid argument)`: the call, then NCCL's result and its error string.
class NcclError : public std::runtime_error {
 public:
  NcclError(const std::string& message, nccl::Result result) : std::runtime_error(message), result_(result) {}
  [[nodiscard]] nccl::Result result() const noexcept { return result_; }

 private:
  nccl::Result result_;
};

// ---- the element types of the collectives ----

/// NCCL's type for a buffer of `dtype`: BF16 -> bfloat16, F32 -> float32.
/// @pre dtype is BF16 or F32 [tp.nccl-dtype]
[[nodiscard]] nccl::DataType nccl_data_type(Dtype dtype);
/// Bytes of one element NCCL moves for `type`: 2 for bfloat16, 4 for float32.
[[nodiscard]] std::size_t nccl_element_bytes(nccl::DataType type) noexcept;

// ---- NcclLibrary ----

/// libnccl, loaded and resolved. Copies share the loaded library, which stays loaded for the
/// process's life (NOTE: NCCL's proxy threads and exit handlers may outlive a communicator, so it is
/// never unloaded, as in PyTorch, which links it).
///   NcclLibrary const nccl = NcclLibrary::load();
///   nccl.version() -> 22809 (NCCL 2.28.9)   nccl.path() -> "libnccl.so.2"
class NcclLibrary {
 public:
  /// CUTE_CPP_NCCL (a library file) when set, else libnccl.so.2 through the loader's path
  /// (LD_LIBRARY_PATH, the ld.so cache). A library named by CUTE_CPP_NCCL that fails is an error,
  /// never a fall-back to another NCCL.
  /// @pre the library loads, has every entry point of nccl::Api and is NCCL 2.10 or later (bf16)
  ///      [tp.nccl]: the error names what was searched and how to set CUTE_CPP_NCCL.
  [[nodiscard]] static NcclLibrary load();
  /// load() with `cute_cpp_nccl` in place of CUTE_CPP_NCCL's value (nullptr or "": unset).
  [[nodiscard]] static NcclLibrary load(const char* cute_cpp_nccl);

  [[nodiscard]] const nccl::Api& api() const noexcept { return api_; }
  /// ncclGetVersion's code, e.g. 22809.
  [[nodiscard]] int version() const noexcept { return version_; }
  /// What dlopen was given: CUTE_CPP_NCCL's value, or "libnccl.so.2".
  [[nodiscard]] const std::string& path() const noexcept { return path_; }
  /// "ncclInvalidArgument (invalid argument)": the result's name, then ncclGetErrorString's text.
  [[nodiscard]] std::string describe(nccl::Result result) const;

 private:
  nccl::Api api_;
  int version_ = 0;
  std::string path_;
};

// ---- Communicators ----

class NcclGroup;

/// One NCCL communicator per device of this process, made together by ncclCommInitAll: rank r runs
/// on CUDA device devices[r]. Destroyed with the object. Each call enqueues one rank's part of a
/// collective on that rank's stream (capturable into a CUDA graph): with one host thread per device
/// (tensor_parallel.md's plan) each thread calls for its own rank; one thread driving several ranks
/// must call for every rank inside one group() (NCCL's rule: each rank's call may wait for the others).
///   Communicators comms(NcclLibrary::load(), {0, 1});
///   { NcclGroup g = comms.group();
///     comms.all_reduce_sum(0, x0, x0, 4096, Dtype::BF16, s0);  comms.all_reduce_sum(1, x1, x1, ...);
///     g.end(); }
class Communicators {
 public:
  /// @pre devices is not empty [tp.ranks]; ncclCommInitAll succeeds [tp.nccl-call] (NcclError).
  Communicators(NcclLibrary nccl, std::vector<int> devices);
  ~Communicators();
  Communicators(const Communicators&) = delete;
  Communicators& operator=(const Communicators&) = delete;
  Communicators(Communicators&& other) noexcept;
  Communicators& operator=(Communicators&& other) noexcept;

  [[nodiscard]] int ranks() const noexcept { return int(comms_.size()); }
  /// The CUDA device of `rank`. @pre 0 <= rank < ranks() [tp.rank].
  [[nodiscard]] int device(int rank) const;
  [[nodiscard]] const NcclLibrary& library() const noexcept { return nccl_; }

  /// recv[i] = the sum over ranks of their send[i], i < count (send == recv: in place).
  /// @pre 0 <= rank < ranks() [tp.rank]; dtype BF16 or F32 [tp.nccl-dtype]; NCCL accepts the call
  ///      [tp.nccl-call] (NcclError; inside a group NCCL may report it at NcclGroup::end()).
  ///      Buffers on device(rank), `stream` on that device.
  void all_reduce_sum(int rank, const void* send, void* recv, std::size_t count, Dtype dtype,
                      CUstream_st* stream) const;
  /// recv[q * count + i] = rank q's send[i], i < count: recv holds ranks() * count elements, rank-major.
  /// @pre as all_reduce_sum's.
  void all_gather(int rank, const void* send, void* recv, std::size_t count, Dtype dtype, CUstream_st* stream) const;
  /// ncclGroupStart now, ncclGroupEnd at NcclGroup::end() (or its destruction).
  [[nodiscard]] NcclGroup group() const;

 private:
  void check_rank(int rank) const;
  void release() noexcept;
  NcclLibrary nccl_;
  std::vector<int> devices_;
  std::vector<nccl::CommHandle> comms_;
};

/// An NCCL group: the calls made while it is open are launched together at end().
class NcclGroup {
 public:
  /// @pre ncclGroupStart succeeds [tp.nccl-call].
  explicit NcclGroup(const NcclLibrary& nccl);
  /// Ends the group if end() was not called; an error there is printed, not thrown (it may run
  /// while another error unwinds the stack).
  ~NcclGroup();
  NcclGroup(const NcclGroup&) = delete;
  NcclGroup& operator=(const NcclGroup&) = delete;
  /// ncclGroupEnd: launches the group's calls (a second end() does nothing). @pre it succeeds [tp.nccl-call].
  void end();

 private:
  NcclLibrary nccl_;
  bool open_ = true;
};

}  // namespace cute_cpp::models
