// Every tcgen05.mma .collector::a form compiles for sm_100a: each kind and collector usage,
// A from shared and tensor memory, plain and block-scaled, cta_group::1 (one kernel) and ::2.
// cute-cpp-archs: 100a
#include <ctm/sm100/tcgen05.hpp>

namespace {
using ctm::Tcgen05CollectorA;
using ctm::Tcgen05Kind;
using ctm::Tcgen05ScaleVec;

template <Tcgen05Kind Kind, int CtaGroup, Tcgen05CollectorA... Ops>
__device__ void plain(std::uint32_t d, std::uint32_t a_tmem, std::uint64_t a, std::uint64_t b, std::uint32_t id) {
  (ctm::tcgen05_mma_collector_a<Kind, Ops, CtaGroup>(d, a, b, id, true), ...);
  (ctm::tcgen05_mma_a_tmem_collector_a<Kind, Ops, CtaGroup>(d, a_tmem, b, id, false), ...);
}

template <Tcgen05Kind Kind, Tcgen05ScaleVec Vec, int CtaGroup, Tcgen05CollectorA... Ops>
__device__ void scaled(std::uint32_t d, std::uint32_t a_tmem, std::uint64_t a, std::uint64_t b, std::uint32_t id,
                       std::uint32_t sf) {
  (ctm::tcgen05_mma_block_scale_collector_a<Kind, Ops, Vec, CtaGroup>(d, a, b, id, sf, sf + 4, true), ...);
  (ctm::tcgen05_mma_block_scale_a_tmem_collector_a<Kind, Ops, Vec, CtaGroup>(d, a_tmem, b, id, sf, sf + 4, true), ...);
}

template <int CtaGroup>
__device__ void all(std::uint32_t d, std::uint32_t a_tmem, std::uint64_t a, std::uint64_t b, std::uint32_t id,
                    std::uint32_t sf) {
  using C = Tcgen05CollectorA;
  plain<Tcgen05Kind::f16, CtaGroup, C::fill, C::use, C::lastuse, C::discard>(d, a_tmem, a, b, id);
  plain<Tcgen05Kind::tf32, CtaGroup, C::fill, C::use, C::lastuse, C::discard>(d, a_tmem, a, b, id);
  plain<Tcgen05Kind::f8f6f4, CtaGroup, C::fill, C::use, C::lastuse, C::discard>(d, a_tmem, a, b, id);
  plain<Tcgen05Kind::i8, CtaGroup, C::fill, C::use, C::lastuse, C::discard>(d, a_tmem, a, b, id);
  scaled<Tcgen05Kind::mxf8f6f4, Tcgen05ScaleVec::x1, CtaGroup, C::fill, C::use, C::lastuse, C::discard>(d, a_tmem, a, b, id, sf);
  scaled<Tcgen05Kind::mxf4, Tcgen05ScaleVec::x2, CtaGroup, C::fill, C::use, C::lastuse, C::discard>(d, a_tmem, a, b, id, sf);
  scaled<Tcgen05Kind::mxf4nvf4, Tcgen05ScaleVec::x2, CtaGroup, C::fill, C::use, C::lastuse, C::discard>(d, a_tmem, a, b, id, sf);
  scaled<Tcgen05Kind::mxf4nvf4, Tcgen05ScaleVec::x4, CtaGroup, C::fill, C::use, C::lastuse, C::discard>(d, a_tmem, a, b, id, sf);
}
}  // namespace

__global__ void collector_cta_group_1(std::uint32_t d, std::uint32_t a_tmem, std::uint64_t a, std::uint64_t b,
                                      std::uint32_t id, std::uint32_t sf) {
  all<1>(d, a_tmem, a, b, id, sf);
}
__global__ void collector_cta_group_2(std::uint32_t d, std::uint32_t a_tmem, std::uint64_t a, std::uint64_t b,
                                      std::uint32_t id, std::uint32_t sf) {
  all<2>(d, a_tmem, a, b, id, sf);
}
