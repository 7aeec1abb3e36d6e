// tcgen05.ld / tcgen05.st are LDTM / STTM (shape and repetition in the suffix), tcgen05.cp is
// a UTCCP, tcgen05.shift a UTCSHIFT.
// cute-cpp-arch: 100a
// expect-sass: {{"LDTM\.x16 R[0-9]+, tmem\[UR[0-9]+\]"}}
// expect-sass: {{"LDTM\.16dp256bit\.x2 "}}
// expect-sass: {{"STTM\.16dp128bit\.x4 tmem"}}
// expect-sass: {{"UTCCP\.T\.S\.4x32dp128bit tmem"}}
// expect-sass: {{"UTCSHIFT\.DOWN"}}
#include <ctm/sm100/tcgen05.hpp>

__global__ void ld_st_cp(std::uint32_t taddr, std::uint64_t desc, std::uint32_t* out) {
  using ctm::Tcgen05LdStShape;
  std::uint32_t r[16];
  ctm::tcgen05_ld<Tcgen05LdStShape::s32x32b, 16>(r, taddr);
  std::uint32_t q[8];
  ctm::tcgen05_ld<Tcgen05LdStShape::s16x256b, 2>(q, taddr + 16);
  ctm::tcgen05_wait_ld();
  for (int i = 0; i < 8; ++i) q[i] += r[i] + r[i + 8];
  ctm::tcgen05_st<Tcgen05LdStShape::s16x128b, 4>(taddr + 32, q);
  ctm::tcgen05_wait_st();
  ctm::tcgen05_cp<ctm::Tcgen05CpShape::s32x128b_warpx4>(taddr + 64, desc);
  ctm::tcgen05_shift_down(taddr);
  out[threadIdx.x] = q[0];
}
