// SPDX-License-Identifier: Apache-2.0
// A stand-in for libnccl.so.2 for models/common/nccl's CPU tests (nccl_test.cpp): the entry points
// NcclLibrary resolves, with nccl::Api's signatures (nccl.h's, in nccl.hpp's types: UBSan's function
// check compares the types of a call through a pointer), that record each call instead of communicating.
// The test reads the record and steers the next result through fake_nccl_* (dlsym on the same
// library). Built twice: whole, and without ncclAllGather (FAKE_NCCL_WITHOUT_ALL_GATHER), a
// library that is not a whole NCCL.
#include <cstddef>
#include <cstdio>
#include <string>

#include "models/common/nccl.hpp"  // nccl::Result, DataType, RedOp, CommHandle

namespace nccl = cute_cpp::models::nccl;

namespace {
std::string calls;
int version = 22809;
nccl::Result next_result = nccl::Result::success;
int comms_made = 0;
int comm_ids[64];

void note(const std::string& line) { calls += line + "\n"; }

/// The result steered by fake_nccl_fail_next, once; success otherwise.
nccl::Result result() {
  nccl::Result const r = next_result;
  next_result = nccl::Result::success;
  return r;
}

std::string pointer(const void* p) {
  char text[32];
  std::snprintf(text, sizeof text, "%p", p);
  return text;
}

int comm_index(nccl::CommHandle comm) { return comm == nullptr ? -1 : *reinterpret_cast<const int*>(comm); }
}  // namespace

extern "C" {

// ---- what the test calls ----

const char* fake_nccl_calls() { return calls.c_str(); }
void fake_nccl_reset() {
  calls.clear();
  comms_made = 0;
  next_result = nccl::Result::success;
  version = 22809;
}
void fake_nccl_set_version(int v) { version = v; }
void fake_nccl_fail_next(int r) { next_result = nccl::Result(r); }

// ---- NCCL's entry points ----

nccl::Result ncclGetVersion(int* v) {
  *v = version;
  return nccl::Result::success;
}

const char* ncclGetErrorString(nccl::Result r) {
  return r == nccl::Result::invalid_argument ? "fake: invalid argument" : "fake: some error";
}

nccl::Result ncclCommInitAll(nccl::CommHandle* comms, int ndev, const int* devlist) {
  std::string line = "ncclCommInitAll " + std::to_string(ndev) + ":";
  for (int i = 0; i < ndev; ++i) line += " " + std::to_string(devlist[i]);
  note(line);
  nccl::Result const r = result();
  if (r != nccl::Result::success) return r;
  for (int i = 0; i < ndev && comms_made < 64; ++i) {
    comm_ids[comms_made] = comms_made;
    comms[i] = reinterpret_cast<nccl::CommHandle>(&comm_ids[comms_made++]);
  }
  return nccl::Result::success;
}

nccl::Result ncclCommDestroy(nccl::CommHandle comm) {
  note("ncclCommDestroy comm " + std::to_string(comm_index(comm)));
  return result();
}

nccl::Result ncclAllReduce(const void* send, void* recv, std::size_t count, nccl::DataType type, nccl::RedOp op,
                           nccl::CommHandle comm, CUstream_st* stream) {
  note("ncclAllReduce comm " + std::to_string(comm_index(comm)) + " send " + pointer(send) + " recv " + pointer(recv) +
       " count " + std::to_string(count) + " type " + std::to_string(int(type)) + " op " + std::to_string(int(op)) +
       " stream " + pointer(stream));
  return result();
}

#if !defined(FAKE_NCCL_WITHOUT_ALL_GATHER)
nccl::Result ncclAllGather(const void* send, void* recv, std::size_t count, nccl::DataType type,
                           nccl::CommHandle comm, CUstream_st* stream) {
  note("ncclAllGather comm " + std::to_string(comm_index(comm)) + " send " + pointer(send) + " recv " + pointer(recv) +
       " count " + std::to_string(count) + " type " + std::to_string(int(type)) + " stream " + pointer(stream));
  return result();
}
#endif

nccl::Result ncclGroupStart() {
  note("ncclGroupStart");
  return result();
}

nccl::Result ncclGroupEnd() {
  note("ncclGroupEnd");
  return result();
}

}  // extern "C"
