// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// cute-cpp: the command-line tool. `cute-cpp layout` evaluates layout-algebra expressions in CuTe
// notation, in batches, and draws their results as SVG pictures.
#include <cute_cpp/layout/expression.hpp>
#include <cute_cpp/layout/notation.hpp>
#include <cute_cpp/layout/svg.hpp>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <string_view>
#include <vector>

namespace {

/// The --help examples, each with how to draw it; `--examples DIR` runs and draws all of them.
struct Example {
  char const* expression;
  char const* draw;  ///< "" (a grid of the result), or "tv M N" (a thread/value layout on M x N)
  char const* what;
};
constexpr Example examples[] = {
    {"logical_divide((8,8):(1,8), (2,4):(1,2))", "", "split an 8x8 layout into 2x4 tiles (tiles, then rests)"},
    {"composition((6,2):(8,2), (4,3):(3,1))", "", "A o B: B's coordinates through A"},
    {"complement((2,2):(1,6), 24)", "", "the layout that fills what (2,2):(1,6) leaves out of 24"},
    {"raked_product((2,2):(1,2), (3,4):(4,1))", "", "each element of A becomes a 3x4 block, interleaved"},
    {"make_layout((4,8))", "", "a compact column-major 4x8 layout"},
    {"Sw<3,3,3> o 0 o (8,64):(64,1)", "", "the 128-byte bf16 swizzle atom TMA and wgmma read (a literal draws itself)"},
    {"print(((4,8),(2,2)):((16,1),(8,64)))", "tv 8 16", "32 threads x 4 values over an 8x16 tile, by thread"},
};

int usage(std::ostream& out, int status) {
  out << "usage: cute-cpp layout 'op(arg, ...)' | 'literal' [--plain] [--svg FILE] [--tv M N]\n"
         "       cute-cpp layout --batch [--plain]      one expression per line of stdin, one result per line\n"
         "       cute-cpp layout --examples DIR         evaluate and draw the examples below into DIR\n"
         "\n"
         "Evaluates a layout-algebra expression and prints the result in CuTe C++ notation (_N marks a\n"
         "static integer; --plain leaves the marks out). Arguments are layouts `shape:stride`, int tuples,\n"
         "tilers `(3:4,8:2)`, swizzles `Sw<B,M,S>` or composed layouts `Sw<3,3,3> o 0 o (8,64):(64,1)`.\n"
         "ops: make_layout make_layout_right print shape stride size cosize rank depth call call_coord\n"
         "     crd2idx idx2crd coalesce filter flatten composition complement right_inverse left_inverse\n"
         "     logical_divide zipped_divide tiled_divide flat_divide logical_product zipped_product\n"
         "     tiled_product flat_product blocked_product raked_product max_common_layout\n"
         "     max_common_vector tile_to_shape local_tile local_partition swizzle composed_call\n"
         "--svg FILE draws the result: a 2-D layout as a grid of offsets, a swizzle or composed layout as\n"
         "its pattern, and with --tv M N a (thread, value) layout over an M x N tile coloured by thread.\n"
         "\n"
         "examples:\n";
  for (auto const& e : examples) {
    out << "  cute-cpp layout '" << e.expression << "'";
    if (std::string_view(e.draw).starts_with("tv")) out << " --" << e.draw;
    out << " --svg out.svg\n      " << e.what << "\n";
  }
  return status;
}

/// An expression's result: an `op(...)` evaluated, or a literal swizzle / composed layout / layout
/// read and printed back.
std::string evaluate(std::string const& expression, bool marks) {
  using namespace cute_cpp;
  if (expression.rfind("Sw<", 0) == 0) {
    if (expression.find(" o ") != std::string::npos) return to_string(parse_composed(expression));
    return to_string(parse_swizzle(expression));
  }
  if (!expression.empty() && expression.front() == '(') return evaluate_layout_expression("print(" + expression + ")", marks);
  return evaluate_layout_expression(expression, marks);
}

/// The picture of a result written in notation.
std::string draw(std::string const& result, long long tv_m, long long tv_n) {
  using namespace cute_cpp;
  if (result.rfind("Sw<", 0) == 0) {
    if (result.find(" o ") != std::string::npos) return to_svg(parse_composed(result));
    return to_svg(parse_swizzle(result));
  }
  LV const layout = parse_layout_value(result);
  return tv_m > 0 ? to_svg_tv(layout, tv_m, tv_n) : to_svg(layout);
}

void write_file(std::filesystem::path const& path, std::string const& text) {
  std::ofstream out(path);
  out << text;
  if (!out) throw std::runtime_error("cute-cpp: cannot write " + path.string());
}

int run_examples(std::filesystem::path const& dir) {
  std::filesystem::create_directories(dir);
  int index = 0;
  for (auto const& e : examples) {
    long long m = 0, n = 0;
    std::string_view draw_spec = e.draw;
    if (draw_spec.starts_with("tv")) std::sscanf(e.draw, "tv %lld %lld", &m, &n);
    std::string const result = evaluate(e.expression, true);
    auto const file = dir / ("example" + std::to_string(index++) + ".svg");
    write_file(file, draw(result, m, n));
    std::cout << e.expression << " = " << result << "  -> " << file.string() << "\n";
  }
  return 0;
}

int layout_command(std::vector<std::string> const& args) {
  bool plain = false, batch = false;
  std::string expression, svg, examples_dir;
  long long tv_m = 0, tv_n = 0;
  for (std::size_t i = 0; i < args.size(); ++i) {
    std::string const& a = args[i];
    if (a == "--help" || a == "-h") return usage(std::cout, 0);
    if (a == "--plain") plain = true;
    else if (a == "--batch") batch = true;
    else if (a == "--svg" && i + 1 < args.size()) svg = args[++i];
    else if (a == "--examples" && i + 1 < args.size()) examples_dir = args[++i];
    else if (a == "--tv" && i + 2 < args.size()) {
      tv_m = std::stoll(args[++i]);
      tv_n = std::stoll(args[++i]);
    } else if (expression.empty() && !a.starts_with("--")) expression = a;
    else return usage(std::cerr, 2);
  }
  if (!examples_dir.empty()) return run_examples(examples_dir);
  if (batch) {
    cute_cpp::run_layout_batch(std::cin, std::cout, !plain);
    return 0;  // errors are results: one `error: ...` line each
  }
  if (expression.empty()) return usage(std::cerr, 2);
  std::string const result = evaluate(expression, !plain);
  std::cout << result << "\n";
  // The picture parses the result with its static marks ('_'), which --plain drops.
  if (!svg.empty()) write_file(svg, draw(plain ? evaluate(expression, true) : result, tv_m, tv_n));
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty() || args[0] == "--help" || args[0] == "-h") {
    std::cout << "usage: cute-cpp <command> ...\ncommands:\n  layout   evaluate and draw layout-algebra expressions "
                 "(cute-cpp layout --help)\n";
    return args.empty() ? 2 : 0;
  }
  try {
    if (args[0] == "layout") return layout_command({args.begin() + 1, args.end()});
    std::cerr << "cute-cpp: unknown command '" << args[0] << "'; try cute-cpp --help\n";
    return 2;
  } catch (std::exception const& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 1;
  }
}
