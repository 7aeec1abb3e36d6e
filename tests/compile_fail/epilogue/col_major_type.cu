// A column-major C is written with stmatrix's transposing form: 16-bit outputs only.
// expected-error {{"epilogue\.col-major-type"}}
#include <cute_cpp/epilogue/sm90_tma_store.hpp>
using Bad = cute_cpp::sm90::EpilogueTmaStore<float, 64, 1, cute_cpp::LayoutEnum::ColMajor>;
static_assert(Bad::chunks > 0);
