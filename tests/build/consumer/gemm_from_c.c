/* SPDX-License-Identifier: Apache-2.0
 * A C program against the installed GEMM entry point (libcute_cpp_gemm.so, cute_cpp_gemm.h): a
 * call with m = 0 returns 1 and names its rule, with or without a GPU. */
#include <cute_cpp_gemm.h>

#include <stdio.h>
#include <string.h>

int main(void) {
  char message[512] = {0};
  int const status = cute_cpp_gemm_bf16(NULL, 64, NULL, 64, NULL, 64, 0, 64, 64, NULL, 0, NULL, NULL, message,
                                        sizeof message);
  printf("cute_cpp_gemm_bf16(m = 0) -> %d: %s\n", status, message);
  return status == 1 && strstr(message, "gemm.") != NULL ? 0 : 1;
}
