// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// TensorMapCache: the last descriptors of one element and shared-tile type that a thread encoded,
// keyed by everything else the encoding reads (the address, the extents and the strides). A
// kernel called again on the same tensors (a loop of calls from Python, a benchmark) copies a
// cached 128-byte descriptor instead of asking the driver to encode it again. The encoding is a
// pure function of the key and the types, so a hit is exactly what a fresh encoding would give.
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>

namespace cute_cpp::host {

/// What a tensor map's encoding reads besides the types: cuTensorMapEncodeTiled's arguments.
struct TensorMapKey {
  void const* address = nullptr;
  std::uint32_t rank = 0;
  std::array<std::uint64_t, 5> dims{};
  std::array<std::uint64_t, 4> byte_strides{};
  friend bool operator==(TensorMapKey const&, TensorMapKey const&) = default;
};

/// The last `Ways` descriptors encoded, replaced in turn.
template <std::size_t Bytes, std::size_t Ways = 16>
class TensorMapCache {
 public:
  /// The descriptor for `key`: a copy of the cached one, or encode(out) stored first.
  template <class Encode>
  void find_or_encode(TensorMapKey const& key, std::byte (&out)[Bytes], Encode&& encode) {
    for (std::size_t i = 0; i < used_; ++i) {
      if (entries_[i].key == key) {
        std::memcpy(out, entries_[i].bytes, Bytes);
        return;
      }
    }
    encode(out);  // throws before anything is stored
    Entry& e = entries_[next_];
    e.key = key;
    std::memcpy(e.bytes, out, Bytes);
    next_ = (next_ + 1) % Ways;
    if (used_ < Ways) ++used_;
  }

  [[nodiscard]] std::size_t size() const noexcept { return used_; }

 private:
  struct Entry {
    TensorMapKey key;
    std::byte bytes[Bytes];
  };
  std::array<Entry, Ways> entries_{};
  std::size_t used_ = 0, next_ = 0;
};

}  // namespace cute_cpp::host
