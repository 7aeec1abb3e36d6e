// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// cute_cpp/layout/svg.hpp: pictures of layouts as SVG text (host only), the ones CuTeDSL's
// print_latex gives: the grid of a rank-2 layout with the offset in each cell; a swizzle's
// pattern (which 16-byte chunk of a row each element lands in); a thread/value layout over an
// M x N tile, coloured by thread. Used by `cute-cpp layout --svg`.
#include <algorithm>    // std::max
#include <stdexcept>    // std::invalid_argument
#include <string>       // std::string
#include <vector>       // std::vector
#include <cute_cpp/layout/engine.hpp>    // LV, eng::eval
#include <cute_cpp/layout/notation.hpp>  // SwizzleV, ComposedV, to_string

namespace cute_cpp {

namespace svg_detail {
inline std::string colour(long long k) {
  static char const* const palette[] = {"#a6cee3", "#b2df8a", "#fb9a99", "#fdbf6f", "#cab2d6", "#ffff99",
                                        "#8dd3c7", "#bebada", "#fb8072", "#80b1d3", "#fdb462", "#b3de69",
                                        "#fccde5", "#d9d9d9", "#bc80bd", "#ccebc5"};
  return palette[((k % 16) + 16) % 16];
}
inline std::string escape(std::string s) {
  std::string out;
  for (char c : s) {
    if (c == '<') out += "&lt;";
    else if (c == '>') out += "&gt;";
    else if (c == '&') out += "&amp;";
    else out += c;
  }
  return out;
}
struct Cell {
  std::string text;
  long long colour_key;
};
/// A rows x cols grid of cells with row/column headers and a title.
inline std::string grid(std::string const& title, long long rows, long long cols, std::vector<Cell> const& cells,
                        int cell_w = 36, int cell_h = 22) {
  if (rows * cols > 65536)
    throw std::invalid_argument("cute-cpp [layout.svg.size]: the picture would have more than 65536 cells");
  int x0 = 40, y0 = 50;
  long long width = x0 + cols * cell_w + 10, height = y0 + rows * cell_h + 10;
  std::string out = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + std::to_string(width) + "\" height=\"" +
                    std::to_string(height) + "\" font-family=\"monospace\" font-size=\"11\">\n";
  out += "<text x=\"" + std::to_string(x0) + "\" y=\"16\">" + escape(title) + "</text>\n";
  for (long long j = 0; j < cols; ++j)
    out += "<text x=\"" + std::to_string(x0 + j * cell_w + cell_w / 2) + "\" y=\"" + std::to_string(y0 - 6) +
           "\" text-anchor=\"middle\">" + std::to_string(j) + "</text>\n";
  for (long long i = 0; i < rows; ++i) {
    out += "<text x=\"" + std::to_string(x0 - 6) + "\" y=\"" + std::to_string(y0 + i * cell_h + cell_h / 2 + 4) +
           "\" text-anchor=\"end\">" + std::to_string(i) + "</text>\n";
    for (long long j = 0; j < cols; ++j) {
      Cell const& c = cells[std::size_t(i * cols + j)];
      long long x = x0 + j * cell_w, y = y0 + i * cell_h;
      out += "<rect x=\"" + std::to_string(x) + "\" y=\"" + std::to_string(y) + "\" width=\"" + std::to_string(cell_w) +
             "\" height=\"" + std::to_string(cell_h) + "\" fill=\"" + colour(c.colour_key) +
             "\" stroke=\"black\" stroke-width=\"0.5\"/>\n";
      out += "<text x=\"" + std::to_string(x + cell_w / 2) + "\" y=\"" + std::to_string(y + cell_h / 2 + 4) +
             "\" text-anchor=\"middle\">" + escape(c.text) + "</text>\n";
    }
  }
  return out + "</svg>\n";
}
inline detail::LayoutGrid grid_of(LV const& l) {
  return detail::layout_grid(l, "cute-cpp [layout.svg.rank]: a grid picture needs a layout of rank 1 or 2, got rank ");
}
}  // namespace svg_detail

/// The grid of a rank-2 layout (row = mode 0, column = mode 1) with L(i, j) in each cell,
/// coloured by offset.
inline std::string to_svg(LV const& l) {
  detail::LayoutGrid const g = svg_detail::grid_of(l);
  std::vector<svg_detail::Cell> cells;
  for (long long v : g.values) cells.push_back({std::to_string(v), v});
  return svg_detail::grid(to_string(l), g.rows, g.cols, cells);
}
/// A composed layout Sw o off o L (rank 2): each cell holds its swizzled offset, coloured by the
/// 2^M-element chunk of the row it lands in, so conflict-free patterns show as permuted colours.
inline std::string to_svg(ComposedV const& c) {
  detail::LayoutGrid const g = svg_detail::grid_of(c.layout);
  std::vector<svg_detail::Cell> cells;
  for (long long x : g.values) {
    long long v = c.swizzle(c.offset.v + x);
    cells.push_back({std::to_string(v), (v >> c.swizzle.base) & ((1LL << std::max(c.swizzle.bits, 0)) - 1)});
  }
  return svg_detail::grid(to_string(c), g.rows, g.cols, cells);
}
/// A swizzle alone: drawn on the row-major (2^B rows, 2^(M+S) columns) layout it permutes.
inline std::string to_svg(SwizzleV const& s) {
  long long rows = std::max(1LL << s.bits, 8LL);
  long long cols = 1LL << (s.base + (s.shift < 0 ? -s.shift : s.shift));
  LV l{dt::pair(dt::leaf(rows, false), dt::leaf(cols, false)), dt::pair(dt::leaf(cols, false), dt::leaf(1, false))};
  return to_svg(ComposedV{s, {0, true}, l});
}
/// A thread/value layout over an M x N tile (its offsets are column-major indices in the tile):
/// each cell of the tile shows T<thread> V<value>, coloured by thread.
inline std::string to_svg_tv(LV const& tv, long long m, long long n) {
  if (tv.shape.rank() != 2)
    throw std::invalid_argument("cute-cpp [layout.svg.rank]: a thread/value layout has rank 2 (thread, value)");
  detail::LayoutGrid const g = svg_detail::grid_of(tv);  // (thread, value)
  std::vector<svg_detail::Cell> cells(std::size_t(m * n), svg_detail::Cell{"", -1});
  for (long long t = 0; t < g.rows; ++t)
    for (long long v = 0; v < g.cols; ++v) {
      long long off = g.at(t, v);
      if (off < 0 || off >= m * n)
        throw std::invalid_argument("cute-cpp [layout.svg.tv]: thread " + std::to_string(t) + " value " +
                                    std::to_string(v) + " maps to offset " + std::to_string(off) +
                                    ", outside the " + std::to_string(m) + "x" + std::to_string(n) + " tile");
      long long i = off % m, j = off / m;
      cells[std::size_t(i * n + j)] = {"T" + std::to_string(t) + "V" + std::to_string(v), t};
    }
  return svg_detail::grid(to_string(tv) + " over " + std::to_string(m) + "x" + std::to_string(n), m, n, cells, 52);
}

}  // namespace cute_cpp
