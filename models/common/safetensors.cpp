// SPDX-License-Identifier: Apache-2.0
// models/common/safetensors.cpp: mapping and validating a safetensors file. The checks follow the
// format's reference implementation (huggingface/safetensors, tensor.rs): header at most
// 100,000,000 bytes, ranges sorted by offset must tile the data buffer exactly, the byte count
// of each range must equal shape product x element bits / 8.
#include "models/common/safetensors.hpp"

#include <fcntl.h>     // open
#include <sys/mman.h>  // mmap, munmap
#include <sys/stat.h>  // fstat
#include <unistd.h>    // close

#include <algorithm>  // std::sort, std::lower_bound
#include <cerrno>     // errno
#include <cstring>    // std::strerror
#include <numeric>    // std::iota
#include <tuple>      // std::tie

#include "models/common/error.hpp"  // LoadError
#include "models/common/json.hpp"   // parse_json

namespace cute_cpp::models {

namespace {
constexpr char kRuleFile[] = "cute-cpp [safetensors.file]: the file must exist and be mappable";
constexpr char kRuleHeaderLength[] =
    "cute-cpp [safetensors.header-length]: the 8-byte header length N must be at most 100,000,000 and 8 + N must fit "
    "in the file";
constexpr char kRuleHeader[] = "cute-cpp [safetensors.header]: the header must be one JSON object";
constexpr char kRuleEntry[] =
    "cute-cpp [safetensors.entry]: a tensor entry holds exactly dtype (a string), shape (non-negative integers) and "
    "data_offsets (two non-negative integers)";
constexpr char kRuleDtype[] =
    "cute-cpp [safetensors.dtype]: a tensor's dtype must be one the safetensors format defines";
constexpr char kRuleDuplicate[] = "cute-cpp [safetensors.duplicate-name]: tensor names must be unique in a file";
constexpr char kRuleShape[] =
    "cute-cpp [safetensors.shape]: shape product x dtype size must equal the data_offsets span, in whole bytes";
constexpr char kRuleOffsets[] =
    "cute-cpp [safetensors.offsets]: data_offsets [begin, end) must have begin <= end <= the data buffer's size";
constexpr char kRuleOverlap[] = "cute-cpp [safetensors.overlap]: no two tensors may share bytes of the data buffer";
constexpr char kRuleCoverage[] =
    "cute-cpp [safetensors.coverage]: the tensors must cover the data buffer exactly, with no gap and nothing after "
    "the last";
constexpr char kRuleMetadata[] =
    "cute-cpp [safetensors.metadata]: __metadata__ must map strings to strings, each key once";
constexpr char kRuleMissing[] = "cute-cpp [safetensors.missing]: a tensor looked up by name must be in the file";

constexpr std::uint64_t kMaxHeader = 100'000'000;

struct DtypeRow {
  Dtype dtype;
  std::string_view name;
  int bits;
};
constexpr DtypeRow kDtypes[] = {
    {Dtype::BOOL, "BOOL", 8},       {Dtype::U8, "U8", 8},           {Dtype::I8, "I8", 8},
    {Dtype::F8_E5M2, "F8_E5M2", 8}, {Dtype::F8_E4M3, "F8_E4M3", 8}, {Dtype::F8_E8M0, "F8_E8M0", 8},
    {Dtype::I16, "I16", 16},        {Dtype::U16, "U16", 16},        {Dtype::F16, "F16", 16},
    {Dtype::BF16, "BF16", 16},      {Dtype::I32, "I32", 32},        {Dtype::U32, "U32", 32},
    {Dtype::F32, "F32", 32},        {Dtype::F64, "F64", 64},        {Dtype::I64, "I64", 64},
    {Dtype::U64, "U64", 64},        {Dtype::C64, "C64", 64},        {Dtype::F4, "F4", 4},
    {Dtype::F6_E2M3, "F6_E2M3", 6}, {Dtype::F6_E3M2, "F6_E3M2", 6},
};

std::string shape_text(const std::vector<std::int64_t>& shape) {
  std::string s = "[";
  for (std::size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + "]";
}

std::string range_text(std::uint64_t b, std::uint64_t e) {
  return "[" + std::to_string(b) + ", " + std::to_string(e) + ")";
}

std::string known_dtypes() {
  std::string s;
  for (auto const& row : kDtypes) s += (s.empty() ? "" : ", ") + std::string(row.name);
  return s;
}

// An entry's non-negative integer, with the entry's own wording for a wrong type.
std::uint64_t non_negative(const Json& v, const std::string& where) {
  if (v.kind() != Json::Kind::integer || v.as_int() < 0)
    throw LoadError(kRuleEntry,
                    where + " must be a non-negative integer, is " +
                        (v.kind() == Json::Kind::integer ? std::to_string(v.as_int()) : std::string(v.kind_text())));
  return static_cast<std::uint64_t>(v.as_int());
}

TensorInfo parse_entry(const std::string& file, const std::string& name, const Json& entry) {
  std::string const who = file + ": tensor " + in_quotes(name);
  if (!entry.is_object())
    throw LoadError(kRuleEntry, who + " is " + std::string(entry.kind_text()) + ", expected an object");
  const Json* dtype = nullptr;
  const Json* shape = nullptr;
  const Json* offsets = nullptr;
  for (auto const& [key, value] : entry.as_object()) {
    const Json** slot = key == "dtype" ? &dtype : key == "shape" ? &shape : key == "data_offsets" ? &offsets : nullptr;
    if (slot == nullptr)
      throw LoadError(kRuleEntry,
                      who + ": unexpected key " + in_quotes(key) + " (an entry holds dtype, shape and data_offsets)");
    if (*slot != nullptr) throw LoadError(kRuleEntry, who + ": key " + in_quotes(key) + " appears twice");
    *slot = &value;
  }
  for (auto [key, value] : {std::pair{"dtype", dtype}, std::pair{"shape", shape}, std::pair{"data_offsets", offsets}})
    if (value == nullptr) throw LoadError(kRuleEntry, who + ": " + in_quotes(key) + " is missing");

  TensorInfo t;
  t.name = name;
  if (!dtype->is_string())
    throw LoadError(kRuleEntry, who + ": \"dtype\" is " + std::string(dtype->kind_text()) + ", expected a string");
  auto const dt = parse_dtype(dtype->as_string());
  if (!dt)
    throw LoadError(kRuleDtype,
                    who + ": unknown dtype " + in_quotes(dtype->as_string()) + " (known: " + known_dtypes() + ")");
  t.dtype = *dt;

  if (!shape->is_array())
    throw LoadError(kRuleEntry, who + ": \"shape\" is " + std::string(shape->kind_text()) + ", expected an array");
  for (std::size_t i = 0; i < shape->size(); ++i)
    t.shape.push_back(
        static_cast<std::int64_t>(non_negative(shape->at(i), who + ": \"shape\"[" + std::to_string(i) + "]")));

  if (!offsets->is_array() || offsets->size() != 2)
    throw LoadError(kRuleEntry, who + ": \"data_offsets\" must be an array of two integers [begin, end]");
  t.begin = non_negative(offsets->at(std::size_t{0}), who + ": \"data_offsets\"[0]");
  t.end = non_negative(offsets->at(std::size_t{1}), who + ": \"data_offsets\"[1]");
  if (t.begin > t.end)
    throw LoadError(kRuleOffsets, who + ": data_offsets " + range_text(t.begin, t.end) + " end before they begin");

  // NOTE: the product is formed with overflow checks: a hostile shape must not wrap to a small size.
  std::uint64_t elements = 1;
  bool overflow = false;
  for (auto const d : t.shape) overflow |= __builtin_mul_overflow(elements, static_cast<std::uint64_t>(d), &elements);
  std::uint64_t bits = 0;
  overflow |= __builtin_mul_overflow(elements, static_cast<std::uint64_t>(dtype_bits(t.dtype)), &bits);
  std::string const of = "shape " + shape_text(t.shape) + " of " + std::string(dtype_name(t.dtype));
  if (overflow) throw LoadError(kRuleShape, who + ": " + of + " has more bytes than 64 bits can count");
  if (bits % 8 != 0)
    throw LoadError(kRuleShape, who + ": " + of + " is " + std::to_string(bits) + " bits, not a whole number of bytes");
  if (bits / 8 != t.bytes())
    throw LoadError(kRuleShape, who + ": " + of + " is " + std::to_string(bits / 8) + " bytes, data_offsets span " +
                                    std::to_string(t.bytes()));
  return t;
}
}  // namespace

// ---- dtypes ----

std::string_view dtype_name(Dtype dtype) noexcept {
  for (auto const& row : kDtypes)
    if (row.dtype == dtype) return row.name;
  return "?";
}
int dtype_bits(Dtype dtype) noexcept {
  for (auto const& row : kDtypes)
    if (row.dtype == dtype) return row.bits;
  return 0;
}
std::optional<Dtype> parse_dtype(std::string_view name) noexcept {
  for (auto const& row : kDtypes)
    if (row.name == name) return row.dtype;
  return std::nullopt;
}

std::int64_t TensorInfo::numel() const noexcept {
  std::int64_t n = 1;
  for (auto const d : shape) n *= d;
  return n;
}

// ---- SafetensorsFile ----

SafetensorsFile::SafetensorsFile(SafetensorsFile&& other) noexcept { *this = std::move(other); }

SafetensorsFile& SafetensorsFile::operator=(SafetensorsFile&& other) noexcept {
  if (this != &other) {
    release();
    path_ = std::move(other.path_);
    map_ = std::exchange(other.map_, nullptr);
    size_ = std::exchange(other.size_, 0);
    data_offset_ = other.data_offset_;
    tensors_ = std::move(other.tensors_);
    by_name_ = std::move(other.by_name_);
    metadata_ = std::move(other.metadata_);
  }
  return *this;
}

SafetensorsFile::~SafetensorsFile() { release(); }

void SafetensorsFile::release() noexcept {
  if (map_ != nullptr) munmap(map_, size_);
  map_ = nullptr;
}

SafetensorsFile SafetensorsFile::open(const std::filesystem::path& path) {
  std::string const file = path.filename().string();
  SafetensorsFile f;
  f.path_ = path;

  int const fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw LoadError(kRuleFile, path.string() + ": cannot open: " + std::strerror(errno));
  struct stat st {};
  if (fstat(fd, &st) != 0) {
    int const err = errno;
    ::close(fd);
    throw LoadError(kRuleFile, path.string() + ": cannot stat: " + std::strerror(err));
  }
  if (!S_ISREG(st.st_mode)) {
    ::close(fd);
    throw LoadError(kRuleFile, path.string() + ": not a regular file");
  }
  auto const size = static_cast<std::uint64_t>(st.st_size);
  if (size < 8) {
    ::close(fd);
    throw LoadError(kRuleHeaderLength,
                    file + ": the file is " + std::to_string(size) + " bytes, shorter than the 8-byte header length");
  }
  void* map = mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
  int const err = errno;
  ::close(fd);  // the mapping keeps the file alive
  if (map == MAP_FAILED) throw LoadError(kRuleFile, path.string() + ": cannot map: " + std::strerror(err));
  f.map_ = map;
  f.size_ = size;
  auto const* bytes = static_cast<const unsigned char*>(map);

  std::uint64_t n = 0;
  for (int i = 7; i >= 0; --i) n = (n << 8) | bytes[i];
  if (n > kMaxHeader)
    throw LoadError(kRuleHeaderLength,
                    file + ": header length " + std::to_string(n) + " is more than the limit of 100000000");
  if (8 + n > size)
    throw LoadError(kRuleHeaderLength, file + ": header length " + std::to_string(n) +
                                           " runs past the end of the file (" + std::to_string(size) + " bytes)");
  f.data_offset_ = 8 + n;
  std::uint64_t const data_size = size - f.data_offset_;

  Json header;
  try {
    JsonLimits limits;
    limits.allow_duplicate_keys = true;
    header = parse_json(std::string_view(reinterpret_cast<const char*>(bytes + 8), n), file + " header", limits);
  } catch (const LoadError& e) {
    throw LoadError(kRuleHeader, e.detail());  // "<file> header:<line>:<column>: <what>"
  }
  if (!header.is_object())
    throw LoadError(kRuleHeader, file + ": the header is " + std::string(header.kind_text()) + ", expected an object");

  bool seen_metadata = false;
  for (auto const& [name, entry] : header.as_object()) {
    if (name == "__metadata__") {
      if (seen_metadata) throw LoadError(kRuleMetadata, file + ": \"__metadata__\" appears twice");
      seen_metadata = true;
      if (!entry.is_object())
        throw LoadError(kRuleMetadata,
                        file + ": \"__metadata__\" is " + std::string(entry.kind_text()) + ", expected an object");
      for (auto const& [key, value] : entry.as_object()) {
        if (!value.is_string())
          throw LoadError(kRuleMetadata, file + ": \"__metadata__\"." + in_quotes(key) + " is " +
                                             std::string(value.kind_text()) + ", expected a string");
        for (auto const& [k, v] : f.metadata_)
          if (k == key)
            throw LoadError(kRuleMetadata, file + ": \"__metadata__\" holds the key " + in_quotes(key) + " twice");
        f.metadata_.emplace_back(key, value.as_string());
      }
      continue;
    }
    f.tensors_.push_back(parse_entry(file, name, entry));
  }

  f.by_name_.resize(f.tensors_.size());
  std::iota(f.by_name_.begin(), f.by_name_.end(), std::size_t{0});
  auto const by_name = [&](std::size_t a, std::size_t b) { return f.tensors_[a].name < f.tensors_[b].name; };
  std::stable_sort(f.by_name_.begin(), f.by_name_.end(), by_name);
  for (std::size_t i = 1; i < f.by_name_.size(); ++i)
    if (f.tensors_[f.by_name_[i]].name == f.tensors_[f.by_name_[i - 1]].name)
      throw LoadError(kRuleDuplicate,
                      file + ": tensor " + in_quotes(f.tensors_[f.by_name_[i]].name) + " appears twice in the header");

  for (auto const& t : f.tensors_)
    if (t.end > data_size)
      throw LoadError(kRuleOffsets, file + ": tensor " + in_quotes(t.name) + ": data_offsets " +
                                        range_text(t.begin, t.end) + " reach past the data buffer's " +
                                        std::to_string(data_size) + " bytes");

  std::sort(f.tensors_.begin(), f.tensors_.end(), [](const TensorInfo& a, const TensorInfo& b) {
    return std::tie(a.begin, a.end, a.name) < std::tie(b.begin, b.end, b.name);
  });
  std::uint64_t covered = 0;
  const TensorInfo* previous = nullptr;
  for (auto const& t : f.tensors_) {
    if (t.begin < covered)
      throw LoadError(kRuleOverlap, file + ": tensor " + in_quotes(t.name) + " at " + range_text(t.begin, t.end) +
                                        " overlaps tensor " + in_quotes(previous->name) + " at " +
                                        range_text(previous->begin, previous->end));
    if (t.begin > covered)
      throw LoadError(kRuleCoverage,
                      file + ": bytes " + range_text(covered, t.begin) + " of the data buffer belong to no tensor");
    covered = t.end;
    if (t.end > t.begin) previous = &t;
  }
  if (covered != data_size)
    throw LoadError(kRuleCoverage,
                    file + ": bytes " + range_text(covered, data_size) + " of the data buffer belong to no tensor");

  for (auto& t : f.tensors_) t.data = reinterpret_cast<const std::byte*>(bytes + f.data_offset_ + t.begin);
  std::iota(f.by_name_.begin(), f.by_name_.end(), std::size_t{0});
  std::sort(f.by_name_.begin(), f.by_name_.end(), by_name);
  return f;
}

const TensorInfo* SafetensorsFile::find(std::string_view name) const noexcept {
  auto const it = std::lower_bound(by_name_.begin(), by_name_.end(), name,
                                   [&](std::size_t i, std::string_view n) { return tensors_[i].name < n; });
  if (it == by_name_.end() || tensors_[*it].name != name) return nullptr;
  return &tensors_[*it];
}

const TensorInfo& SafetensorsFile::at(std::string_view name) const {
  if (auto const* t = find(name)) return *t;
  throw LoadError(kRuleMissing, path_.filename().string() + ": no tensor " + in_quotes(name) + " (the file holds " +
                                    std::to_string(tensors_.size()) + " tensors)");
}

}  // namespace cute_cpp::models
