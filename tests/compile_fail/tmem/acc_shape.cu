// An M = 64 accumulator (16 rows per warp quarter) cannot be read with the 32-lane shape.
// cute-cpp-arch: 100a
// expected-error {{"tmem\.acc-shape"}}
#include <cute_cpp/tmem/tmem_copy.hpp>
namespace sm = cute_cpp::sm100;
using Atom = sm::TmemCopyAtom<ctm::Tcgen05LdStShape::s32x32b, 8>;
constexpr auto s = sm::get_slice<sm::UmmaAccumulator<64, 64, 1>, Atom>(0, 0);
static_assert(s.copies > 0);
