// tcgen05 allocation, commit, fences, waits, tcgen05.cp (every shape and source format) and
// tcgen05.shift compile for sm_100a, cta_group::1 and ::2 (one kernel each: ptxas rejects a
// kernel that mixes them).
// cute-cpp-archs: 100a
#include <ctm/sm100/tcgen05.hpp>

namespace {
template <int CtaGroup>
__device__ void alloc_forms(std::uint32_t slot, std::uint32_t taddr, std::uint32_t ncols) {
  ctm::tcgen05_alloc<CtaGroup>(slot, ctm::Tcgen05Cols<32>{});
  ctm::tcgen05_alloc<CtaGroup>(slot, ctm::Tcgen05Cols<512>{});
  ctm::tcgen05_alloc<CtaGroup>(slot, ncols);
  ctm::tcgen05_dealloc<CtaGroup>(taddr, ctm::Tcgen05Cols<512>{});
  ctm::tcgen05_dealloc<CtaGroup>(taddr, ncols);
  ctm::tcgen05_relinquish_alloc_permit<CtaGroup>();
}

template <ctm::Tcgen05CpShape Shape, int CtaGroup>
__device__ void cp_forms(std::uint32_t taddr, std::uint64_t desc) {
  ctm::tcgen05_cp<Shape, CtaGroup>(taddr, desc);
  ctm::tcgen05_cp<Shape, CtaGroup, ctm::Tcgen05CpSrcFormat::b6x16_p32>(taddr, desc);
  ctm::tcgen05_cp<Shape, CtaGroup, ctm::Tcgen05CpSrcFormat::b4x16_p64>(taddr, desc);
}

template <int CtaGroup>
__device__ void all_cp(std::uint32_t taddr, std::uint64_t desc) {
  using S = ctm::Tcgen05CpShape;
  cp_forms<S::s128x256b, CtaGroup>(taddr, desc);
  cp_forms<S::s4x256b, CtaGroup>(taddr, desc);
  cp_forms<S::s128x128b, CtaGroup>(taddr, desc);
  cp_forms<S::s64x128b_warpx2_02_13, CtaGroup>(taddr, desc);
  cp_forms<S::s64x128b_warpx2_01_23, CtaGroup>(taddr, desc);
  cp_forms<S::s32x128b_warpx4, CtaGroup>(taddr, desc);
  ctm::tcgen05_shift_down<CtaGroup>(taddr);
}
}  // namespace

template <int CtaGroup>
__device__ void all_forms(std::uint32_t taddr, std::uint64_t desc, std::uint32_t ncols, std::uint16_t mask) {
  __shared__ std::uint32_t slot;
  __shared__ std::uint64_t mbar;
  auto const slot_addr = static_cast<std::uint32_t>(__cvta_generic_to_shared(&slot));
  auto const mbar_addr = static_cast<std::uint32_t>(__cvta_generic_to_shared(&mbar));
  alloc_forms<CtaGroup>(slot_addr, taddr, ncols);
  ctm::tcgen05_commit<CtaGroup>(mbar_addr);
  ctm::tcgen05_commit_multicast_cluster<CtaGroup>(mbar_addr, mask);
  ctm::tcgen05_fence_before_thread_sync();
  ctm::tcgen05_fence_after_thread_sync();
  ctm::tcgen05_wait_ld();
  ctm::tcgen05_wait_st();
  ctm::fence_view_async_tmem_load();
  ctm::fence_view_async_tmem_store();
  all_cp<CtaGroup>(taddr, desc);
}

__global__ void tcgen05_cta_group_1(std::uint32_t taddr, std::uint64_t desc, std::uint32_t ncols,
                                    std::uint16_t mask) {
  all_forms<1>(taddr, desc, ncols, mask);
}
__global__ void tcgen05_cta_group_2(std::uint32_t taddr, std::uint64_t desc, std::uint32_t ncols,
                                    std::uint16_t mask) {
  all_forms<2>(taddr, desc, ncols, mask);
}
