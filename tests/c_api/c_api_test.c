/* SPDX-License-Identifier: Apache-2.0
 * The exported C entry points called from C (GEMM, attention, rows, MoE, the state-space and conv
 * families): bad arguments come back as status 1 with the rule in the message (no GPU needed: the
 * checks come before any device call), and with a GPU a bf16 GEMM of a shape that is not a
 * multiple of any tile is checked element by element against a double reference, its output
 * poisoned (NaN) beforehand, and so is a float32 softmax of rows of 1000. Exit 0 when every check
 * passes. */
#include <cute_cpp_conv.h>
#include <cute_cpp_decode.h>
#include <cute_cpp_fmha.h>
#include <cute_cpp_gemm.h>
#include <cute_cpp_moe.h>
#include <cute_cpp_reduce.h>
#include <cute_cpp_softmax.h>
#include <cute_cpp_ssm.h>

#include <cuda_runtime_api.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures = 0;

static void expect_rule(const char* what, int status, const char* message, const char* rule) {
  int const ok = status == 1 && strstr(message, rule) != NULL;
  printf("%s: %s -> %s\n", ok ? "ok  " : "FAIL", what, status == 0 ? "(no error)" : message);
  failures += !ok;
}

/* bf16 <-> float by bits (round to nearest even), so the test needs no CUDA header beyond the runtime. */
static uint16_t to_bf16(float f) {
  uint32_t u;
  memcpy(&u, &f, sizeof u);
  u += 0x7fffu + ((u >> 16) & 1u);
  return (uint16_t)(u >> 16);
}
static float from_bf16(uint16_t h) {
  uint32_t const u = (uint32_t)h << 16;
  float f;
  memcpy(&f, &u, sizeof f);
  return f;
}

static void bad_arguments(void) {
  char message[512];
  /* Alignment-valid fake device addresses: the checks reject these calls before touching them. */
  void* const a = (void*)(uintptr_t)0x10000;
  void* const b = (void*)(uintptr_t)0x20000;
  void* const c = (void*)(uintptr_t)0x30000;
  message[0] = 0;
  expect_rule("softmax with dtype 7", cute_cpp_softmax(7, a, c, 4, 64, NULL, message, sizeof message), message,
              "[softmax.dtype]");
  expect_rule("reduce with op 5", cute_cpp_reduce_rows(5, 2, a, (float*)c, 4, 64, NULL, message, sizeof message),
              message, "[reduce.op]");
  expect_rule("softmax with a null y", cute_cpp_softmax(2, a, NULL, 4, 64, NULL, message, sizeof message), message,
              "[softmax.pointers]");
  expect_rule("gemm epilogue with activation 9",
              cute_cpp_gemm_bf16_epilogue(a, 64, b, 64, c, 64, 8, 64, 64, 1.0f, 0.0f, NULL, 9, NULL, 0, NULL, NULL, message,
                                          sizeof message),
              message, "[gemm.activation]");
  expect_rule("gemm with M = 0", cute_cpp_gemm_bf16(a, 64, b, 64, c, 64, 0, 64, 64, NULL, 0, NULL, NULL, message,
                                                    sizeof message),
              message, "[gemm.shape]");
  expect_rule("gemm with a null B", cute_cpp_gemm_bf16(a, 64, NULL, 64, c, 64, 8, 64, 64, NULL, 0, NULL, NULL, message,
                                                       sizeof message),
              message, "[gemm.pointers]");
  expect_rule("gemm with lda < K", cute_cpp_gemm_bf16(a, 32, b, 64, c, 64, 8, 64, 64, NULL, 0, NULL, NULL, message,
                                                      sizeof message),
              message, "[gemm.leading-dimension]");
  expect_rule("gemm with a misaligned A",
              cute_cpp_gemm_bf16((char*)a + 2, 64, b, 64, c, 64, 8, 64, 64, NULL, 0, NULL, NULL, message,
                                 sizeof message),
              message, "[tma.global.address]");
  expect_rule("gemm writing over A", cute_cpp_gemm_bf16(a, 64, b, 64, (char*)a + 64, 64, 8, 64, 64, NULL, 0, NULL,
                                                        NULL, message, sizeof message),
              message, "[gemm.aliasing]");
  expect_rule("fmha with dtype 7",
              cute_cpp_fmha_forward(7, a, b, c, c, NULL, NULL, 1, 64, 64, 1, 1, 64, 64, 0.0f, 0, -1, -1, NULL, NULL, 0,
                                    0, NULL, message, sizeof message),
              message, "[attention.dtype]");
  expect_rule("fmha backward with dtype 7",
              cute_cpp_fmha_backward(7, a, b, c, c, c, NULL, c, c, c, NULL, 1, 64, 64, 1, 1, 64, 0.0f, 0, 0, NULL, NULL,
                                     0, 0, NULL, 0, NULL, message, sizeof message),
              message, "[attention.dtype]");
  expect_rule("fmha backward with head dim 96",
              cute_cpp_fmha_backward(0, a, b, c, c, c, (float const*)c, c, c, c, NULL, 1, 64, 64, 1, 1, 96, 0.0f, 0, 0,
                                     NULL, NULL, 0, 0, NULL, 0, NULL, message, sizeof message),
              message, "[attention.backward.head-dim]");
  expect_rule("fmha backward without the LSE",
              cute_cpp_fmha_backward(0, a, b, c, c, c, NULL, c, c, c, NULL, 1, 64, 64, 1, 1, 64, 0.0f, 0, 0, NULL, NULL,
                                     0, 0, NULL, 0, NULL, message, sizeof message),
              message, "[attention.backward.pointers]");
  {
    /* 2 sequences of 100 queries padded to 128, 4 heads of 128: the LSE and D, then dQ in float. */
    unsigned long long bytes = 0;
    int const status = cute_cpp_fmha_backward_workspace_bytes(2, 100, 4, 128, 0, 0, 0, &bytes, message, sizeof message);
    int const ok = status == 0 && bytes == 2ull * 4 * 256 * 4 + 4ull * 256 * 128 * 4;
    printf("%s: fmha backward workspace bytes %llu\n", ok ? "ok  " : "FAIL", bytes);
    failures += !ok;
  }
  expect_rule("fmha fp8 with head dim 96",
              cute_cpp_fmha_fp8_forward(a, b, c, c, NULL, NULL, NULL, NULL, 0, NULL, 1, 64, 64, 1, 1, 96, 96, 0.0f, 0,
                                        -1, -1, NULL, NULL, 0, 0, NULL, message, sizeof message),
              message, "[attention.fp8.head-dim]");
  expect_rule("fmha fp8 with descale layout 5",
              cute_cpp_fmha_fp8_forward(a, b, c, c, NULL, NULL, NULL, NULL, 5, NULL, 1, 64, 64, 1, 1, 128, 128, 0.0f,
                                        0, -1, -1, NULL, NULL, 0, 0, NULL, message, sizeof message),
              message, "[attention.fp8.descale]");
  expect_rule("fp8 gemm with block scales and fast accumulation",
              cute_cpp_gemm_fp8(a, 64, 0, b, 64, c, 64, 8, 64, 128, 2, 0, (float const*)c, 1, 1, (float const*)c, 1,
                                1, NULL, NULL, 0, NULL, NULL, message, sizeof message),
              message, "[gemm.accumulation]");
  expect_rule("fp8 gemm with accumulation 3",
              cute_cpp_gemm_fp8(a, 64, 0, b, 64, c, 64, 8, 64, 128, 0, 3, (float const*)c, 0, 0, (float const*)c, 0,
                                0, NULL, NULL, 0, NULL, NULL, message, sizeof message),
              message, "[gemm.accumulation]");
  {
    unsigned long long bytes = 0;
    expect_rule("ssd workspace of an unbuilt state size",
                cute_cpp_ssd_workspace_bytes(300, 2, 64, 8, 64, 64, &bytes, message, sizeof message), message,
                "[ssm.plan]");
    expect_rule("ssd workspace with groups not dividing heads",
                cute_cpp_ssd_workspace_bytes(300, 2, 64, 6, 64, 128, &bytes, message, sizeof message), message,
                "[ssm.shape]");
    int const status = cute_cpp_ssd_workspace_bytes(300, 2, 64, 8, 64, 128, &bytes, message, sizeof message);
    /* chunks = max tiles of 128 over 300 tokens in 2 sequences: 4; dt, dA_cumsum (300 x 64 f32, 256-aligned),
     * C.B (4 x 8 x 128 x 128 f32), chunk states (4 x 64 x 64 x 128 f32). */
    unsigned long long const per_token = (300ull * 64 * 4 + 255) / 256 * 256;
    unsigned long long const want = 2 * per_token + 4ull * 8 * 128 * 128 * 4 + 4ull * 64 * 64 * 128 * 4;
    int const ok = status == 0 && bytes == want;
    printf("%s: ssd workspace bytes %llu (want %llu)\n", ok ? "ok  " : "FAIL", bytes, want);
    failures += !ok;
  }
  expect_rule("ssd prefill with stride below H P",
              cute_cpp_ssd_prefill(a, 100, b, 64, c, c, 1024, (float const*)a, (float const*)a, (float const*)a, c,
                                   64, 8, 64, 128, 300, 2, (int const*)a, NULL, (float*)b, NULL, 0.0f, INFINITY, c,
                                   1u << 30, NULL, message, sizeof message),
              message, "[ssm.stride]");
  expect_rule("state update with head dim 32",
              cute_cpp_ssm_state_update(a, 4096, b, 64, c, c, 1024, (float const*)a, (float const*)a, (float const*)a,
                                        (float*)b, NULL, c, 64, 8, 32, 128, 4, 0.0f, INFINITY, NULL, message,
                                        sizeof message),
              message, "[ssm.plan]");
  expect_rule("conv1d of width 3",
              cute_cpp_causal_conv1d_update(a, 64, b, NULL, c, c, NULL, 64, 3, 4, NULL, message, sizeof message),
              message, "[ssm.plan]");
  expect_rule("gated rmsnorm with groups not dividing the width",
              cute_cpp_gated_rmsnorm(a, 100, b, 100, c, c, 4, 100, 3, 1e-5f, NULL, message, sizeof message), message,
              "[ssm.shape]");
  expect_rule("moe with routing code 2",
              cute_cpp_moe_layer(a, c, 4, 2048, 768, 128, 8, 1, 2, 0, 1.0f, 1, 1, 0, b, b, NULL, b, NULL, NULL, NULL, c,
                                 1u << 30, NULL, message, sizeof message),
              message, "[moe.routing]");
  expect_rule("moe softmax routing with a shared expert",
              cute_cpp_moe_layer(a, c, 4, 2048, 768, 128, 8, 1, 0, 0, 1.0f, 1, 1, 512, b, b, NULL, b, NULL, b, b, c,
                                 1u << 30, NULL, message, sizeof message),
              message, "[moe.routing]");
  {
    unsigned long long bytes = 0;
    expect_rule("moe with 300 experts",
                cute_cpp_moe_scratch_bytes(4, 2048, 768, 300, 8, 1, 0, 0, 1.0f, 1, 1, 0, &bytes, message,
                                           sizeof message),
                message, "[moe.shape]");
  }
  expect_rule("pack_gate_up with ffn 12",
              cute_cpp_pack_gate_up(a, b, c, 2, 12, 64, NULL, message, sizeof message), message, "[ffn.shape]");
  expect_rule("conv transpose of stride 6",
              cute_cpp_causal_conv_transpose1d(a, b, c, NULL, NULL, NULL, NULL, 0, NULL, NULL, 1, 16, 64, 64, 6, 12,
                                               NULL, message, sizeof message),
              message, "[conv.plan]");
  expect_rule("conv with activation 5",
              cute_cpp_causal_conv1d(a, b, c, NULL, NULL, NULL, NULL, 5, NULL, NULL, 1, 16, 64, 64, 7, 1, NULL, message,
                                     sizeof message),
              message, "[conv.activation]");
  expect_rule("depthwise conv of kernel 5",
              cute_cpp_depthwise_conv1d(a, b, NULL, c, NULL, NULL, 1, 16, 64, 5, NULL, message, sizeof message),
              message, "[conv.plan]");
  expect_rule("kv append with dtype 7",
              cute_cpp_kv_append(7, a, b, c, c, NULL, 1, 1, 2, 64, 64, (int const*)a, 64, NULL, 0, 0, 0, NULL,
                                 message, sizeof message),
              message, "[attention.dtype]");
  expect_rule("decode against an e4m3 cache with dtype 2",
              cute_cpp_decode_attention_fp8kv(2, a, b, b, c, NULL, NULL, NULL, NULL, 1, 1, 8, 2, 128, 128, 0.0f, 1,
                                              (int const*)a, 64, NULL, 0, 0, 0, 0, NULL, 0, NULL, NULL, message,
                                              sizeof message),
              message, "[attention.dtype]");
  /* A message buffer of 0 bytes is allowed (nothing is written). */
  expect_rule("gemm error without a message buffer",
              cute_cpp_gemm_bf16(a, 64, b, 64, c, 64, 0, 64, 64, NULL, 0, NULL, NULL, NULL, 0), "[gemm.shape]",
              "[gemm.shape]");
}

static int check_cuda(cudaError_t e, const char* call) {
  if (e != cudaSuccess) {
    printf("FAIL: %s: %s\n", call, cudaGetErrorString(e));
    ++failures;
    return 0;
  }
  return 1;
}

/* C = A B^T for M x K and N x K: 37 x 72 x 200 (K a multiple of 8, the rest of no tile). */
static void gemm_on_the_gpu(void) {
  enum { M = 37, N = 72, K = 200 };
  uint16_t *ha = malloc(sizeof(uint16_t) * M * K), *hb = malloc(sizeof(uint16_t) * N * K);
  uint16_t* hc = malloc(sizeof(uint16_t) * M * N);
  void *da = NULL, *db = NULL, *dc = NULL;
  unsigned long long needed = 0;
  char message[512] = "";
  double worst = 0;
  int i, j, p, bad = 0;
  srand(20261202u);
  for (i = 0; i < M * K; ++i) ha[i] = to_bf16((float)rand() / (float)RAND_MAX * 2.0f - 1.0f);
  for (i = 0; i < N * K; ++i) hb[i] = to_bf16((float)rand() / (float)RAND_MAX * 2.0f - 1.0f);
  if (!check_cuda(cudaMalloc(&da, sizeof(uint16_t) * M * K), "cudaMalloc") ||
      !check_cuda(cudaMalloc(&db, sizeof(uint16_t) * N * K), "cudaMalloc") ||
      !check_cuda(cudaMalloc(&dc, sizeof(uint16_t) * M * N), "cudaMalloc"))
    goto done;
  check_cuda(cudaMemcpy(da, ha, sizeof(uint16_t) * M * K, cudaMemcpyHostToDevice), "cudaMemcpy");
  check_cuda(cudaMemcpy(db, hb, sizeof(uint16_t) * N * K, cudaMemcpyHostToDevice), "cudaMemcpy");
  check_cuda(cudaMemset(dc, 0xFF, sizeof(uint16_t) * M * N), "cudaMemset"); /* NaN */
  if (cute_cpp_gemm_bf16(da, K, db, K, dc, N, M, N, K, NULL, 0, &needed, NULL, message, sizeof message) != 0) {
    printf("FAIL: cute_cpp_gemm_bf16: %s\n", message);
    ++failures;
    goto done;
  }
  check_cuda(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
  check_cuda(cudaMemcpy(hc, dc, sizeof(uint16_t) * M * N, cudaMemcpyDeviceToHost), "cudaMemcpy");
  for (i = 0; i < M; ++i) {
    for (j = 0; j < N; ++j) {
      double ref = 0, got = from_bf16(hc[i * N + j]), err;
      for (p = 0; p < K; ++p) ref += (double)from_bf16(ha[i * K + p]) * (double)from_bf16(hb[j * K + p]);
      err = fabs(got - ref);
      /* bf16 output: half an ulp of the result, plus fp32 accumulation slack. */
      if (!(err <= fabs(ref) * 0.0079 + 1e-3)) ++bad;
      if (err > worst || err != err) worst = err;
    }
  }
  printf("%s: gemm %dx%dx%d from C: %d of %d outside tolerance, max error %.3g (workspace the heuristic asks: %llu)\n",
         bad == 0 ? "ok  " : "FAIL", M, N, K, bad, M * N, worst, needed);
  failures += bad != 0;
done:
  cudaFree(da);
  cudaFree(db);
  cudaFree(dc);
  free(ha);
  free(hb);
  free(hc);
}

/* y = softmax(x) over 3 rows of 1000 floats from C, against a double reference. */
static void softmax_on_the_gpu(void) {
  enum { ROWS = 3, WIDTH = 1000 };
  float *hx = malloc(sizeof(float) * ROWS * WIDTH), *hy = malloc(sizeof(float) * ROWS * WIDTH);
  void *dx = NULL, *dy = NULL;
  char message[512] = "";
  double worst = 0;
  int r, i, bad = 0;
  for (i = 0; i < ROWS * WIDTH; ++i) hx[i] = (float)rand() / (float)RAND_MAX * 8.0f - 4.0f;
  if (!check_cuda(cudaMalloc(&dx, sizeof(float) * ROWS * WIDTH), "cudaMalloc") ||
      !check_cuda(cudaMalloc(&dy, sizeof(float) * ROWS * WIDTH), "cudaMalloc"))
    goto done;
  check_cuda(cudaMemcpy(dx, hx, sizeof(float) * ROWS * WIDTH, cudaMemcpyHostToDevice), "cudaMemcpy");
  check_cuda(cudaMemset(dy, 0xFF, sizeof(float) * ROWS * WIDTH), "cudaMemset"); /* NaN */
  if (cute_cpp_softmax(2, dx, dy, ROWS, WIDTH, NULL, message, sizeof message) != 0) {
    printf("FAIL: cute_cpp_softmax: %s\n", message);
    ++failures;
    goto done;
  }
  check_cuda(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
  check_cuda(cudaMemcpy(hy, dy, sizeof(float) * ROWS * WIDTH, cudaMemcpyDeviceToHost), "cudaMemcpy");
  for (r = 0; r < ROWS; ++r) {
    double top = -1e30, sum = 0;
    for (i = 0; i < WIDTH; ++i) top = hx[r * WIDTH + i] > top ? hx[r * WIDTH + i] : top;
    for (i = 0; i < WIDTH; ++i) sum += exp((double)hx[r * WIDTH + i] - top);
    for (i = 0; i < WIDTH; ++i) {
      double const ref = exp((double)hx[r * WIDTH + i] - top) / sum, err = fabs(hy[r * WIDTH + i] - ref);
      if (!(err <= ref * 1e-5 + 1e-9)) ++bad;
      if (err > worst || err != err) worst = err;
    }
  }
  printf("%s: softmax %dx%d from C: %d of %d outside tolerance, max error %.3g\n", bad == 0 ? "ok  " : "FAIL", ROWS,
         WIDTH, bad, ROWS * WIDTH, worst);
  failures += bad != 0;
done:
  cudaFree(dx);
  cudaFree(dy);
  free(hx);
  free(hy);
}

/* The MoE block's scratch size (it asks the device for its SM count): Qwen3-30B-A3B's layer at 4 tokens. */
static void moe_scratch_on_the_gpu(void) {
  char message[512] = "";
  unsigned long long bytes = 0;
  int const status =
      cute_cpp_moe_scratch_bytes(4, 2048, 768, 128, 8, 1, 0, 0, 1.0f, 1, 1, 0, &bytes, message, sizeof message);
  int const ok = status == 0 && bytes > 0;
  printf("%s: moe scratch bytes %llu %s\n", ok ? "ok  " : "FAIL", bytes, message);
  failures += !ok;
}

int main(void) {
  int devices = 0;
  bad_arguments();
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    printf("no GPU here: the GPU half is skipped\n");
  } else {
    gemm_on_the_gpu();
    softmax_on_the_gpu();
    moe_scratch_on_the_gpu();
  }
  printf("%s\n", failures == 0 ? "all checks pass" : "FAILED");
  return failures == 0 ? 0 : 1;
}
