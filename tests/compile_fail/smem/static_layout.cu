// size_in_bytes needs a static shared layout: a run-time extent cannot size shared memory.
// expected-error {{"smem\.static-layout"}}
#include <cute_cpp/smem/smem_tile.hpp>
using Dynamic = cute_cpp::Layout<cute_cpp::Shape<int, cute_cpp::C<64>>, cute_cpp::Stride<cute_cpp::C<64>, cute_cpp::C<1>>>;
constexpr int bad = cute_cpp::size_in_bytes<float, Dynamic>();
