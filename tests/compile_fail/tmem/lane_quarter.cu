// A 32-lane copy starting 16 lanes into the warp's quarter would leave it.
// cute-cpp-arch: 100a
// expected-error {{"tmem\.lane-quarter"}}
#include <cute_cpp/tmem/tmem_copy.hpp>
namespace sm = cute_cpp::sm100;
using Atom = sm::TmemCopyAtom<ctm::Tcgen05LdStShape::s32x32b, 8>;
constexpr std::uint32_t bad = sm::tmem_warp_addr<Atom, 16>(0, 1);
static_assert(bad != 1);
