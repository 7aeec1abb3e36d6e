// SPDX-License-Identifier: Apache-2.0
// models/common/json.cpp: the parser behind parse_json and the typed accessors of Json.
#include "models/common/json.hpp"

#include <algorithm>  // std::sort
#include <charconv>   // std::from_chars
#include <cstdio>     // std::snprintf
#include <fstream>    // std::ifstream
#include <numeric>    // std::iota
#include <system_error>

#include "models/common/error.hpp"  // LoadError

namespace cute_cpp::models {

namespace {
constexpr char kRuleSyntax[] = "cute-cpp [json.syntax]: the text must be one RFC 8259 JSON value in UTF-8";
constexpr char kRuleType[] = "cute-cpp [json.type]: a value read as one JSON type must have that type";
constexpr char kRuleMissing[] = "cute-cpp [json.missing]: a required key or array element must be present";
constexpr char kRuleDuplicate[] = "cute-cpp [json.duplicate-key]: an object's keys must be unique";
constexpr char kRuleDepth[] =
    "cute-cpp [json.depth]: arrays and objects may nest only as deep as JsonLimits::max_depth";
constexpr char kRuleSize[] = "cute-cpp [json.size]: a document may be at most JsonLimits::max_bytes long";
constexpr char kRuleFile[] = "cute-cpp [json.file]: the JSON file must exist and be readable";

}  // namespace

// ---- Json accessors ----

std::string_view Json::kind_name(Kind kind) noexcept {
  switch (kind) {
    case Kind::null:
      return "null";
    case Kind::boolean:
      return "a boolean";
    case Kind::integer:
      return "an integer";
    case Kind::number:
      return "a number with a fraction or exponent";
    case Kind::string:
      return "a string";
    case Kind::array:
      return "an array";
    case Kind::object:
      return "an object";
  }
  return "?";
}

const std::string& Json::source() const {
  static const std::string unnamed = "(unnamed)";
  return source_ ? *source_ : unnamed;
}

std::string Json::where() const { return path_.empty() ? std::string("the document") : path_; }

std::string_view Json::kind_text() const noexcept {
  return integer_out_of_range_ ? "an integer outside the 64-bit range" : kind_name(kind());
}

void Json::type_error(std::string_view expected) const {
  throw LoadError(
      kRuleType, source() + ": " + where() + " is " + std::string(kind_text()) + ", expected " + std::string(expected));
}

bool Json::as_bool() const {
  if (kind() != Kind::boolean) type_error("a boolean");
  return std::get<bool>(value_);
}
std::int64_t Json::as_int() const {
  if (kind() != Kind::integer) type_error("an integer");
  return std::get<std::int64_t>(value_);
}
double Json::as_double() const {
  if (kind() == Kind::integer) return static_cast<double>(std::get<std::int64_t>(value_));
  if (kind() != Kind::number) type_error("a number");
  return std::get<double>(value_);
}
const std::string& Json::as_string() const {
  if (kind() != Kind::string) type_error("a string");
  return std::get<std::string>(value_);
}
const Json::Array& Json::as_array() const {
  if (kind() != Kind::array) type_error("an array");
  return std::get<Array>(value_);
}
const Json::Object& Json::as_object() const {
  if (kind() != Kind::object) type_error("an object");
  return std::get<Object>(value_);
}
const Json* Json::find(std::string_view key) const {
  for (auto const& [k, v] : as_object())
    if (k == key) return &v;
  return nullptr;
}
const Json& Json::at(std::string_view key) const {
  if (auto const* v = find(key)) return *v;
  std::string const in = path_.empty() ? std::string() : " in " + path_;
  throw LoadError(kRuleMissing, source() + ": " + in_quotes(key) + " is missing" + in);
}
const Json& Json::at(std::size_t i) const {
  auto const& a = as_array();
  if (i >= a.size())
    throw LoadError(kRuleMissing, source() + ": " + where() + " has " + std::to_string(a.size()) +
                                      " elements, element " + std::to_string(i) + " is missing");
  return a[i];
}
std::size_t Json::size() const {
  if (kind() == Kind::array) return std::get<Array>(value_).size();
  if (kind() == Kind::object) return std::get<Object>(value_).size();
  type_error("an array or an object");
}

// ---- the parser ----

class JsonParser {
 public:
  JsonParser(std::string_view text, std::string_view source, JsonLimits limits)
      : text_(text), source_(std::make_shared<const std::string>(source)), limits_(limits) {}

  Json parse() {
    if (text_.size() > limits_.max_bytes)
      throw LoadError(kRuleSize, *source_ + ": " + std::to_string(text_.size()) + " bytes, more than the limit of " +
                                     std::to_string(limits_.max_bytes));
    Json root;
    skip_whitespace();
    value(root, std::string(), 0);
    skip_whitespace();
    if (pos_ != text_.size()) syntax_error(pos_, "unexpected " + describe(pos_) + " after the JSON value");
    return root;
  }

 private:
  [[noreturn]] void syntax_error(std::size_t at, const std::string& what) const { fail(kRuleSyntax, at, what); }
  [[noreturn]] void fail(const char* rule, std::size_t at, const std::string& what) const {
    std::size_t line = 1, line_start = 0;
    for (std::size_t i = 0; i < at && i < text_.size(); ++i)
      if (text_[i] == '\n') ++line, line_start = i + 1;
    throw LoadError(rule,
                    *source_ + ":" + std::to_string(line) + ":" + std::to_string(at - line_start + 1) + ": " + what);
  }
  std::string describe(std::size_t at) const {
    if (at >= text_.size()) return "end of input";
    auto const c = static_cast<unsigned char>(text_[at]);
    char buf[32];
    if (c >= 0x20 && c < 0x7f)
      std::snprintf(buf, sizeof buf, "'%c'", c);
    else
      std::snprintf(buf, sizeof buf, "byte 0x%02x", c);
    return buf;
  }
  bool at_end() const { return pos_ >= text_.size(); }
  char peek() const { return at_end() ? '\0' : text_[pos_]; }
  void skip_whitespace() {
    while (!at_end() && (text_[pos_] == ' ' || text_[pos_] == '\t' || text_[pos_] == '\n' || text_[pos_] == '\r'))
      ++pos_;
  }
  void expect_literal(std::string_view word) {
    if (text_.substr(pos_, word.size()) != word)
      syntax_error(pos_, "unexpected " + describe(pos_) + ", expected a JSON value");
    pos_ += word.size();
  }
  Json make(std::string path) const {
    Json j;
    j.path_ = std::move(path);
    j.source_ = source_;
    return j;
  }

  void value(Json& out, std::string path, int depth) {
    out = make(std::move(path));
    if (at_end()) syntax_error(pos_, "unexpected end of input, expected a JSON value");
    switch (peek()) {
      case '{':
        object(out, depth + 1);
        return;
      case '[':
        array(out, depth + 1);
        return;
      case '"':
        out.value_ = string();
        return;
      case 't':
        expect_literal("true");
        out.value_ = true;
        return;
      case 'f':
        expect_literal("false");
        out.value_ = false;
        return;
      case 'n':
        expect_literal("null");
        return;
      default:
        if (peek() == '-' || (peek() >= '0' && peek() <= '9')) {
          number(out);
          return;
        }
        syntax_error(pos_, "unexpected " + describe(pos_) + ", expected a JSON value");
    }
  }

  void check_depth(int depth) const {
    if (depth > limits_.max_depth)
      fail(kRuleDepth, pos_, "arrays and objects nested more than " + std::to_string(limits_.max_depth) + " deep");
  }

  void object(Json& out, int depth) {
    check_depth(depth);
    std::size_t const open = pos_++;
    Json::Object members;
    std::vector<std::size_t> key_at;
    skip_whitespace();
    if (peek() == '}') {
      ++pos_;
      out.value_ = std::move(members);
      return;
    }
    for (;;) {
      skip_whitespace();
      if (peek() != '"') syntax_error(pos_, "unexpected " + describe(pos_) + ", expected a string key");
      key_at.push_back(pos_);
      std::string key = string();
      skip_whitespace();
      if (peek() != ':')
        syntax_error(pos_, "unexpected " + describe(pos_) + ", expected ':' after the key " + in_quotes(key));
      ++pos_;
      skip_whitespace();
      std::string child = out.path_.empty() ? in_quotes(key) : out.path_ + "." + in_quotes(key);
      members.emplace_back(std::move(key), Json());
      value(members.back().second, std::move(child), depth);
      skip_whitespace();
      if (peek() == ',') {
        ++pos_;
        continue;
      }
      if (peek() == '}') {
        ++pos_;
        break;
      }
      syntax_error(pos_, "unexpected " + describe(pos_) + ", expected ',' or '}' in the object opened at byte " +
                             std::to_string(open));
    }
    if (limits_.allow_duplicate_keys) {
      out.value_ = std::move(members);
      return;
    }
    // NOTE: sorting indices finds duplicates in O(n log n); index files hold ~20k keys.
    std::vector<std::size_t> order(members.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
      return members[a].first != members[b].first ? members[a].first < members[b].first : a < b;
    });
    for (std::size_t i = 1; i < order.size(); ++i)
      if (members[order[i]].first == members[order[i - 1]].first)
        fail(kRuleDuplicate, key_at[order[i]],
             "duplicate key " + in_quotes(members[order[i]].first) +
                 (out.path_.empty() ? std::string() : " in " + out.path_));
    out.value_ = std::move(members);
  }

  void array(Json& out, int depth) {
    check_depth(depth);
    ++pos_;
    Json::Array elements;
    skip_whitespace();
    if (peek() == ']') {
      ++pos_;
      out.value_ = std::move(elements);
      return;
    }
    for (;;) {
      skip_whitespace();
      elements.emplace_back();
      value(elements.back(), out.path_ + "[" + std::to_string(elements.size() - 1) + "]", depth);
      skip_whitespace();
      if (peek() == ',') {
        ++pos_;
        continue;
      }
      if (peek() == ']') {
        ++pos_;
        break;
      }
      syntax_error(pos_, "unexpected " + describe(pos_) + ", expected ',' or ']'");
    }
    out.value_ = std::move(elements);
  }

  unsigned hex4(std::size_t at) const {
    if (at > text_.size() || text_.size() - at < 4) syntax_error(at, "unexpected end of input in a \\u escape");
    unsigned v = 0;
    for (std::size_t i = 0; i < 4; ++i) {
      char const c = text_[at + i];
      v <<= 4;
      if (c >= '0' && c <= '9')
        v |= unsigned(c - '0');
      else if (c >= 'a' && c <= 'f')
        v |= unsigned(c - 'a' + 10);
      else if (c >= 'A' && c <= 'F')
        v |= unsigned(c - 'A' + 10);
      else
        syntax_error(at + i, "unexpected " + describe(at + i) + " in a \\u escape, expected a hex digit");
    }
    return v;
  }
  static void append_utf8(std::string& s, unsigned cp) {
    if (cp < 0x80) {
      s += char(cp);
    } else if (cp < 0x800) {
      s += char(0xc0 | (cp >> 6));
      s += char(0x80 | (cp & 0x3f));
    } else if (cp < 0x10000) {
      s += char(0xe0 | (cp >> 12));
      s += char(0x80 | ((cp >> 6) & 0x3f));
      s += char(0x80 | (cp & 0x3f));
    } else {
      s += char(0xf0 | (cp >> 18));
      s += char(0x80 | ((cp >> 12) & 0x3f));
      s += char(0x80 | ((cp >> 6) & 0x3f));
      s += char(0x80 | (cp & 0x3f));
    }
  }
  // Length of the well-formed UTF-8 sequence at `at` (Unicode 15, table 3-7), or 0.
  std::size_t utf8_length(std::size_t at) const {
    auto byte = [&](std::size_t i) { return at + i < text_.size() ? static_cast<unsigned char>(text_[at + i]) : 0u; };
    unsigned const b0 = byte(0);
    auto cont = [&](std::size_t i, unsigned lo = 0x80, unsigned hi = 0xbf) { return byte(i) >= lo && byte(i) <= hi; };
    if (b0 >= 0xc2 && b0 <= 0xdf) return cont(1) ? 2 : 0;
    if (b0 == 0xe0) return cont(1, 0xa0) && cont(2) ? 3 : 0;
    if ((b0 >= 0xe1 && b0 <= 0xec) || b0 == 0xee || b0 == 0xef) return cont(1) && cont(2) ? 3 : 0;
    if (b0 == 0xed) return cont(1, 0x80, 0x9f) && cont(2) ? 3 : 0;  // no UTF-16 surrogates
    if (b0 == 0xf0) return cont(1, 0x90) && cont(2) && cont(3) ? 4 : 0;
    if (b0 >= 0xf1 && b0 <= 0xf3) return cont(1) && cont(2) && cont(3) ? 4 : 0;
    if (b0 == 0xf4) return cont(1, 0x80, 0x8f) && cont(2) && cont(3) ? 4 : 0;
    return 0;
  }

  std::string string() {
    std::size_t const open = pos_++;
    std::string s;
    for (;;) {
      if (at_end()) syntax_error(open, "unterminated string");
      auto const c = static_cast<unsigned char>(text_[pos_]);
      if (c == '"') {
        ++pos_;
        return s;
      }
      if (c < 0x20) syntax_error(pos_, "unescaped control character " + describe(pos_) + " in a string");
      if (c >= 0x80) {
        std::size_t const n = utf8_length(pos_);
        if (n == 0) syntax_error(pos_, "invalid UTF-8 (" + describe(pos_) + ") in a string");
        s.append(text_.substr(pos_, n));
        pos_ += n;
        continue;
      }
      if (c != '\\') {
        s += char(c);
        ++pos_;
        continue;
      }
      std::size_t const esc = pos_++;
      if (at_end()) syntax_error(open, "unterminated string");
      switch (text_[pos_++]) {
        case '"':
          s += '"';
          break;
        case '\\':
          s += '\\';
          break;
        case '/':
          s += '/';
          break;
        case 'b':
          s += '\b';
          break;
        case 'f':
          s += '\f';
          break;
        case 'n':
          s += '\n';
          break;
        case 'r':
          s += '\r';
          break;
        case 't':
          s += '\t';
          break;
        case 'u': {
          unsigned cp = hex4(pos_);
          pos_ += 4;
          if (cp >= 0xdc00 && cp <= 0xdfff)
            syntax_error(esc, "a low surrogate \\u escape without a high surrogate before it");
          if (cp >= 0xd800 && cp <= 0xdbff) {
            if (text_.substr(pos_, 2) != "\\u")
              syntax_error(esc, "a high surrogate \\u escape without a low surrogate after it");
            unsigned const lo = hex4(pos_ + 2);
            if (lo < 0xdc00 || lo > 0xdfff)
              syntax_error(pos_, "a high surrogate \\u escape followed by a \\u escape that is not a low surrogate");
            pos_ += 6;
            cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
          }
          append_utf8(s, cp);
          break;
        }
        default:
          syntax_error(esc, "invalid escape \\" + std::string(1, text_[pos_ - 1]) + " in a string");
      }
    }
  }

  void number(Json& out) {
    std::size_t const start = pos_;
    auto digits = [&] {
      std::size_t const from = pos_;
      while (!at_end() && text_[pos_] >= '0' && text_[pos_] <= '9') ++pos_;
      return pos_ - from;
    };
    if (peek() == '-') ++pos_;
    if (peek() == '0') {
      ++pos_;
      if (peek() >= '0' && peek() <= '9') syntax_error(start, "a number with a leading zero");
    } else if (digits() == 0) {
      syntax_error(pos_, "unexpected " + describe(pos_) + ", expected a digit");
    }
    bool integral = true;
    if (peek() == '.') {
      ++pos_;
      integral = false;
      if (digits() == 0) syntax_error(pos_, "unexpected " + describe(pos_) + ", expected a digit after '.'");
    }
    if (peek() == 'e' || peek() == 'E') {
      ++pos_;
      integral = false;
      if (peek() == '+' || peek() == '-') ++pos_;
      if (digits() == 0) syntax_error(pos_, "unexpected " + describe(pos_) + ", expected a digit in the exponent");
    }
    char const* first = text_.data() + start;
    char const* last = text_.data() + pos_;
    if (integral) {
      std::int64_t i = 0;
      auto const r = std::from_chars(first, last, i);
      if (r.ec == std::errc() && r.ptr == last) {
        out.value_ = i;
        return;
      }
      out.integer_out_of_range_ = true;
    }
    double d = 0;
    auto const r = std::from_chars(first, last, d);
    if (r.ec != std::errc() || r.ptr != last)
      syntax_error(start, "the number " + std::string(first, last) + " is outside the range of a double");
    out.value_ = d;
  }

  std::string_view text_;
  std::shared_ptr<const std::string> source_;
  JsonLimits limits_;
  std::size_t pos_ = 0;
};

Json parse_json(std::string_view text, std::string_view source, JsonLimits limits) {
  return JsonParser(text, source, limits).parse();
}

Json read_json_file(const std::filesystem::path& path, JsonLimits limits) {
  std::string const name = path.filename().string();
  std::error_code ec;
  auto const size = std::filesystem::file_size(path, ec);
  if (ec) throw LoadError(kRuleFile, path.string() + ": cannot read: " + ec.message());
  if (size > limits.max_bytes)
    throw LoadError(kRuleSize, name + ": " + std::to_string(size) + " bytes, more than the limit of " +
                                   std::to_string(limits.max_bytes));
  std::ifstream in(path, std::ios::binary);
  std::string text(size, '\0');
  if (!in || !in.read(text.data(), static_cast<std::streamsize>(size)))
    throw LoadError(kRuleFile, path.string() + ": cannot read the file");
  return parse_json(text, name, limits);
}

}  // namespace cute_cpp::models
