// SPDX-License-Identifier: Apache-2.0
// models/common/nccl.cpp: libnccl loaded with dlopen, its entry points resolved by name, and the
// communicators of one process (nccl.hpp).
#include "models/common/nccl.hpp"

#include <dlfcn.h>  // dlopen, dlsym, dlerror, dlclose

#include <cstdio>   // std::fprintf
#include <cstdlib>  // std::getenv
#include <utility>  // std::move, std::exchange

#include "models/common/error.hpp"  // LoadError, in_quotes

namespace cute_cpp::models {

namespace {

constexpr char kRuleNccl[] =
    "cute-cpp [tp.nccl]: tensor parallelism needs NCCL 2.10 or later (libnccl.so.2), loaded at run time from "
    "CUTE_CPP_NCCL (the library file) or the loader's path";
constexpr char kRuleCall[] =
    "cute-cpp [tp.nccl-call]: an NCCL call must succeed (NCCL_DEBUG=WARN prints NCCL's account)";
constexpr char kRuleDtype[] = "cute-cpp [tp.nccl-dtype]: the collectives take bf16 or f32 buffers";
constexpr char kRuleRank[] = "cute-cpp [tp.rank]: a rank must be one of 0 .. ranks - 1";
constexpr char kRuleRanks[] = "cute-cpp [tp.ranks]: --tensor-parallel needs at least 1 device";

constexpr char kSoname[] = "libnccl.so.2";
constexpr char kHowTo[] =
    "; set CUTE_CPP_NCCL to the path of libnccl.so.2 (pip's nvidia-nccl-cu12 or nvidia-nccl-cu13, which torch "
    "installs, puts it at <site-packages>/nvidia/nccl/lib/libnccl.so.2)";
// NOTE: bf16 reductions arrived in NCCL 2.10 (ncclBfloat16); graph capture of collectives in 2.9.
constexpr int kMinimumVersion = nccl::version_code(2, 10, 0);

/// "2.28.9" for 22809, "2.8.4" for 2804 (ncclGetVersion's two encodings).
std::string version_text(int code) {
  int const major = code >= 10000 ? code / 10000 : code / 1000;
  int const minor = code >= 10000 ? code % 10000 / 100 : code % 1000 / 100;
  return std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(code % 100);
}

std::string last_dlerror() {
  const char* e = dlerror();
  return e != nullptr ? e : "unknown error";
}

/// The entry point `name` of `handle` into `slot`; false when the library has none.
template <class F>
bool resolve(void* handle, const char* name, F& slot) {
  void* const symbol = dlsym(handle, name);
  slot = reinterpret_cast<F>(symbol);
  return symbol != nullptr;
}

/// Every entry point of nccl::Api from `handle`; the first one missing, or nullptr.
const char* resolve_all(void* handle, nccl::Api& api) {
  if (!resolve(handle, "ncclGetVersion", api.get_version)) return "ncclGetVersion";
  if (!resolve(handle, "ncclGetErrorString", api.get_error_string)) return "ncclGetErrorString";
  if (!resolve(handle, "ncclCommInitAll", api.comm_init_all)) return "ncclCommInitAll";
  if (!resolve(handle, "ncclCommDestroy", api.comm_destroy)) return "ncclCommDestroy";
  if (!resolve(handle, "ncclAllReduce", api.all_reduce)) return "ncclAllReduce";
  if (!resolve(handle, "ncclAllGather", api.all_gather)) return "ncclAllGather";
  if (!resolve(handle, "ncclGroupStart", api.group_start)) return "ncclGroupStart";
  if (!resolve(handle, "ncclGroupEnd", api.group_end)) return "ncclGroupEnd";
  return nullptr;
}

/// Throws tp.nccl-call for a result other than success, naming `what` was called.
void check_call(const NcclLibrary& nccl, nccl::Result result, const std::string& what) {
  if (result == nccl::Result::success) return;
  throw NcclError(LoadError(kRuleCall, what + " failed: " + nccl.describe(result)).what(), result);
}

}  // namespace

// ---- NCCL's types ----

std::string nccl::result_name(Result result) {
  switch (result) {
    case Result::success: return "ncclSuccess";
    case Result::unhandled_cuda_error: return "ncclUnhandledCudaError";
    case Result::system_error: return "ncclSystemError";
    case Result::internal_error: return "ncclInternalError";
    case Result::invalid_argument: return "ncclInvalidArgument";
    case Result::invalid_usage: return "ncclInvalidUsage";
    case Result::remote_error: return "ncclRemoteError";
    case Result::in_progress: return "ncclInProgress";
    case Result::timeout: return "ncclTimeout";
  }
  return "ncclResult " + std::to_string(int(result));
}

nccl::DataType nccl_data_type(Dtype dtype) {
  if (dtype == Dtype::BF16) return nccl::DataType::bfloat16;
  if (dtype == Dtype::F32) return nccl::DataType::float32;
  throw LoadError(kRuleDtype, "a buffer of " + std::string(dtype_name(dtype)));
}

std::size_t nccl_element_bytes(nccl::DataType type) noexcept {
  switch (type) {
    case nccl::DataType::float16:
    case nccl::DataType::bfloat16: return 2;
    case nccl::DataType::float32: return 4;
    case nccl::DataType::float64: return 8;
  }
  return 0;
}

// ---- NcclLibrary ----

NcclLibrary NcclLibrary::load() { return load(std::getenv("CUTE_CPP_NCCL")); }

NcclLibrary NcclLibrary::load(const char* cute_cpp_nccl) {
  bool const named = cute_cpp_nccl != nullptr && *cute_cpp_nccl != '\0';
  NcclLibrary lib;
  lib.path_ = named ? cute_cpp_nccl : kSoname;
  void* const handle = dlopen(lib.path_.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    std::string const searched =
        named ? "CUTE_CPP_NCCL=" + in_quotes(lib.path_) + " (the only place tried while it is set) does not load: "
              : "CUTE_CPP_NCCL is unset and " + in_quotes(kSoname) +
                    " is not on the loader's path (LD_LIBRARY_PATH, the ld.so cache): ";
    throw LoadError(kRuleNccl, searched + last_dlerror() + kHowTo);
  }
  if (const char* missing = resolve_all(handle, lib.api_)) {
    dlclose(handle);
    throw LoadError(kRuleNccl, in_quotes(lib.path_) + " has no " + missing + ": it is not NCCL" + kHowTo);
  }
  if (lib.api_.get_version(&lib.version_) != nccl::Result::success || lib.version_ < kMinimumVersion) {
    std::string const found = version_text(lib.version_);
    dlclose(handle);
    throw LoadError(kRuleNccl, in_quotes(lib.path_) + " is NCCL " + found + ": bf16 collectives need 2.10 or later" +
                                   kHowTo);
  }
  return lib;
}

std::string NcclLibrary::describe(nccl::Result result) const {
  const char* text = api_.get_error_string != nullptr ? api_.get_error_string(result) : nullptr;
  return nccl::result_name(result) + " (" + (text != nullptr ? text : "no text") + ")";
}

// ---- Communicators ----

Communicators::Communicators(NcclLibrary nccl, std::vector<int> devices)
    : nccl_(std::move(nccl)), devices_(std::move(devices)) {
  if (devices_.empty()) throw LoadError(kRuleRanks, "Communicators over no device");
  std::vector<nccl::CommHandle> comms(devices_.size(), nullptr);
  std::string what = "ncclCommInitAll(devices";
  for (int d : devices_) what += " " + std::to_string(d);
  check_call(nccl_, nccl_.api().comm_init_all(comms.data(), int(devices_.size()), devices_.data()), what + ")");
  comms_ = std::move(comms);
}

Communicators::~Communicators() { release(); }

Communicators::Communicators(Communicators&& other) noexcept
    : nccl_(other.nccl_), devices_(std::move(other.devices_)), comms_(std::exchange(other.comms_, {})) {}

Communicators& Communicators::operator=(Communicators&& other) noexcept {
  if (this != &other) {
    release();
    nccl_ = other.nccl_;
    devices_ = std::move(other.devices_);
    comms_ = std::exchange(other.comms_, {});
  }
  return *this;
}

void Communicators::release() noexcept {
  for (std::size_t r = 0; r < comms_.size(); ++r) {
    nccl::Result const result = nccl_.api().comm_destroy(comms_[r]);
    // A destructor cannot throw: the failure is reported and the other ranks still released.
    if (result != nccl::Result::success)
      std::fprintf(stderr, "cute-cpp [tp.nccl-call]: ncclCommDestroy(rank %zu) failed: %s\n", r,
                   nccl_.describe(result).c_str());
  }
  comms_.clear();
}

void Communicators::check_rank(int rank) const {
  if (rank < 0 || rank >= ranks())
    throw LoadError(kRuleRank, "rank " + std::to_string(rank) + " is outside 0 .. " + std::to_string(ranks() - 1));
}

int Communicators::device(int rank) const {
  check_rank(rank);
  return devices_[std::size_t(rank)];
}

namespace {
/// "ncclAllReduce(rank 1 of 2, device 1, 4099 BF16 elements)".
std::string call_text(const char* name, int rank, int ranks, int device, std::size_t count, Dtype dtype) {
  return std::string(name) + "(rank " + std::to_string(rank) + " of " + std::to_string(ranks) + ", device " +
         std::to_string(device) + ", " + std::to_string(count) + " " + std::string(dtype_name(dtype)) + " elements)";
}
}  // namespace

void Communicators::all_reduce_sum(int rank, const void* send, void* recv, std::size_t count, Dtype dtype,
                                   CUstream_st* stream) const {
  check_rank(rank);
  nccl::DataType const type = nccl_data_type(dtype);
  auto const r = std::size_t(rank);
  check_call(nccl_, nccl_.api().all_reduce(send, recv, count, type, nccl::RedOp::sum, comms_[r], stream),
             call_text("ncclAllReduce", rank, ranks(), devices_[r], count, dtype));
}

void Communicators::all_gather(int rank, const void* send, void* recv, std::size_t count, Dtype dtype,
                               CUstream_st* stream) const {
  check_rank(rank);
  nccl::DataType const type = nccl_data_type(dtype);
  auto const r = std::size_t(rank);
  check_call(nccl_, nccl_.api().all_gather(send, recv, count, type, comms_[r], stream),
             call_text("ncclAllGather", rank, ranks(), devices_[r], count, dtype));
}

NcclGroup Communicators::group() const { return NcclGroup(nccl_); }

// ---- NcclGroup ----

NcclGroup::NcclGroup(const NcclLibrary& nccl) : nccl_(nccl) {
  check_call(nccl_, nccl_.api().group_start(), "ncclGroupStart()");
}

NcclGroup::~NcclGroup() {
  if (!open_) return;
  nccl::Result const result = nccl_.api().group_end();
  if (result != nccl::Result::success)
    std::fprintf(stderr, "cute-cpp [tp.nccl-call]: ncclGroupEnd() failed: %s\n", nccl_.describe(result).c_str());
}

void NcclGroup::end() {
  if (!open_) return;
  open_ = false;
  check_call(nccl_, nccl_.api().group_end(), "ncclGroupEnd()");
}

}  // namespace cute_cpp::models
