/* SPDX-License-Identifier: Apache-2.0
 * A C program against the generated header of the consumer's exported library. */
#include <cute_cpp_consumer.h>

#include <stdio.h>

int main(void) {
  int const status = cute_cpp_consumer_scale(NULL, 2.0f, -1, NULL);
  printf("cute_cpp_consumer_scale(n = -1) -> %d\n", status);
  return status == 1 ? 0 : 1;
}
