// Tensor-memory allocation and release, commit (plain and multicast), fences and waits on
// sm_100a: alloc is a UTCATOMSWS.FIND_AND_SET loop, dealloc a UTCATOMSWS.AND, relinquish a
// UVIRTCOUNT.DEALLOC.SMPOOL, commit a UTCBAR, wait::st a FENCE.VIEW.ASYNC.T (the
// tcgen05.fence forms leave no instruction of their own: they constrain scheduling).
// cute-cpp-arch: 100a
// expect-sass: {{"UTCATOMSWS\.FIND_AND_SET\.ALIGN"}}
// expect-sass: {{"UTCATOMSWS\.AND"}}
// expect-sass: {{"UVIRTCOUNT\.DEALLOC\.SMPOOL"}}
// expect-sass: {{"UTCBAR \[UR[0-9]+\]"}}
// expect-sass: {{"UTCBAR\.MULTICAST"}}
// expect-sass: {{"FENCE\.VIEW\.ASYNC\.T"}}
#include <ctm/sm100/tcgen05.hpp>

__global__ void alloc_commit(std::uint32_t* out, std::uint16_t mask) {
  __shared__ std::uint32_t slot;
  __shared__ std::uint64_t mbar;
  auto const slot_addr = static_cast<std::uint32_t>(__cvta_generic_to_shared(&slot));
  auto const mbar_addr = static_cast<std::uint32_t>(__cvta_generic_to_shared(&mbar));
  ctm::tcgen05_alloc(slot_addr, ctm::Tcgen05Cols<128>{});
  ctm::tcgen05_relinquish_alloc_permit();
  ctm::tcgen05_fence_before_thread_sync();
  __syncthreads();
  ctm::tcgen05_fence_after_thread_sync();
  std::uint32_t const taddr = slot;
  ctm::tcgen05_commit(mbar_addr);
  ctm::tcgen05_commit_multicast_cluster(mbar_addr, mask);
  out[0] = taddr;
  ctm::tcgen05_wait_st();
  ctm::tcgen05_dealloc(taddr, ctm::Tcgen05Cols<128>{});
}
