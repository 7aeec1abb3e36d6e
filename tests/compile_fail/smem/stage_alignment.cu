// Stages of a 4-row, 64-byte-swizzled tile (256 bytes): the pattern repeats every 512 bytes, so
// stage 1 would start halfway through it.
// expected-error {{"smem\.stage-alignment.*StageBytes=256, TileBytes=256, RepeatBytes=512"}}
#include <cute_cpp/smem/smem_stages.hpp>
#include <cstdint>
using Bad = cute_cpp::SmemStages<std::uint16_t, cute_cpp::SmemKMajor<std::uint16_t, 4, 32, 64>, 2>;
static_assert(sizeof(Bad) > 0);
