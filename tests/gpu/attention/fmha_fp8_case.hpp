// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// The FP8 attention forward's check (fmha_fp8_check), its GPU half: a case's quantized data
// uploaded, O and the LSE poisoned, run_attention_fp8, and check_case, which compares every
// element with the reference (fmha_fp8_reference.hpp, which says how the tolerance is made).
#pragma once
#include <cute_cpp/kernels/attention/prefill/fmha_fp8.hpp>
#include "tests/gpu/attention/fmha_fp8_reference.hpp"

#include <cute_cpp/host/buffer.hpp>

#include <algorithm>
#include <cstdint>
#include <random>
#include <span>
#include <vector>

namespace cute_cpp::test::fmha_fp8 {

/// Uploads a case's quantized data and offsets, poisons O and the LSE (NaN), runs run_attention_fp8.
inline Outputs launch(Fp8Case const& fc, Quantized const& q, Quantized const& k, Quantized const& v,
                      std::vector<int> const& off_q, std::vector<int> const& off_k, std::int64_t rows_q,
                      std::int64_t rows_k) {
  Case const& c = fc.shape;
  bool const varlen = !c.lens_q.empty();
  host::DeviceBuffer<__nv_fp8_e4m3> dq(q.bytes.size()), dk(k.bytes.size()), dv(v.bytes.size());
  host::DeviceBuffer<__nv_bfloat16> dout(std::size_t(rows_q * c.heads_q * c.dv));
  host::DeviceBuffer<float> dlse(std::size_t(rows_q * c.heads_q)), dqs(q.descale.size()), dks(k.descale.size()),
      dvs(v.descale.size());
  host::DeviceBuffer<std::int32_t> dcu_q(off_q.size()), dcu_k(off_k.size());
  dq.upload(std::span<__nv_fp8_e4m3 const>(q.bytes));
  dk.upload(std::span<__nv_fp8_e4m3 const>(k.bytes));
  dv.upload(std::span<__nv_fp8_e4m3 const>(v.bytes));
  dqs.upload(std::span<float const>(q.descale));
  dks.upload(std::span<float const>(k.descale));
  dvs.upload(std::span<float const>(v.descale));
  dcu_q.upload(std::span<int const>(off_q));
  dcu_k.upload(std::span<int const>(off_k));
  dout.fill_bytes(0xFF);  // NaN
  dlse.fill_bytes(0xFF);

  kn::FmhaFp8Arguments a;
  a.q = dq.data();
  a.k = dk.data();
  a.v = dv.data();
  a.o = dout.data();
  a.lse = dlse.data();
  if (fc.descales) {
    a.q_descale = dqs.data();
    a.k_descale = dks.data();
    a.v_descale = dvs.data();
  }
  a.descale_layout = fc.layout;
  a.batch = c.batch;
  a.seq_q = varlen ? *std::max_element(c.lens_q.begin(), c.lens_q.end()) : c.seq_q;
  a.seq_k = varlen ? *std::max_element(c.lens_k.begin(), c.lens_k.end()) : c.seq_k;
  a.heads_q = c.heads_q;
  a.heads_kv = c.heads_kv;
  a.head_dim = c.d;
  a.head_dim_v = c.dv;
  a.causal = c.causal;
  a.window_left = c.window_left;
  a.window_right = c.window_right;
  if (varlen) {
    a.cu_seqlens_q = dcu_q.data();
    a.cu_seqlens_k = dcu_k.data();
    a.total_q = rows_q;
    a.total_k = rows_k;
    a.cu_seqlens_q_host = off_q.data();
    a.cu_seqlens_k_host = off_k.data();
  }
  kn::run_attention_fp8(a, nullptr);
  host::cuda_check(cudaDeviceSynchronize(), "fmha_fp8_check");
  return {dout.download(), dlse.download()};
}

/// Runs one case through run_attention_fp8 on fresh random data with NaN-poisoned O and LSE, and
/// checks every element (fmha_fp8_reference.hpp says how the tolerance is made).
inline bool check_case(Fp8Case const& fc, std::mt19937_64& rng) {
  CaseData const data = make_case_data(fc, rng);
  Outputs const out = launch(fc, data.q, data.k, data.v, data.off_q, data.off_k, data.rows_q, data.rows_k);
  return compare(fc, out, reference_of(fc, data, out));
}

}  // namespace cute_cpp::test::fmha_fp8
