// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// cute_cpp._ops' MoE ops: the whole mixture-of-experts block (router, top-k, experts on the grouped
// GEMM, shared expert, combine) and the packing of gate and up weights its SwiGLU experts read,
// through libcute_cpp_moe's C entry points (kernels/moe/capi.cu). The checks here are what those
// cannot see (dtypes, ranks, strides, devices: ops_checks.hpp); the block's own rules (moe.shape,
// moe.routing, moe.pointers, moe.scratch) are theirs.
#include <nanobind/nanobind.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>

#include "ops_checks.hpp"
#include "workspace.hpp"

#include <cute_cpp_moe.h>

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace cute_cpp::python::ops {
namespace {

nb::dlpack::dtype const bf16_dtype{std::uint8_t(nb::dlpack::dtype_code::Bfloat), 16, 1};

/// A bf16 array of `shape`, contiguous.
void check_weight(char const* name, AnyArray const& a, std::vector<std::size_t> const& shape, char const* meaning) {
  check_dtypes({{name, &a}}, {Dtype::bf16});
  check_shape(name, a, shape, meaning);
  if (!row_major(a)) fail("ops.layout", std::string(name) + " must be contiguous");
}

/// y (T, H): the MoE block of x (see ops.py's moe for the arguments).
nb::object moe(AnyArray x, AnyArray router, AnyArray experts_up, AnyArray down, int top_k, bool renormalize,
               std::string const& routing, std::string const& activation, float routed_scaling, int groups,
               int top_groups, std::optional<AnyArray> correction_bias, std::optional<AnyArray> shared_up,
               std::optional<AnyArray> shared_down, std::optional<AnyArray> out, std::string const& framework,
               std::uintptr_t stream) {
  if (routing != "softmax" && routing != "sigmoid") fail("ops.routing", "routing is \"softmax\" or \"sigmoid\"");
  if (activation != "swiglu" && activation != "relu2") fail("ops.activation", "activation is \"swiglu\" or \"relu2\"");
  bool const gated = activation == "swiglu";
  check_rank("x", x, 2, "(tokens, hidden)");
  check_rank("down", down, 3, "(experts, hidden, ffn)");
  std::size_t const tokens = x.shape(0), hidden = x.shape(1), experts = down.shape(0), ffn = down.shape(2);
  check_weight("x", x, {tokens, hidden}, "(tokens, hidden)");
  check_weight("router", router, {experts, hidden}, "(experts, hidden)");
  check_weight("experts_up", experts_up, {experts, gated ? 2 * ffn : ffn, hidden},
               gated ? "(experts, 2 ffn, hidden), gate and up interleaved (pack_gate_up)" : "(experts, ffn, hidden)");
  check_weight("down", down, {experts, hidden, ffn}, "(experts, hidden, ffn)");
  if (shared_up.has_value() != shared_down.has_value())
    fail("ops.shape", "shared_up and shared_down go together (a shared expert) or are both None");
  std::size_t shared_ffn = 0;
  if (shared_down) {
    check_rank("shared_down", *shared_down, 2, "(hidden, shared ffn)");
    shared_ffn = shared_down->shape(1);
    check_weight("shared_down", *shared_down, {hidden, shared_ffn}, "(hidden, shared ffn)");
    check_weight("shared_up", *shared_up, {gated ? 2 * shared_ffn : shared_ffn, hidden},
                 gated ? "(2 shared ffn, hidden), interleaved" : "(shared ffn, hidden)");
  }
  if (correction_bias) {
    check_dtypes({{"correction_bias", &*correction_bias}}, {Dtype::f32});
    check_shape("correction_bias", *correction_bias, {experts}, "one an expert");
    if (!packed_vector(*correction_bias)) fail("ops.layout", "correction_bias must be contiguous");
  }
  if (out) check_weight("out", *out, {tokens, hidden}, "x's");
  std::vector<std::pair<char const*, AnyArray const*>> arrays{
      {"x", &x}, {"router", &router}, {"experts_up", &experts_up}, {"down", &down}};
  for (auto const& [name, a] : {std::pair{"correction_bias", &correction_bias}, {"shared_up", &shared_up},
                                {"shared_down", &shared_down}, {"out", &out}})
    if (*a) arrays.push_back({name, &**a});
  int const device = check_devices(arrays);
  int const routing_code = routing == "softmax" ? 0 : 1, activation_code = gated ? 0 : 1;
  unsigned long long bytes = 0;
  char message[1024] = "";
  check_status(cute_cpp_moe_scratch_bytes((long long)tokens, (long long)hidden, (long long)ffn, int(experts), top_k,
                                          renormalize, routing_code, activation_code, routed_scaling, groups,
                                          top_groups, (long long)shared_ffn, &bytes, message, sizeof message),
               message);
  // use 2: the block's scratch, its dense GEMMs' partials left zeroed and the rest written each call
  // (kept from the GEMMs' workspace, whose every byte must stay zero between calls).
  auto const [scratch, scratch_bytes] = StreamWorkspaces::process().get(device, stream, std::size_t(bytes), 2);
  auto const data = [](std::optional<AnyArray> const& a) { return a ? a->data() : nullptr; };
  return write_output(out, {tokens, hidden}, bf16_dtype, device, framework,
                      [&](AnyArray const& o, char* text, unsigned long size) {
                        return cute_cpp_moe_layer(
                            x.data(), o.data(), (long long)tokens, (long long)hidden, (long long)ffn, int(experts),
                            top_k, renormalize, routing_code, activation_code, routed_scaling, groups, top_groups,
                            (long long)shared_ffn, router.data(), gated ? experts_up.data() : nullptr,
                            gated ? nullptr : experts_up.data(), down.data(),
                            static_cast<float const*>(data(correction_bias)), data(shared_up), data(shared_down),
                            scratch, scratch_bytes, reinterpret_cast<void*>(stream), text, size);
                      });
}

/// (E, 2F, H) gate-up from gate and up (E, F, H) (or (F, H) each: (2F, H)).
nb::object pack_gate_up(AnyArray gate, AnyArray up, std::optional<AnyArray> out, std::string const& framework,
                        std::uintptr_t stream) {
  if (gate.ndim() != 2 && gate.ndim() != 3) check_rank("gate", gate, 3, "(experts, ffn, hidden) or (ffn, hidden)");
  bool const stacked = gate.ndim() == 3;
  std::size_t const count = stacked ? gate.shape(0) : 1, ffn = gate.shape(stacked ? 1 : 0),
                    hidden = gate.shape(stacked ? 2 : 1);
  std::vector<std::size_t> const in = stacked ? std::vector<std::size_t>{count, ffn, hidden}
                                              : std::vector<std::size_t>{ffn, hidden};
  std::vector<std::size_t> const packed = stacked ? std::vector<std::size_t>{count, 2 * ffn, hidden}
                                                  : std::vector<std::size_t>{2 * ffn, hidden};
  check_weight("gate", gate, in, "the gate weight's");
  check_weight("up", up, in, "gate's");
  if (out) check_weight("out", *out, packed, "(experts, 2 ffn, hidden)");
  std::vector<std::pair<char const*, AnyArray const*>> arrays{{"gate", &gate}, {"up", &up}};
  if (out) arrays.push_back({"out", &*out});
  int const device = check_devices(arrays);
  return write_output(out, packed, bf16_dtype, device, framework,
                      [&](AnyArray const& o, char* text, unsigned long size) {
                        return cute_cpp_pack_gate_up(gate.data(), up.data(), o.data(), (long long)count,
                                                     (long long)ffn, (long long)hidden,
                                                     reinterpret_cast<void*>(stream), text, size);
                      });
}

}  // namespace

void add_moe_ops(nb::module_& m) {
  m.def("moe", &moe, "x"_a, "router"_a, "experts_up"_a, "down"_a, "top_k"_a, "renormalize"_a, "routing"_a,
        "activation"_a, "routed_scaling"_a, "groups"_a, "top_groups"_a, "correction_bias"_a.none(),
        "shared_up"_a.none(), "shared_down"_a.none(), "out"_a.none(), "framework"_a, "stream"_a,
        "y: the mixture-of-experts block of x (bf16): router, top-k, experts, shared expert, combine.");
  m.def("pack_gate_up", &pack_gate_up, "gate"_a, "up"_a, "out"_a.none(), "framework"_a, "stream"_a,
        "gate and up weights interleaved in blocks of 8 rows, as the SwiGLU experts read them (bf16).");
}

}  // namespace cute_cpp::python::ops
