// A 32-column copy (16x32bx2.x16) must divide the accumulator's 40 columns.
// cute-cpp-arch: 100a
// expected-error {{"tmem\.acc-columns.*AccColumns=40, AtomColumns=32"}}
#include <cute_cpp/tmem/tmem_copy.hpp>
namespace sm = cute_cpp::sm100;
using Atom = sm::TmemCopyAtom<ctm::Tcgen05LdStShape::s16x32bx2, 16>;
constexpr auto s = sm::get_slice<sm::UmmaAccumulator<128, 40, 1>, Atom>(0, 0);
static_assert(s.copies > 0);
