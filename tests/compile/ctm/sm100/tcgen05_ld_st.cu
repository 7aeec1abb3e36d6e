// Every tcgen05.ld and tcgen05.st shape and .num compiles for sm_100a, with and without
// .pack::16b / .unpack::16b (148 forms of each, 1 to 128 registers).
// cute-cpp-archs: 100a
#include <ctm/sm100/tcgen05.hpp>

namespace {
using ctm::Tcgen05LdStShape;

template <Tcgen05LdStShape Shape, int Num>
__device__ void round_trip(std::uint32_t taddr, std::uint32_t* out) {
  constexpr int n = ctm::tcgen05_ld_st_registers<Shape, Num>;
  std::uint32_t r[n];
  if constexpr (Shape == Tcgen05LdStShape::s16x32bx2) {
    ctm::tcgen05_ld_16x32bx2<Num, 16>(r, taddr);
    ctm::tcgen05_ld_16x32bx2<Num, 0, true>(r, taddr + 1);
    ctm::tcgen05_wait_ld();
    ctm::tcgen05_st_16x32bx2<Num, 16>(taddr + 2, r);
    ctm::tcgen05_st_16x32bx2<Num, 0, true>(taddr + 3, r);
  } else {
    ctm::tcgen05_ld<Shape, Num>(r, taddr);
    ctm::tcgen05_ld<Shape, Num, true>(r, taddr + 1);
    ctm::tcgen05_wait_ld();
    ctm::tcgen05_st<Shape, Num>(taddr + 2, r);
    ctm::tcgen05_st<Shape, Num, true>(taddr + 3, r);
  }
  ctm::tcgen05_wait_st();
  out[Num] = r[n - 1];
}

template <Tcgen05LdStShape Shape, int... Nums>
__device__ void all_nums(std::uint32_t taddr, std::uint32_t* out) {
  (round_trip<Shape, Nums>(taddr, out), ...);
}
}  // namespace

__global__ void tcgen05_ld_st_all(std::uint32_t taddr, std::uint32_t* out) {
  all_nums<Tcgen05LdStShape::s32x32b, 1, 2, 4, 8, 16, 32, 64, 128>(taddr, out);
  all_nums<Tcgen05LdStShape::s16x64b, 1, 2, 4, 8, 16, 32, 64, 128>(taddr, out);
  all_nums<Tcgen05LdStShape::s16x128b, 1, 2, 4, 8, 16, 32, 64>(taddr, out);
  all_nums<Tcgen05LdStShape::s16x256b, 1, 2, 4, 8, 16, 32>(taddr, out);
  all_nums<Tcgen05LdStShape::s16x32bx2, 1, 2, 4, 8, 16, 32, 64, 128>(taddr, out);
}
