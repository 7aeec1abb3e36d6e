// The arithmetic families compile and assemble on every target: shuffles, integer redux,
// atomics and reductions, conversions, mma.sync (f16, bf16, tf32, fp8).
// cute-cpp-archs: 90a 100a 120a
#include <ctm/common/cvt.hpp>
#include <ctm/common/ld_st.hpp>
#include <ctm/common/math.hpp>
#include <ctm/common/mma_sync.hpp>
#include <ctm/common/red.hpp>
#include <ctm/common/shfl.hpp>

__global__ void warp_kernel(std::uint32_t* out, float* fout) {
  std::uint32_t v = threadIdx.x;
  out[0] = ctm::shfl_sync_idx_b32(v, 0) + ctm::shfl_sync_up_b32(v, 1) + ctm::shfl_sync_down_b32(v, 1) +
           ctm::shfl_sync_bfly_b32(v, 16, 0x1f, 0xffffffffu);
  fout[0] = ctm::shfl_sync_idx_b32(1.0f * v, 3) + ctm::shfl_sync_up_b32(1.0f, 1) +
            ctm::shfl_sync_down_b32(2.0f, 2) + ctm::shfl_sync_bfly_b32(3.0f, 4);
  out[1] = ctm::redux_sync_add_u32(v) + ctm::redux_sync_min_u32(v) + ctm::redux_sync_max_u32(v) +
           ctm::redux_sync_and_b32(v) + ctm::redux_sync_or_b32(v) + ctm::redux_sync_xor_b32(v) +
           ctm::redux_sync_add_s32(-1) + ctm::redux_sync_min_s32(-2) + ctm::redux_sync_max_s32(-3);
  out[2] = ctm::vote_sync_ballot_b32(v > 3) + ctm::vote_sync_any_pred(v > 30) + ctm::vote_sync_all_pred(v < 32) +
           ctm::popc_b32(v) + ctm::ex2_approx_f16x2(v);
  fout[1] = ctm::ex2_approx_ftz_f32(fout[2]) + ctm::ex2_approx_f32(fout[3]) + ctm::lg2_approx_ftz_f32(fout[4]) +
            ctm::rcp_approx_ftz_f32(fout[5]) + ctm::tanh_approx_f32(fout[6]) + ctm::max_NaN_f32(fout[7], 1.f) +
            ctm::min_NaN_f32(fout[8], 1.f);
}

__global__ void atomic_kernel(float* f, std::uint32_t* u, std::int32_t* s, std::uint32_t* out) {
  __shared__ float sf;
  ctm::red_global_add_f32(f, 1.0f);
  ctm::red_global_v2_f32_add(f + 2, 1.0f, 2.0f);
  ctm::red_global_add_noftz_f16x2(u, 0x3c003c00u);
  ctm::red_global_add_noftz_bf16x2(u + 1, 0x3f803f80u);
  ctm::red_global_min_noftz_v2_f16x2(u + 2, 0u, 0u);
  ctm::red_global_max_noftz_v2_f16x2(u + 4, 0u, 0u);
  ctm::red_global_min_noftz_v2_bf16x2(u + 6, 0u, 0u);
  ctm::red_global_max_noftz_v2_bf16x2(u + 8, 0u, 0u);
  ctm::red_global_add_u32(u + 10, 1u);
  ctm::red_global_min_u32(u + 11, 1u);
  ctm::red_global_max_u32(u + 12, 1u);
  ctm::red_global_min_s32(s, -1);
  ctm::red_global_max_s32(s + 1, -1);
  out[0] = static_cast<std::uint32_t>(ctm::atom_global_add_f32(f + 4, 1.0f)) +
           ctm::atom_global_add_noftz_f16x2(u + 13, 0u) + ctm::atom_global_add_noftz_bf16x2(u + 14, 0u) +
           ctm::atom_global_add_u32(u + 15, 1u) + ctm::atom_global_min_s32(s + 2, 1) +
           ctm::atom_global_max_s32(s + 3, 1) + ctm::atom_global_cas_b32(u + 16, 0u, 1u) +
           static_cast<std::uint32_t>(ctm::atom_shared_add_f32(&sf, 1.0f));
}

__global__ void cvt_kernel(float const* in, std::uint32_t* out) {
  float a = in[0], b = in[1];
  std::uint16_t e4 = ctm::cvt_rn_satfinite_e4m3x2_f32(a, b);
  std::uint16_t e5 = ctm::cvt_rn_satfinite_e5m2x2_f32(a, b);
  std::uint32_t h2 = ctm::cvt_rn_f16x2_f32(a, b);
  out[0] = h2 ^ ctm::cvt_rn_bf16x2_f32(a, b);
  out[1] = ctm::cvt_rn_f16x2_e4m3x2(e4) ^ ctm::cvt_rn_f16x2_e5m2x2(e5);
  out[2] = ctm::cvt_rn_satfinite_e4m3x2_f16x2(h2) ^ ctm::cvt_rn_satfinite_e5m2x2_f16x2(h2);
  out[3] = ctm::cvt_rn_f16_f32(a) ^ ctm::cvt_rn_bf16_f32(b) ^ ctm::cvt_rna_tf32_f32(a);
  out[4] = static_cast<std::uint32_t>(ctm::cvt_f32_f16(0x3c00) + ctm::cvt_f32_bf16(0x3f80));
}

__global__ void mma_kernel(std::uint32_t const* in, float* out, std::uint32_t* hout) {
  std::uint32_t a[4] = {in[0], in[1], in[2], in[3]};
  std::uint32_t a2[2] = {in[0], in[1]};
  std::uint32_t b[2] = {in[4], in[5]};
  std::uint32_t b1[1] = {in[4]};
  float c[4] = {0, 0, 0, 0}, d[4];
  std::uint32_t hc[2] = {0, 0}, hd[2];
  ctm::mma_m16n8k16_row_col_f32_f16_f16_f32(d, a, b, c);
  ctm::mma_m16n8k8_row_col_f32_f16_f16_f32(c, a2, b1, d);
  ctm::mma_m16n8k16_row_col_f16_f16_f16_f16(hd, a, b, hc);
  ctm::mma_m16n8k16_row_col_f32_bf16_bf16_f32(d, a, b, c);
  ctm::mma_m16n8k8_row_col_f32_bf16_bf16_f32(c, a2, b1, d);
  ctm::mma_m16n8k8_row_col_f32_tf32_tf32_f32(d, a, b, c);
  ctm::mma_m16n8k4_row_col_f32_tf32_tf32_f32(c, a2, b1, d);
  ctm::mma_m16n8k32_row_col_f32_e4m3_e4m3_f32(d, a, b, c);
  ctm::mma_m16n8k32_row_col_f32_e4m3_e5m2_f32(c, a, b, d);
  ctm::mma_m16n8k32_row_col_f32_e5m2_e4m3_f32(d, a, b, c);
  ctm::mma_m16n8k32_row_col_f32_e5m2_e5m2_f32(c, a, b, d);
  ctm::mma_m16n8k32_row_col_f16_e4m3_e4m3_f16(hc, a, b, hd);
  ctm::mma_m16n8k16_row_col_f32_e4m3_e5m2_f32(d, a2, b1, c);
  ctm::mma_m16n8k16_row_col_f16_e5m2_e5m2_f16(hd, a2, b1, hc);
  std::int32_t ic[4] = {0, 0, 0, 0}, id[4];
  ctm::mma_m16n8k32_row_col_s32_s8_s8_s32(id, a, b, ic);
  ctm::mma_m16n8k32_row_col_satfinite_s32_u8_s8_s32(ic, a, b, id);
  ctm::mma_m16n8k16_row_col_s32_s8_u8_s32(id, a2, b1, ic);
  for (int i = 0; i < 4; ++i) out[i] = d[i];
  hout[0] = hd[0] ^ hd[1] ^ static_cast<std::uint32_t>(id[0]);
}

__global__ void ordered_kernel(std::uint32_t* flags, std::uint32_t* out) {
  std::uint32_t v = ctm::ld_acquire_gpu_global_b32(flags) + ctm::ld_relaxed_gpu_global_b32(flags + 1) +
                    ctm::ld_acquire_sys_global_b32(flags + 2);
  ctm::st_release_gpu_global_b32(flags + 3, v);
  ctm::st_relaxed_gpu_global_b32(flags + 4, v);
  ctm::st_release_sys_global_b32(flags + 5, v);
  v += ctm::atom_release_gpu_global_add_u32(flags + 6, 1u) + ctm::atom_acq_rel_gpu_global_add_u32(flags + 7, 1u) +
       ctm::atom_acquire_gpu_global_cas_b32(flags + 8, 0u, 1u) + ctm::atom_release_gpu_global_exch_b32(flags + 8, 0u);
  std::uint64_t* const count = reinterpret_cast<std::uint64_t*>(flags + 10);
  v += std::uint32_t(ctm::atom_release_gpu_global_add_u64(count, 1ull) + ctm::ld_acquire_gpu_global_b64(count));
  ctm::nanosleep_u32(100);
  out[0] = v;
}
