// SPDX-License-Identifier: Apache-2.0
// models/common/nccl without a GPU: NCCL's types and the collectives' dtype mapping; NcclLibrary's
// errors for a missing file, a file that is not a library, a library that is not a whole NCCL and an
// NCCL too old (tp.nccl); the real libnccl.so.2 where this machine has one; and Communicators over a
// stand-in library (fake_nccl.cpp, FAKE_NCCL / FAKE_NCCL_PARTIAL) that records what each call passes.
#include <dlfcn.h>

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include "models/common/nccl.hpp"
#include "tests/cpu/models/st_writer.hpp"  // expect_load_error

namespace cm = cute_cpp::models;
using cute_cpp::test::expect_load_error;

namespace {

/// The stand-in's own functions (fake_nccl_calls, ...), from the copy NcclLibrary loaded.
template <class F>
F fake(const char* name) {
  void* const handle = dlopen(FAKE_NCCL, RTLD_NOW | RTLD_LOCAL);
  EXPECT_NE(handle, nullptr) << dlerror();
  return reinterpret_cast<F>(dlsym(handle, name));
}
std::string fake_calls() { return fake<const char* (*)()>("fake_nccl_calls")(); }
void fake_reset() { fake<void (*)()>("fake_nccl_reset")(); }
void fake_fail_next(cm::nccl::Result r) { fake<void (*)(int)>("fake_nccl_fail_next")(int(r)); }

CUstream_st* stream_at(std::uintptr_t address) { return reinterpret_cast<CUstream_st*>(address); }

std::string pointer(const void* p) {
  char text[32];
  std::snprintf(text, sizeof text, "%p", p);
  return text;
}

}  // namespace

// ---- types ----

TEST(Nccl, TypesHaveNcclHsValues) {
  EXPECT_EQ(int(cm::nccl::DataType::bfloat16), 9);
  EXPECT_EQ(int(cm::nccl::DataType::float32), 7);
  EXPECT_EQ(int(cm::nccl::DataType::float16), 6);
  EXPECT_EQ(int(cm::nccl::RedOp::sum), 0);
  EXPECT_EQ(int(cm::nccl::Result::invalid_argument), 4);
  EXPECT_EQ(cm::nccl::result_name(cm::nccl::Result::success), "ncclSuccess");
  EXPECT_EQ(cm::nccl::result_name(cm::nccl::Result::unhandled_cuda_error), "ncclUnhandledCudaError");
  EXPECT_EQ(cm::nccl::result_name(cm::nccl::Result(42)), "ncclResult 42");
  EXPECT_EQ(cm::nccl::version_code(2, 8, 4), 2804);
  EXPECT_EQ(cm::nccl::version_code(2, 10, 3), 21003);
  EXPECT_EQ(cm::nccl::version_code(2, 28, 9), 22809);
}

TEST(Nccl, TheCollectivesTakeBf16AndF32) {
  EXPECT_EQ(cm::nccl_data_type(cm::Dtype::BF16), cm::nccl::DataType::bfloat16);
  EXPECT_EQ(cm::nccl_data_type(cm::Dtype::F32), cm::nccl::DataType::float32);
  EXPECT_EQ(cm::nccl_element_bytes(cm::nccl::DataType::bfloat16), 2u);
  EXPECT_EQ(cm::nccl_element_bytes(cm::nccl::DataType::float32), 4u);
  EXPECT_EQ(cm::nccl_element_bytes(cm::nccl::DataType::float16), 2u);
  for (cm::Dtype d : {cm::Dtype::F16, cm::Dtype::F8_E4M3, cm::Dtype::I32, cm::Dtype::F64})
    expect_load_error([d] { (void)cm::nccl_data_type(d); }, "[tp.nccl-dtype]",
                      "a buffer of " + std::string(cm::dtype_name(d)));
}

// ---- loading ----

TEST(Nccl, AMissingLibraryNamesWhereItLookedAndHowToPointAtIt) {
  std::string const missing = (std::filesystem::temp_directory_path() / "no-such-dir/libnccl.so.2").string();
  expect_load_error([&] { (void)cm::NcclLibrary::load(missing.c_str()); }, "[tp.nccl]",
                    "CUTE_CPP_NCCL=\"" + missing + "\" (the only place tried while it is set) does not load: ");
  expect_load_error([&] { (void)cm::NcclLibrary::load(missing.c_str()); }, "[tp.nccl]", "No such file");
  expect_load_error([&] { (void)cm::NcclLibrary::load(missing.c_str()); }, "[tp.nccl]",
                    "set CUTE_CPP_NCCL to the path of libnccl.so.2 (pip's nvidia-nccl-cu12 or nvidia-nccl-cu13, which "
                    "torch installs, puts it at <site-packages>/nvidia/nccl/lib/libnccl.so.2)");
  // load() reads the variable itself.
  const char* const before = std::getenv("CUTE_CPP_NCCL");
  std::string const saved = before != nullptr ? before : "";
  setenv("CUTE_CPP_NCCL", missing.c_str(), 1);
  expect_load_error([] { (void)cm::NcclLibrary::load(); }, "[tp.nccl]", "CUTE_CPP_NCCL=\"" + missing + "\"");
  if (before != nullptr) {
    setenv("CUTE_CPP_NCCL", saved.c_str(), 1);
  } else {
    unsetenv("CUTE_CPP_NCCL");
  }
}

TEST(Nccl, AFileThatIsNotNcclIsRefusedNamingWhatIsMissing) {
  auto const text = std::filesystem::temp_directory_path() / "cute-cpp-nccl-test-not-a-library.so";
  std::ofstream(text) << "not a shared library\n";
  expect_load_error([&] { (void)cm::NcclLibrary::load(text.c_str()); }, "[tp.nccl]",
                    "CUTE_CPP_NCCL=\"" + text.string() + "\"");
  std::filesystem::remove(text);
  expect_load_error([] { (void)cm::NcclLibrary::load(FAKE_NCCL_PARTIAL); }, "[tp.nccl]",
                    "\"" FAKE_NCCL_PARTIAL "\" has no ncclAllGather: it is not NCCL; set CUTE_CPP_NCCL");
  // libm: a real library with none of NCCL's entry points.
  expect_load_error([] { (void)cm::NcclLibrary::load("libm.so.6"); }, "[tp.nccl]", "has no ncclGetVersion");
}

TEST(Nccl, AnNcclOlderThan2_10IsRefused) {
  fake_reset();
  fake<void (*)(int)>("fake_nccl_set_version")(2804);
  expect_load_error([] { (void)cm::NcclLibrary::load(FAKE_NCCL); }, "[tp.nccl]",
                    "is NCCL 2.8.4: bf16 collectives need 2.10 or later");
  fake_reset();
  cm::NcclLibrary const lib = cm::NcclLibrary::load(FAKE_NCCL);
  EXPECT_EQ(lib.version(), 22809);
  EXPECT_EQ(lib.path(), FAKE_NCCL);
  EXPECT_EQ(lib.describe(cm::nccl::Result::invalid_argument), "ncclInvalidArgument (fake: invalid argument)");
}

// With CUTE_CPP_NCCL unset the soname is tried through the loader's path: where this machine has an
// NCCL, every entry point resolves and its version reads; where not, the error says what was searched.
TEST(Nccl, TheSonameThroughTheLoadersPath) {
  try {
    cm::NcclLibrary const lib = cm::NcclLibrary::load(nullptr);
    EXPECT_EQ(lib.path(), "libnccl.so.2");
    EXPECT_GE(lib.version(), cm::nccl::version_code(2, 10, 0));
    EXPECT_EQ(lib.describe(cm::nccl::Result::success).rfind("ncclSuccess (", 0), 0u);
  } catch (const cm::LoadError& e) {
    EXPECT_EQ(e.rule(), "tp.nccl");
    EXPECT_NE(std::string(e.what()).find("CUTE_CPP_NCCL is unset and \"libnccl.so.2\" is not on the loader's path"),
              std::string::npos)
        << e.what();
  }
}

// ---- Communicators over the stand-in ----

TEST(Nccl, CommunicatorsPassEachRanksCallThrough) {
  fake_reset();
  {
    cm::Communicators comms(cm::NcclLibrary::load(FAKE_NCCL), {3, 1, 2});
    EXPECT_EQ(comms.ranks(), 3);
    EXPECT_EQ(comms.device(0), 3);
    EXPECT_EQ(comms.device(2), 2);
    auto* const send = reinterpret_cast<const void*>(std::uintptr_t{0x1000});
    auto* const recv = reinterpret_cast<void*>(std::uintptr_t{0x2000});
    cm::NcclGroup group = comms.group();
    comms.all_reduce_sum(1, send, recv, 4099, cm::Dtype::BF16, stream_at(0x30));
    comms.all_gather(2, send, recv, 77, cm::Dtype::F32, stream_at(0x40));
    group.end();
    group.end();  // a second end() does nothing
    EXPECT_EQ(fake_calls(), "ncclCommInitAll 3: 3 1 2\n"
                            "ncclGroupStart\n"
                            "ncclAllReduce comm 1 send " + pointer(send) + " recv " + pointer(recv) +
                                " count 4099 type 9 op 0 stream " + pointer(stream_at(0x30)) + "\n"
                            "ncclAllGather comm 2 send " + pointer(send) + " recv " + pointer(recv) +
                                " count 77 type 7 stream " + pointer(stream_at(0x40)) + "\n"
                            "ncclGroupEnd\n");
    fake_reset();
    cm::Communicators moved = std::move(comms);
    EXPECT_EQ(comms.ranks(), 0);
    { cm::NcclGroup open = moved.group(); }  // ended by its destructor
    EXPECT_EQ(fake_calls(), "ncclGroupStart\nncclGroupEnd\n");
    fake_reset();
  }
  EXPECT_EQ(fake_calls(), "ncclCommDestroy comm 0\nncclCommDestroy comm 1\nncclCommDestroy comm 2\n");
}

TEST(Nccl, CommunicatorsRefuseBadRanksAndDtypesBeforeCallingNccl) {
  fake_reset();
  cm::Communicators comms(cm::NcclLibrary::load(FAKE_NCCL), {0, 1});
  fake_reset();
  expect_load_error([&] { comms.all_reduce_sum(2, nullptr, nullptr, 1, cm::Dtype::BF16, nullptr); }, "[tp.rank]",
                    "rank 2 is outside 0 .. 1");
  expect_load_error([&] { comms.all_gather(-1, nullptr, nullptr, 1, cm::Dtype::F32, nullptr); }, "[tp.rank]",
                    "rank -1 is outside 0 .. 1");
  expect_load_error([&] { (void)comms.device(5); }, "[tp.rank]", "rank 5");
  expect_load_error([&] { comms.all_reduce_sum(0, nullptr, nullptr, 1, cm::Dtype::F16, nullptr); },
                    "[tp.nccl-dtype]", "a buffer of F16");
  EXPECT_EQ(fake_calls(), "");
  expect_load_error([] { cm::Communicators(cm::NcclLibrary::load(FAKE_NCCL), {}); }, "[tp.ranks]",
                    "Communicators over no device");
}

TEST(Nccl, AFailedCallNamesTheCallTheRuleAndNcclsText) {
  fake_reset();
  cm::Communicators comms(cm::NcclLibrary::load(FAKE_NCCL), {0, 1});
  fake_fail_next(cm::nccl::Result::invalid_argument);
  try {
    comms.all_reduce_sum(1, nullptr, nullptr, 4099, cm::Dtype::BF16, nullptr);
    ADD_FAILURE() << "no error";
  } catch (const cm::NcclError& e) {
    EXPECT_EQ(e.result(), cm::nccl::Result::invalid_argument);
    EXPECT_STREQ(e.what(), "cute-cpp [tp.nccl-call]: ncclAllReduce(rank 1 of 2, device 1, 4099 BF16 elements) failed: "
                           "ncclInvalidArgument (fake: invalid argument)");
  }
  fake_fail_next(cm::nccl::Result::system_error);
  try {
    cm::NcclGroup never = comms.group();
    ADD_FAILURE() << "no error";
  } catch (const cm::NcclError& e) {
    EXPECT_STREQ(e.what(), "cute-cpp [tp.nccl-call]: ncclGroupStart() failed: ncclSystemError (fake: some error)");
  }
  cm::NcclGroup group = comms.group();
  fake_fail_next(cm::nccl::Result::remote_error);
  try {
    group.end();
    ADD_FAILURE() << "no error";
  } catch (const cm::NcclError& e) {
    EXPECT_STREQ(e.what(), "cute-cpp [tp.nccl-call]: ncclGroupEnd() failed: ncclRemoteError (fake: some error)");
  }
}

TEST(Nccl, AFailedInitLeavesNothingToDestroy) {
  fake_reset();
  fake_fail_next(cm::nccl::Result::unhandled_cuda_error);
  try {
    cm::Communicators comms(cm::NcclLibrary::load(FAKE_NCCL), {0, 7});
    ADD_FAILURE() << "no error";
  } catch (const cm::NcclError& e) {
    EXPECT_STREQ(e.what(), "cute-cpp [tp.nccl-call]: ncclCommInitAll(devices 0 7) failed: ncclUnhandledCudaError "
                           "(fake: some error)");
  }
  EXPECT_EQ(fake_calls(), "ncclCommInitAll 2: 0 7\n");
}
