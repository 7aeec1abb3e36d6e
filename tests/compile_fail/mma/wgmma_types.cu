// wgmma has no 16-bit integer inputs.
// expected-error {{"mma\.wgmma\.types"}}
#include <cute_cpp/mma/sm90_wgmma.hpp>
using T = short;
using Bad = cute_cpp::sm90::WgmmaTiledMma<T, T, float, cute_cpp::SmemKMajor<T, 64, 64>, cute_cpp::SmemKMajor<T, 64, 64>, 1, 64>;
constexpr auto t = Bad::type_a;
