// cute-cpp-archs: 90a
// The layout headers in device code: static results as types, dynamic layouts evaluated on the device.
#include <cute_cpp/layout/layout.hpp>
#include <cute_cpp/layout/swizzle.hpp>

namespace cc = cute_cpp;

using SmemA = cc::ComposedLayout<cc::Swizzle<3, 3, 3>, 0, cc::RowMajor<128, 64>>;
using Tiled = decltype(cc::zipped_divide(cc::RowMajor<128, 64>{}, cc::Tile<cc::C<16>, cc::C<8>>{}));
static_assert(cc::is_static_v<Tiled>);
static_assert(decltype(cc::size(Tiled{}))::value == 128 * 64);
static_assert(std::is_same_v<decltype(cc::composition(cc::RowMajor<4, 8>{}, cc::Layout<cc::Shape<cc::C<2>, cc::C<4>>, cc::Stride<cc::C<1>, cc::C<4>>>{})),
                             cc::Layout<cc::Shape<cc::C<2>, cc::C<4>>, cc::Stride<cc::C<8>, cc::C<1>>>>);

__global__ void kernel(int* out, int m, int k) {
  auto gA = cc::make_layout(cc::make_shape(m, k), cc::make_stride(k, cc::C<1>{}));  // (M,K)
  int t = threadIdx.x;
  out[t] = int(gA(t % m, t / m)) + int(SmemA{}(t % 128, t / 128));
  out[t] += int(cc::size(gA)) + int(decltype(cc::cosize(Tiled{}))::value);
  // Run-time extents divided by static tiles stay typed (no engine, no stack).
  auto gT = cc::local_tile(gA, cc::Tile<cc::C<16>, cc::C<8>>{}, cc::make_coord(int(blockIdx.x), 0));  // (16,8)
  static_assert(std::is_same_v<decltype(gT), cc::Layout<cc::Shape<cc::C<16>, cc::C<8>>, cc::Stride<int, cc::C<1>>>>);
  auto tT = cc::local_partition(gA, cc::RowMajor<4, 8>{}, t);  // (M/4,K/8)
  out[t] += int(gT(t % 128)) + int(cc::local_tile_offset(gA, cc::Tile<cc::C<16>, cc::C<8>>{}, cc::make_coord(int(blockIdx.x), 0))) +
            int(tT(0)) + int(cc::local_partition_offset(gA, cc::RowMajor<4, 8>{}, t));
  // A tile with a run-time leading dimension composed with a static thread/value layout: typed.
  using TV = cc::Layout<cc::Shape<cc::Shape<cc::C<4>, cc::C<8>>, cc::Shape<cc::C<2>, cc::C<2>>>,
                        cc::Stride<cc::Stride<cc::C<256>, cc::C<1>>, cc::Stride<cc::C<128>, cc::C<8>>>>;
  auto sA = cc::make_layout(cc::Shape<cc::C<128>, cc::C<64>>{}, cc::make_stride(k, cc::C<1>{}));  // (BM,BK)
  auto tA = cc::composition(sA, TV{});  // ((T),(V))
  out[t] += int(tA(t % 32, 0));
  // Predicates for a partial tile: the identity layout partitioned like the data.
  auto cA = cc::make_identity_layout(cc::make_shape(m, k));                            // (M,K) -> (m,k)
  auto cT = cc::local_tile(cA, cc::Tile<cc::C<16>, cc::C<8>>{}, cc::make_coord(int(blockIdx.x), 0));  // (16,8)
  auto c0 = cc::local_tile_offset(cA, cc::Tile<cc::C<16>, cc::C<8>>{}, cc::make_coord(int(blockIdx.x), 0));
  auto mk = cT(t % 16, t / 16 % 8);
  out[t] += (cc::get<0>(mk) + cc::get<0>(c0) < m) ? 1 : 0;
  // A dynamic algebra op on the device runs the value engine (heavier code; prefer static layouts).
  auto c = cc::coalesce(cc::make_layout(cc::make_shape(m, 4), cc::make_stride(1, m)));  // (M*4):(1)
  out[t] += int(c(t));
}
