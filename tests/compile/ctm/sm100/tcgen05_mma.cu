// Every tcgen05.mma form compiles for sm_100a: kinds f16, tf32, f8f6f4, i8 with A from shared
// memory and tensor memory, with disable-output-lane and scale-input-d where the ISA has them,
// cta_group::1 and ::2; the block-scaled kinds with each scale-vector size; the sparse (.sp)
// and weight-stationary (.ws, .ws.sp, with and without the zero-column mask) forms;
// descriptors built at compile time. NOTE: ptxas rejects a kernel that mixes cta_group::1 and ::2, so each
// cta_group has its own kernel.
// cute-cpp-archs: 100a
#include <ctm/sm100/tcgen05.hpp>

namespace {
using ctm::Tcgen05Kind;
using ctm::Tcgen05ScaleVec;

constexpr std::uint32_t idesc_bf16 = ctm::tcgen05_idesc_v<ctm::Tcgen05InstrDesc{
    .kind = Tcgen05Kind::f16, .a = ctm::Tcgen05Type::bf16, .b = ctm::Tcgen05Type::bf16, .m = 128, .n = 256}>;
constexpr std::uint64_t desc_a = ctm::tcgen05_smem_desc(
    {.start_address = 0x400, .lbo_bytes = 16, .sbo_bytes = 1024, .swizzle = ctm::Tcgen05Swizzle::b128});

template <Tcgen05Kind Kind, int CtaGroup>
__device__ void plain_forms(std::uint32_t d, std::uint32_t a_tmem, std::uint64_t b, std::uint32_t id,
                            std::uint32_t const (&lanes)[4 * CtaGroup], bool acc) {
  ctm::tcgen05_mma<Kind, CtaGroup>(d, desc_a, b, id, acc);
  ctm::tcgen05_mma<Kind, CtaGroup>(d, desc_a, b, id, lanes, acc);
  ctm::tcgen05_mma_a_tmem<Kind, CtaGroup>(d, a_tmem, b, id, acc);
  ctm::tcgen05_mma_a_tmem<Kind, CtaGroup>(d, a_tmem, b, id, lanes, acc);
  if constexpr (Kind == Tcgen05Kind::f16 || Kind == Tcgen05Kind::tf32) {
    ctm::tcgen05_mma<Kind, CtaGroup>(d, desc_a, b, id, acc, ctm::Tcgen05ScaleInputD<0>{});
    ctm::tcgen05_mma<Kind, CtaGroup>(d, desc_a, b, id, lanes, acc, ctm::Tcgen05ScaleInputD<15>{});
    ctm::tcgen05_mma_a_tmem<Kind, CtaGroup>(d, a_tmem, b, id, acc, ctm::Tcgen05ScaleInputD<3>{});
    ctm::tcgen05_mma_a_tmem<Kind, CtaGroup>(d, a_tmem, b, id, lanes, acc, ctm::Tcgen05ScaleInputD<7>{});
  }
}

template <Tcgen05Kind Kind, Tcgen05ScaleVec Vec, int CtaGroup>
__device__ void block_scaled_forms(std::uint32_t d, std::uint32_t a_tmem, std::uint64_t b,
                                   std::uint32_t id, std::uint32_t sfa, std::uint32_t sfb, bool acc) {
  ctm::tcgen05_mma_block_scale<Kind, Vec, CtaGroup>(d, desc_a, b, id, sfa, sfb, acc);
  ctm::tcgen05_mma_block_scale_a_tmem<Kind, Vec, CtaGroup>(d, a_tmem, b, id, sfa, sfb, acc);
  ctm::tcgen05_mma_sp_block_scale<Kind, Vec, CtaGroup>(d, desc_a, b, a_tmem + 64, id, sfa, sfb, acc);
  ctm::tcgen05_mma_sp_block_scale_a_tmem<Kind, Vec, CtaGroup>(d, a_tmem, b, a_tmem + 64, id, sfa, sfb, acc);
}

template <Tcgen05Kind Kind, int CtaGroup>
__device__ void sparse_forms(std::uint32_t d, std::uint32_t a_tmem, std::uint64_t b, std::uint32_t meta,
                             std::uint32_t id, bool acc) {
  ctm::tcgen05_mma_sp<Kind, CtaGroup>(d, desc_a, b, meta, id, acc);
  ctm::tcgen05_mma_sp_a_tmem<Kind, CtaGroup>(d, a_tmem, b, meta, id, acc);
}

template <Tcgen05Kind Kind>
__device__ void ws_forms(std::uint32_t d, std::uint32_t a_tmem, std::uint64_t b, std::uint32_t meta,
                         std::uint32_t id, std::uint64_t mask, bool acc) {
  ctm::tcgen05_mma_ws<Kind>(d, desc_a, b, id, acc);
  ctm::tcgen05_mma_ws<Kind>(d, desc_a, b, id, acc, mask);
  ctm::tcgen05_mma_ws_a_tmem<Kind>(d, a_tmem, b, id, acc);
  ctm::tcgen05_mma_ws_a_tmem<Kind>(d, a_tmem, b, id, acc, mask);
  ctm::tcgen05_mma_ws_sp<Kind>(d, desc_a, b, meta, id, acc);
  ctm::tcgen05_mma_ws_sp<Kind>(d, desc_a, b, meta, id, acc, mask);
  ctm::tcgen05_mma_ws_sp_a_tmem<Kind>(d, a_tmem, b, meta, id, acc);
  ctm::tcgen05_mma_ws_sp_a_tmem<Kind>(d, a_tmem, b, meta, id, acc, mask);
}
}  // namespace

__global__ void tcgen05_mma_cta_group_1(std::uint32_t d, std::uint32_t a_tmem, std::uint64_t b,
                                        std::uint32_t id, std::uint32_t sfa, std::uint32_t sfb, int acc) {
  std::uint32_t const lanes4[4] = {d, 0, 0, d};
  plain_forms<Tcgen05Kind::f16, 1>(d, a_tmem, b, idesc_bf16, lanes4, acc != 0);
  plain_forms<Tcgen05Kind::tf32, 1>(d, a_tmem, b, id, lanes4, acc != 0);
  plain_forms<Tcgen05Kind::f8f6f4, 1>(d, a_tmem, b, id, lanes4, acc != 0);
  plain_forms<Tcgen05Kind::i8, 1>(d, a_tmem, b, id, lanes4, acc != 0);
  block_scaled_forms<Tcgen05Kind::mxf8f6f4, Tcgen05ScaleVec::x1, 1>(d, a_tmem, b, id, sfa, sfb, acc != 0);
  block_scaled_forms<Tcgen05Kind::mxf4, Tcgen05ScaleVec::x2, 1>(d, a_tmem, b, id, sfa, sfb, acc != 0);
  block_scaled_forms<Tcgen05Kind::mxf4nvf4, Tcgen05ScaleVec::x2, 1>(d, a_tmem, b, id, sfa, sfb, acc != 0);
  block_scaled_forms<Tcgen05Kind::mxf4nvf4, Tcgen05ScaleVec::x4, 1>(d, a_tmem, b, id, sfa, sfb, acc != 0);
  ctm::tcgen05_mma_block_scale<Tcgen05Kind::mxf4nvf4>(d, desc_a, b, id, sfa, sfb, true);  // default 2X
  sparse_forms<Tcgen05Kind::f16, 1>(d, a_tmem, b, sfa, id, acc != 0);
  sparse_forms<Tcgen05Kind::tf32, 1>(d, a_tmem, b, sfa, id, acc != 0);
  sparse_forms<Tcgen05Kind::f8f6f4, 1>(d, a_tmem, b, sfa, id, acc != 0);
  sparse_forms<Tcgen05Kind::i8, 1>(d, a_tmem, b, sfa, id, acc != 0);
}

__global__ void tcgen05_mma_ws(std::uint32_t d, std::uint32_t a_tmem, std::uint64_t b, std::uint32_t id,
                               std::uint32_t meta, std::uint64_t mask, int acc) {
  ws_forms<Tcgen05Kind::f16>(d, a_tmem, b, meta, id, mask, acc != 0);
  ws_forms<Tcgen05Kind::tf32>(d, a_tmem, b, meta, id, mask, acc != 0);
  ws_forms<Tcgen05Kind::f8f6f4>(d, a_tmem, b, meta, id, mask, acc != 0);
  ws_forms<Tcgen05Kind::i8>(d, a_tmem, b, meta, id, mask, acc != 0);
}

__global__ void tcgen05_mma_cta_group_2(std::uint32_t d, std::uint32_t a_tmem, std::uint64_t b,
                                        std::uint32_t id, std::uint32_t sfa, std::uint32_t sfb, int acc) {
  std::uint32_t const lanes8[8] = {d, 0, 0, d, 1, 2, 3, 4};
  plain_forms<Tcgen05Kind::f16, 2>(d, a_tmem, b, idesc_bf16, lanes8, acc != 0);
  plain_forms<Tcgen05Kind::tf32, 2>(d, a_tmem, b, id, lanes8, acc != 0);
  plain_forms<Tcgen05Kind::f8f6f4, 2>(d, a_tmem, b, id, lanes8, acc != 0);
  plain_forms<Tcgen05Kind::i8, 2>(d, a_tmem, b, id, lanes8, acc != 0);
  block_scaled_forms<Tcgen05Kind::mxf8f6f4, Tcgen05ScaleVec::x1, 2>(d, a_tmem, b, id, sfa, sfb, acc != 0);
  block_scaled_forms<Tcgen05Kind::mxf4, Tcgen05ScaleVec::x2, 2>(d, a_tmem, b, id, sfa, sfb, acc != 0);
  block_scaled_forms<Tcgen05Kind::mxf4nvf4, Tcgen05ScaleVec::x2, 2>(d, a_tmem, b, id, sfa, sfb, acc != 0);
  block_scaled_forms<Tcgen05Kind::mxf4nvf4, Tcgen05ScaleVec::x4, 2>(d, a_tmem, b, id, sfa, sfb, acc != 0);
  sparse_forms<Tcgen05Kind::f16, 2>(d, a_tmem, b, sfa, id, acc != 0);
  sparse_forms<Tcgen05Kind::tf32, 2>(d, a_tmem, b, sfa, id, acc != 0);
  sparse_forms<Tcgen05Kind::f8f6f4, 2>(d, a_tmem, b, sfa, id, acc != 0);
  sparse_forms<Tcgen05Kind::i8, 2>(d, a_tmem, b, sfa, id, acc != 0);
}
