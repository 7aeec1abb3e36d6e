// A 128-byte-swizzled TMA buffer placed 512 bytes into shared memory: the swizzle pattern spans
// 1024 bytes, so the buffer must start on a 1024-byte boundary.
// expected-error {{"smem\.tma-buffer-alignment.*OffsetBytes=512UL?, SwizzleBytes=128"}}
#include <cute_cpp/diag/tma.hpp>
static_assert(cute_cpp::diag::smem_tma_buffer_alignment<512, 128>::ok);
