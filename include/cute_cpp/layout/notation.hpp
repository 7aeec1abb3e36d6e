// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// cute_cpp/layout/notation.hpp: CuTe C++ notation for values (host only): printing and parsing of
// int tuples `(4,(2,_3))`, layouts `(4,(2,3)):(1,(8,4))`, tilers `(3:4,8,_)`, swizzles
// `Sw<3,4,3>` and composed layouts `Sw<3,4,3> o 0 o (8,64):(64,1)`. `_N` marks a static integer,
// `_` alone is the slice/tiler marker. Parse errors name the position (layout.notation.syntax).
#include <stdexcept>    // std::invalid_argument
#include <string>       // std::string
#include <string_view>  // std::string_view
#include <vector>       // std::vector
#include <cute_cpp/layout/engine.hpp>  // LV, DynTuple

namespace cute_cpp {

/// Swizzle parameters as values (run-time form of Swizzle<B, M, S>).
struct SwizzleV {
  int bits = 0;
  int base = 0;
  int shift = 0;
  /// offset ^ ((offset & yyy_mask) >> shift), with a negative shift going left.
  CUTE_CPP_HD constexpr long long operator()(long long offset) const noexcept {
    long long bit_msk = (1LL << bits) - 1;
    long long yyy = bit_msk << (base + (shift > 0 ? shift : 0));
    long long sel = offset & yyy;
    return offset ^ (shift >= 0 ? (sel >> shift) : (sel << -shift));
  }
};

/// A composed layout as values: i -> sw(offset + layout(i)).
struct ComposedV {
  SwizzleV swizzle;
  IV offset;
  LV layout;
};

namespace notation {

inline void print_tuple(std::string& out, DynTuple const& t, int i, bool marks) {
  DynNode const& nd = t.node[i];
  if (nd.kind < 0) {
    if (nd.flags & flag_underscore) {
      out += '_';
      return;
    }
    if (marks && (nd.flags & flag_static)) out += '_';
    out += std::to_string(nd.v);
    if (nd.tag >= 0) out += "@" + std::to_string(int(nd.tag));
    return;
  }
  out += '(';
  for (int k = 0; k < nd.kind; ++k) {
    if (k) out += ',';
    print_tuple(out, t, dt::child_pos(t, i, k), marks);
  }
  out += ')';
}
inline void print_layout(std::string& out, LV const& l, bool marks) {
  if (l.shape.is_tiler()) {
    out += '(';
    for (int k = 0; k < l.shape.rank(); ++k) {
      if (k) out += ',';
      print_layout(out, eng::mode(l, k), marks);
    }
    out += ')';
    return;
  }
  if (l.shape.is_underscore()) {
    out += '_';
    return;
  }
  print_tuple(out, l.shape, 0, marks);
  out += ':';
  print_tuple(out, l.stride, 0, marks);
}

[[noreturn]] inline void syntax_error(std::string_view text, std::size_t pos, char const* what) {
  throw std::invalid_argument("cute-cpp [layout.notation.syntax]: at position " + std::to_string(pos) +
                              " of \"" + std::string(text) + "\": " + what);
}

class Parser {
 public:
  explicit Parser(std::string_view text) : s_(text) {}

  void skip_ws() {
    while (pos_ < s_.size() && (s_[pos_] == ' ' || s_[pos_] == '\t')) ++pos_;
  }
  bool peek(char c) {
    skip_ws();
    return pos_ < s_.size() && s_[pos_] == c;
  }
  void expect(char c, char const* what) {
    if (!peek(c)) syntax_error(s_, pos_, what);
    ++pos_;
  }
  bool at_end() {
    skip_ws();
    return pos_ == s_.size();
  }
  void expect_end() {
    if (!at_end()) syntax_error(s_, pos_, "unexpected text after the end");
  }
  std::size_t pos() const { return pos_; }
  void set_pos(std::size_t p) { pos_ = p; }
  std::string_view text() const { return s_; }

  /// int := '_'? '-'? [0-9]+ ; also '_' alone when allow_underscore.
  DynTuple parse_leaf(bool allow_underscore) {
    skip_ws();
    bool stat = false;
    std::size_t start = pos_;
    if (pos_ < s_.size() && s_[pos_] == '_') {
      stat = true;
      ++pos_;
      if (pos_ == s_.size() || !(s_[pos_] == '-' || (s_[pos_] >= '0' && s_[pos_] <= '9'))) {
        if (!allow_underscore) syntax_error(s_, start, "expected an integer, not '_'");
        return dt::underscore();
      }
    }
    bool neg = false;
    if (pos_ < s_.size() && s_[pos_] == '-') {
      neg = true;
      ++pos_;
    }
    if (pos_ == s_.size() || s_[pos_] < '0' || s_[pos_] > '9')
      syntax_error(s_, pos_, "expected an integer or '('");
    long long v = 0;
    while (pos_ < s_.size() && s_[pos_] >= '0' && s_[pos_] <= '9') {
      if (v > (1LL << 58)) syntax_error(s_, start, "integer too large");
      v = v * 10 + (s_[pos_++] - '0');
    }
    int tag = -1;
    if (pos_ < s_.size() && s_[pos_] == '@') {  // a ScaledBasis stride: v times e_tag
      ++pos_;
      if (pos_ == s_.size() || s_[pos_] < '0' || s_[pos_] > '9') syntax_error(s_, pos_, "expected an axis after '@'");
      tag = 0;
      while (pos_ < s_.size() && s_[pos_] >= '0' && s_[pos_] <= '9') {
        tag = tag * 10 + (s_[pos_++] - '0');
        if (tag > 100) syntax_error(s_, start, "axis too large");
      }
    }
    return dt::leaf(IV{neg ? -v : v, stat, tag});
  }
  /// itup := int | '(' [itup (',' itup)*] ')'
  DynTuple parse_tuple(bool allow_underscore) {
    if (!peek('(')) return parse_leaf(allow_underscore);
    std::size_t open = pos_;
    if (++depth_ > DynTuple::capacity) syntax_error(s_, open, "nested too deeply for a DynTuple (capacity 32)");
    ++pos_;
    DynTuple t;
    if (peek(')')) {
      ++pos_;
      --depth_;
      return t;
    }
    while (true) {
      DynTuple c = parse_tuple(allow_underscore);
      dt::push(t, c);
      if (t.overflow) syntax_error(s_, open, "too many nodes for a DynTuple (capacity 32)");
      if (peek(',')) {
        ++pos_;
        continue;
      }
      expect(')', "expected ',' or ')'");
      --depth_;
      return t;
    }
  }
  LV parse_layout() {
    DynTuple sh = parse_tuple(false);
    expect(':', "expected ':' between shape and stride");
    std::size_t stride_pos = pos_;
    DynTuple st = parse_tuple(false);
    if (!dt::congruent(sh, st)) syntax_error(s_, stride_pos, "the stride is not congruent to the shape");
    return {sh, st};
  }
  /// tiler := layout | int | '_' | '(' tiler (',' tiler)* ')'
  LV parse_tiler() {
    skip_ws();
    std::size_t start = pos_;
    int saved_depth = depth_;
    // A layout element: an int tuple followed by ':'.
    try {
      DynTuple sh = parse_tuple(false);
      if (peek(':')) {
        ++pos_;
        std::size_t stride_pos = pos_;
        DynTuple st = parse_tuple(false);
        if (!dt::congruent(sh, st)) syntax_error(s_, stride_pos, "the stride is not congruent to the shape");
        return {sh, st};
      }
      if (sh.is_leaf()) return {sh, dt::leaf(1, true)};
    } catch (std::invalid_argument const&) {
      if (pos_ > start && s_.substr(start, pos_ - start).find(':') != std::string_view::npos) throw;
    }
    pos_ = start;
    depth_ = saved_depth;
    if (peek('_')) {
      DynTuple u = parse_leaf(true);
      if (u.is_underscore()) return {u, u};
      pos_ = start;
    }
    if (!peek('(')) {
      DynTuple x = parse_leaf(false);
      if (peek(':')) {
        pos_ = start;
        return parse_layout();
      }
      return {x, dt::leaf(1, true)};
    }
    if (++depth_ > DynTuple::capacity) syntax_error(s_, pos_, "nested too deeply for a DynTuple (capacity 32)");
    ++pos_;
    LV t = eng::lv_tuple();
    while (true) {
      LV c = parse_tiler();
      eng::push(t, c);
      if (eng::overflowed(t)) syntax_error(s_, start, "too many nodes for a DynTuple (capacity 32)");
      if (peek(',')) {
        ++pos_;
        continue;
      }
      expect(')', "expected ',' or ')'");
      break;
    }
    --depth_;
    t.shape.node[0].flags = flag_tiler;
    t.stride.node[0].flags = flag_tiler;
    return t;
  }
  long long parse_small_int() {
    DynTuple x = parse_leaf(false);
    return x.node[0].v;
  }
  /// swizzle := 'Sw<' B ',' M ',' S '>'
  SwizzleV parse_swizzle() {
    skip_ws();
    if (s_.substr(pos_, 3) != "Sw<") syntax_error(s_, pos_, "expected 'Sw<'");
    pos_ += 3;
    long long const b = parse_small_int();
    expect(',', "expected ','");
    long long const m = parse_small_int();
    expect(',', "expected ','");
    long long const s = parse_small_int();
    expect('>', "expected '>'");
    // Checked before any sum: the parsed values may be near the limits of long long. The bound of 63
    // keeps every mask and shift of SwizzleV inside a 64-bit offset.
    long long const abs_s = s < 0 ? (s < -63 ? 64 : -s) : s;
    bool const ok = b >= 0 && m >= 0 && abs_s >= b && b <= 63 && m <= 63 && abs_s <= 63 && b + m + abs_s <= 63;
    if (!ok)
      throw std::invalid_argument(std::string(diag::layout_rule_text(diag::LayoutRule::swizzle_params)) +
                                  ": got B=" + std::to_string(b) + ", M=" + std::to_string(m) +
                                  ", S=" + std::to_string(s));
    return SwizzleV{int(b), int(m), int(s)};
  }
  void expect_word(std::string_view w) {
    skip_ws();
    if (s_.substr(pos_, w.size()) != w) syntax_error(s_, pos_, "expected 'o'");
    pos_ += w.size();
  }
  /// composed := swizzle ' o ' int ' o ' layout
  ComposedV parse_composed() {
    ComposedV c;
    c.swizzle = parse_swizzle();
    expect_word("o");
    DynTuple off = parse_leaf(false);
    c.offset = off.value();
    expect_word("o");
    c.layout = parse_layout();
    return c;
  }

 private:
  std::string_view s_;
  std::size_t pos_ = 0;
  int depth_ = 0;
};

}  // namespace notation

// ---- printing ----

/// to_string of a DynTuple: `(4,(_2,3))`; marks=false omits the `_` of static integers.
inline std::string to_string(DynTuple const& t, bool marks = true) {
  std::string out;
  notation::print_tuple(out, t, 0, marks);
  return out;
}
/// to_string of a layout value: `(4,(2,3)):(1,(8,4))`; a tiler prints as `(3:4,8:1)`.
inline std::string to_string(LV const& l, bool marks = true) {
  std::string out;
  notation::print_layout(out, l, marks);
  return out;
}
inline std::string to_string(SwizzleV const& s) {
  return "Sw<" + std::to_string(s.bits) + "," + std::to_string(s.base) + "," + std::to_string(s.shift) + ">";
}
inline std::string to_string(ComposedV const& c, bool marks = true) {
  std::string off = (marks && c.offset.s ? "_" : "") + std::to_string(c.offset.v);
  return to_string(c.swizzle) + " o " + off + " o " + to_string(c.layout, marks);
}

// ---- parsing ----

/// parse_int_tuple("(4,(_2,3))"); `_` is accepted as a leaf (for slice coordinates).
inline DynTuple parse_int_tuple(std::string_view s) {
  notation::Parser p(s);
  DynTuple t = p.parse_tuple(true);
  p.expect_end();
  return t;
}
/// parse_layout_value("(4,(2,3)):(1,(8,4))").
inline LV parse_layout_value(std::string_view s) {
  notation::Parser p(s);
  LV l = p.parse_layout();
  p.expect_end();
  return l;
}
/// parse_tiler("(3:4,8,_)"): a layout, an int n (n:1), `_`, or a by-mode tuple of tilers.
inline LV parse_tiler(std::string_view s) {
  notation::Parser p(s);
  LV t = p.parse_tiler();
  p.expect_end();
  return t;
}
inline SwizzleV parse_swizzle(std::string_view s) {
  notation::Parser p(s);
  SwizzleV sw = p.parse_swizzle();
  p.expect_end();
  return sw;
}
inline ComposedV parse_composed(std::string_view s) {
  notation::Parser p(s);
  ComposedV c = p.parse_composed();
  p.expect_end();
  return c;
}

namespace detail {
/// The offsets of a rank-1 or rank-2 layout as a grid (row = mode 0, column = mode 1; rank 1 is
/// one column), row by row. A higher rank throws std::invalid_argument with `rule` (the caller's
/// "cute-cpp [...]: ..." text, completed by the rank).
struct LayoutGrid {
  long long rows = 0, cols = 0;
  std::vector<long long> values;  ///< rows * cols offsets
  [[nodiscard]] long long at(long long i, long long j) const { return values[std::size_t(i * cols + j)]; }
};
inline LayoutGrid layout_grid(LV const& l, char const* rule) {
  if (l.shape.rank() > 2) throw std::invalid_argument(std::string(rule) + std::to_string(l.shape.rank()));
  LayoutGrid g;
  g.rows = dt::product(dt::get(l.shape, 0)).v;
  g.cols = l.shape.rank() >= 2 ? dt::product(dt::get(l.shape, 1)).v : 1;
  diag::LayoutError e;
  g.values.reserve(std::size_t(g.rows * g.cols));
  for (long long i = 0; i < g.rows; ++i)
    for (long long j = 0; j < g.cols; ++j) {
      DynTuple c = l.shape.rank() >= 2 ? dt::pair(dt::leaf(i, false), dt::leaf(j, false)) : dt::leaf(i, false);
      g.values.push_back(eng::eval(l, c, e).v);
    }
  return g;
}
}  // namespace detail

}  // namespace cute_cpp
