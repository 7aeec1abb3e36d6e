// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// cute_cpp._ops' state-space ops: Mamba-2's SSD chunked scan (prefill) and selective state update
// (decode) on DLPack arrays, through libcute_cpp_ssm's C entry points (kernels/ssm/capi.cu). The
// checks here are what the C entry points cannot see (dtypes, ranks, strides, devices: ops_checks.hpp);
// the plan's sizes (head dim 64, state 128) are the C entry points' rule ssm.plan.
#include <nanobind/nanobind.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>

#include "ops_checks.hpp"
#include "workspace.hpp"

#include <cute_cpp_ssm.h>

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace cute_cpp::python::ops {
namespace {

/// The activations of one call: x (T, H, P), dt (T, H), B and C (T, G, N), bf16, each token's row
/// contiguous (any token stride, B's and C's the same), and the per-head f32 vectors (H,).
struct ScanInputs {
  std::size_t tokens = 0, heads = 0, head_dim = 0, groups = 0, state = 0;
  long long x_stride = 0, dt_stride = 0, bc_stride = 0;
};

ScanInputs check_scan_inputs(AnyArray const& x, AnyArray const& dt, AnyArray const& a_log, AnyArray const& b,
                             AnyArray const& c, AnyArray const& d, AnyArray const& dt_bias) {
  check_dtypes({{"x", &x}, {"dt", &dt}, {"B", &b}, {"C", &c}}, {Dtype::bf16});
  check_dtypes({{"A_log", &a_log}, {"D", &d}, {"dt_bias", &dt_bias}}, {Dtype::f32});
  check_rank("x", x, 3, "(tokens, heads, head_dim)");
  check_rank("B", b, 3, "(tokens, groups, state)");
  ScanInputs s{x.shape(0), x.shape(1), x.shape(2), b.shape(1), b.shape(2)};
  check_shape("dt", dt, {s.tokens, s.heads}, "x's tokens and heads");
  check_shape("C", c, {s.tokens, s.groups, s.state}, "B's");
  for (auto const& [name, v] : {std::pair{"A_log", &a_log}, {"D", &d}, {"dt_bias", &dt_bias}}) {
    check_shape(name, *v, {s.heads}, "one a head");
    if (!packed_vector(*v)) fail("ops.layout", std::string(name) + " must be contiguous");
  }
  // Each token's row is one contiguous block; the kernels step over tokens by a stride.
  auto const row_packed = [](AnyArray const& a, std::size_t inner) {  // dims 1, 2 one contiguous block
    return (a.shape(2) <= 1 || a.stride(2) == 1) && (a.shape(1) <= 1 || a.stride(1) == std::int64_t(inner));
  };
  bool const x_rows = row_packed(x, s.head_dim);
  bool const bc_rows = row_packed(b, s.state) && row_packed(c, s.state) &&
                       (s.tokens <= 1 || c.stride(0) == b.stride(0));
  bool const rows = x_rows && bc_rows && (dt.shape(1) <= 1 || dt.stride(1) == 1);
  if (!rows)
    fail("ops.layout", "x, dt, B and C must hold each token's row contiguously (any token stride), B and C at the "
                       "same stride");
  s.x_stride = s.tokens > 1 ? x.stride(0) : std::int64_t(s.heads * s.head_dim);
  s.dt_stride = s.tokens > 1 ? dt.stride(0) : std::int64_t(s.heads);
  s.bc_stride = s.tokens > 1 ? b.stride(0) : std::int64_t(s.groups * s.state);
  return s;
}

/// An f32 state array (slots, H, P, N), contiguous.
void check_states(char const* name, AnyArray const& a, ScanInputs const& s) {
  check_dtypes({{name, &a}}, {Dtype::f32});
  check_rank(name, a, 4, "(slots, heads, head_dim, state)");
  check_extent(name, a, 1, s.heads, "heads");
  check_extent(name, a, 2, s.head_dim, "head_dim");
  check_extent(name, a, 3, s.state, "state");
  if (!row_major(a)) fail("ops.layout", std::string(name) + " must be contiguous");
}

/// An int32 vector of `count`, contiguous.
void check_indices(char const* name, AnyArray const& a, std::size_t count, char const* meaning) {
  check_dtypes({{name, &a}}, {Dtype::i32});
  check_shape(name, a, {count}, meaning);
  if (!packed_vector(a)) fail("ops.layout", std::string(name) + " must be contiguous");
}

/// A given y: bf16 (tokens, heads, head_dim), contiguous.
void check_output(AnyArray const& out, ScanInputs const& s) {
  check_dtypes({{"out", &out}}, {Dtype::bf16});
  check_shape("out", out, {s.tokens, s.heads, s.head_dim}, "x's");
  if (!row_major(out)) fail("ops.layout", "out must be contiguous");
}

void const* data_or_null(std::optional<AnyArray> const& a) { return a ? a->data() : nullptr; }

nb::dlpack::dtype const bf16_dtype{std::uint8_t(nb::dlpack::dtype_code::Bfloat), 16, 1};
nb::dlpack::dtype const f32_dtype{std::uint8_t(nb::dlpack::dtype_code::Float), 32, 1};

/// (y, final_states): Mamba-2's SSD scan over the sequences cu_seqlens delimits (see ops.py).
nb::object ssd_prefill(AnyArray x, AnyArray dt, AnyArray a_log, AnyArray b, AnyArray c, AnyArray d, AnyArray dt_bias,
                       AnyArray cu_seqlens, std::optional<AnyArray> initial_states,
                       std::optional<AnyArray> final_states, std::optional<AnyArray> state_slots, float dt_lo,
                       float dt_hi, std::optional<AnyArray> out, std::string const& framework, std::uintptr_t stream) {
  ScanInputs const s = check_scan_inputs(x, dt, a_log, b, c, d, dt_bias);
  check_rank("cu_seqlens", cu_seqlens, 1, "(sequences + 1,)");
  if (cu_seqlens.shape(0) < 2) fail("ops.shape", "cu_seqlens holds sequences + 1 >= 2 offsets");
  std::size_t const seqs = cu_seqlens.shape(0) - 1;
  check_indices("cu_seqlens", cu_seqlens, seqs + 1, "sequences + 1 offsets");
  if (initial_states) check_states("initial_states", *initial_states, s);
  if (final_states) check_states("final_states", *final_states, s);
  if (s.tokens == 0) fail("ops.shape", "x has no tokens");
  if (state_slots) {
    check_indices("state_slots", *state_slots, seqs, "a slot a sequence");
    if (!final_states) fail("ops.shape", "state_slots name slots of final_states: give final_states with them");
  } else if ((initial_states && initial_states->shape(0) < seqs) || (final_states && final_states->shape(0) < seqs)) {
    fail("ops.shape", "without state_slots, sequence s uses slot s: the states need a slot a sequence");
  }
  if (out) check_output(*out, s);
  std::vector<std::pair<char const*, AnyArray const*>> arrays{{"x", &x}, {"dt", &dt}, {"A_log", &a_log}, {"B", &b},
                                                              {"C", &c}, {"D", &d}, {"dt_bias", &dt_bias},
                                                              {"cu_seqlens", &cu_seqlens}};
  for (auto const& [name, a] : {std::pair{"initial_states", &initial_states}, {"final_states", &final_states},
                                {"state_slots", &state_slots}, {"out", &out}})
    if (*a) arrays.push_back({name, &**a});
  int const device = check_devices(arrays);
  nb::object finals = final_states ? final_states->object()
                                   : new_array({seqs, s.heads, s.head_dim, s.state}, f32_dtype, device, framework);
  AnyArray const f = final_states ? *final_states : nb::cast<AnyArray>(finals);
  unsigned long long bytes = 0;
  char message[1024] = "";
  check_status(cute_cpp_ssd_workspace_bytes((long long)s.tokens, int(seqs), int(s.heads), int(s.groups),
                                            int(s.head_dim), int(s.state), &bytes, message, sizeof message),
               message);
  // use 3: the scan's intermediates, written by every call (nothing left for the next).
  auto const [workspace, workspace_bytes] = StreamWorkspaces::process().get(device, stream, std::size_t(bytes), 3);
  nb::object y = write_output(out, {s.tokens, s.heads, s.head_dim}, bf16_dtype, device, framework,
                              [&](AnyArray const& o, char* text, unsigned long size) {
                                return cute_cpp_ssd_prefill(
                                    x.data(), s.x_stride, dt.data(), s.dt_stride, b.data(), c.data(), s.bc_stride,
                                    static_cast<float const*>(dt_bias.data()), static_cast<float const*>(a_log.data()),
                                    static_cast<float const*>(d.data()), o.data(), int(s.heads), int(s.groups),
                                    int(s.head_dim), int(s.state), int(s.tokens), int(seqs),
                                    static_cast<int const*>(cu_seqlens.data()),
                                    static_cast<float const*>(data_or_null(initial_states)),
                                    static_cast<float*>(f.data()), static_cast<int const*>(data_or_null(state_slots)),
                                    dt_lo, dt_hi, workspace, workspace_bytes, reinterpret_cast<void*>(stream), text,
                                    size);
                              });
  return nb::make_tuple(y, finals);
}

/// y: one decode step of the scan for each row, its state updated in place (see ops.py).
nb::object ssm_state_update(AnyArray x, AnyArray dt, AnyArray a_log, AnyArray b, AnyArray c, AnyArray d,
                            AnyArray dt_bias, AnyArray states, std::optional<AnyArray> state_slots, float dt_lo,
                            float dt_hi, std::optional<AnyArray> out, std::string const& framework,
                            std::uintptr_t stream) {
  ScanInputs const s = check_scan_inputs(x, dt, a_log, b, c, d, dt_bias);
  check_states("states", states, s);
  if (state_slots) check_indices("state_slots", *state_slots, s.tokens, "a slot a row (negative: padding)");
  else if (states.shape(0) < s.tokens)
    fail("ops.shape", "without state_slots, row r uses slot r: states needs a slot a row");
  if (out) check_output(*out, s);
  std::vector<std::pair<char const*, AnyArray const*>> arrays{{"x", &x}, {"dt", &dt}, {"A_log", &a_log}, {"B", &b},
                                                              {"C", &c}, {"D", &d}, {"dt_bias", &dt_bias},
                                                              {"states", &states}};
  if (state_slots) arrays.push_back({"state_slots", &*state_slots});
  if (out) arrays.push_back({"out", &*out});
  int const device = check_devices(arrays);
  return write_output(out, {s.tokens, s.heads, s.head_dim}, bf16_dtype, device, framework,
                      [&](AnyArray const& o, char* text, unsigned long size) {
                        return cute_cpp_ssm_state_update(
                            x.data(), s.x_stride, dt.data(), s.dt_stride, b.data(), c.data(), s.bc_stride,
                            static_cast<float const*>(dt_bias.data()), static_cast<float const*>(a_log.data()),
                            static_cast<float const*>(d.data()), static_cast<float*>(states.data()),
                            static_cast<int const*>(data_or_null(state_slots)), o.data(), int(s.heads), int(s.groups),
                            int(s.head_dim), int(s.state), int(s.tokens), dt_lo, dt_hi, reinterpret_cast<void*>(stream),
                            text, size);
                      });
}

}  // namespace

void add_ssm_ops(nb::module_& m) {
  m.def("ssd_prefill", &ssd_prefill, "x"_a, "dt"_a, "A_log"_a, "B"_a, "C"_a, "D"_a, "dt_bias"_a, "cu_seqlens"_a,
        "initial_states"_a.none(), "final_states"_a.none(), "state_slots"_a.none(), "dt_lo"_a, "dt_hi"_a,
        "out"_a.none(), "framework"_a, "stream"_a,
        "(y, final_states): Mamba-2's SSD chunked scan over varlen sequences (bf16 activations, f32 states).");
  m.def("ssm_state_update", &ssm_state_update, "x"_a, "dt"_a, "A_log"_a, "B"_a, "C"_a, "D"_a, "dt_bias"_a,
        "states"_a, "state_slots"_a.none(), "dt_lo"_a, "dt_hi"_a, "out"_a.none(), "framework"_a, "stream"_a,
        "y: one decode step of Mamba-2's scan a row, the f32 states updated in place.");
}

}  // namespace cute_cpp::python::ops
