// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// cute_cpp._layout: the layout algebra for Python, under CuTeDSL's names. Every operation writes
// its arguments in CuTe notation, calls evaluate_layout_op (the engine of `cute-cpp layout`) and
// reads the result back with the same parser, so Python and the tool cannot disagree: there is
// one implementation of the algebra, in include/cute_cpp/layout/. Pictures are svg.hpp's.
#include <algorithm>    // std::max
#include <string>       // std::string
#include <string_view>  // std::string_view
#include <vector>       // std::vector

#include <nanobind/nanobind.h>    // the bindings
#include <nanobind/stl/string.h>  // std::string <-> str

#include <cute_cpp/layout/expression.hpp>  // evaluate_layout_op, evaluate_layout_expression
#include <cute_cpp/layout/notation.hpp>    // parse_*, to_string, LV, SwizzleV, ComposedV
#include <cute_cpp/layout/svg.hpp>         // to_svg, to_svg_tv

namespace nb = nanobind;
using namespace nb::literals;

namespace {

using cute_cpp::ComposedV;
using cute_cpp::DynTuple;
using cute_cpp::LV;
using cute_cpp::SwizzleV;

/// What a Python argument may hold: `IntTuple` (ints and tuples), `Coord` (also None for `_`),
/// `Tiler` (also Layouts and None).
enum class Kind { int_tuple, coord, tiler };

// NOTE: svg.hpp evaluates every cell before it checks the cell limit, and a notebook asks for
// _repr_svg_ on its own; larger pictures are refused here before any cell is computed.
constexpr long long max_svg_cells = 65536;

[[noreturn]] void raise(PyObject* type, std::string const& message) {
  PyErr_SetString(type, message.c_str());
  throw nb::python_error();
}

std::string python_type_name(nb::handle h) { return nb::type_name(h.type()).c_str(); }

/// Appends h in CuTe notation: ints, `(a,b)` for tuples, `_` for None, a Layout as `shape:stride`.
/// The C++ parser then checks everything else (congruence, capacity, integer range).
void write_notation(std::string& out, nb::handle h, Kind kind, char const* what, int depth) {
  if (depth > DynTuple::capacity)
    raise(PyExc_ValueError, std::string("cute_cpp.layout: ") + what + " is nested deeper than a layout holds (" +
                                std::to_string(DynTuple::capacity) + " nodes)");
  if (h.is_none()) {
    if (kind == Kind::int_tuple)
      raise(PyExc_TypeError, std::string("cute_cpp.layout: ") + what + " must hold ints and tuples, not None");
    out += '_';
    return;
  }
  if (nb::isinstance<LV>(h)) {
    if (kind != Kind::tiler)
      raise(PyExc_TypeError, std::string("cute_cpp.layout: ") + what + " must hold ints and tuples, not a Layout");
    out += cute_cpp::to_string(nb::cast<LV const&>(h));
    return;
  }
  if (nb::isinstance<nb::tuple>(h)) {
    out += '(';
    bool first = true;
    for (nb::handle item : nb::borrow<nb::tuple>(h)) {
      if (!first) out += ',';
      first = false;
      write_notation(out, item, kind, what, depth + 1);
    }
    out += ')';
    return;
  }
  // bool is an int in Python, but True as a shape is a mistake worth reporting.
  if (!PyBool_Check(h.ptr()) && PyIndex_Check(h.ptr())) {
    nb::object index = nb::steal(PyNumber_Index(h.ptr()));
    if (!index.is_valid()) throw nb::python_error();
    int overflow = 0;
    long long v = PyLong_AsLongLongAndOverflow(index.ptr(), &overflow);
    if (overflow != 0)
      raise(PyExc_ValueError, std::string("cute_cpp.layout: ") + what + " holds an integer beyond 64 bits");
    out += std::to_string(v);
    return;
  }
  char const* allowed = kind == Kind::int_tuple ? "ints and tuples"
                        : kind == Kind::coord   ? "ints, tuples and None"
                                                : "ints, tuples, None and Layouts";
  raise(PyExc_TypeError, std::string("cute_cpp.layout: ") + what + " must hold " + allowed + ", not " + python_type_name(h));
}

std::string notation(nb::handle h, Kind kind, char const* what) {
  std::string out;
  write_notation(out, h, kind, what, 0);
  return out;
}
std::string notation(LV const& l) { return cute_cpp::to_string(l); }

/// A layout argument that may also be an int tuple (CuTe's compact column-major layout of it),
/// as `size`, `rank`, `depth` and `flatten` accept.
std::string layout_or_shape(nb::handle h, char const* what) {
  if (nb::isinstance<LV>(h)) return notation(nb::cast<LV const&>(h));
  return notation(h, Kind::int_tuple, what);
}

/// The coordinate of `L(*args)`: one argument as it is, several as a tuple (CuTe's L(i, j)).
std::string call_coordinate(nb::args const& args) {
  if (args.size() == 0) raise(PyExc_TypeError, "cute_cpp.layout: a layout call needs a coordinate");
  if (args.size() == 1) return notation(args[0], Kind::coord, "the coordinate");
  return notation(args, Kind::coord, "the coordinate");
}

// ---- the engine, and reading its results ----

std::string evaluate(std::string_view op, std::vector<std::string> const& args) {
  return cute_cpp::evaluate_layout_op(op, args, /*marks=*/true);
}

nb::object tuple_to_python(DynTuple const& t, int i = 0) {
  cute_cpp::DynNode const& node = t.node[i];
  if (node.kind < 0) {
    if (node.flags & cute_cpp::flag_underscore) return nb::none();
    if (node.tag >= 0)
      raise(PyExc_NotImplementedError,
            "cute_cpp.layout: " + cute_cpp::to_string(t) +
                " holds a ScaledBasis stride (v@axis), which has no Python value; use str(layout)");
    return nb::cast(node.v);
  }
  nb::list items;
  for (int k = 0; k < node.kind; ++k) items.append(tuple_to_python(t, cute_cpp::dt::child_pos(t, i, k)));
  return nb::tuple(items);
}

LV read_layout(std::string const& text) { return cute_cpp::parse_layout_value(text); }
long long read_int(std::string const& text) { return cute_cpp::parse_int_tuple(text).value().v; }
nb::object read_tuple(std::string const& text) { return tuple_to_python(cute_cpp::parse_int_tuple(text)); }

/// The engine prints a slice as `offset + layout`; these are its two halves.
bool is_slice(std::string const& text) { return text.find(" + ") != std::string::npos; }
LV slice_layout(std::string const& text) { return read_layout(text.substr(text.find(" + ") + 3)); }

LV layout_op(std::string_view op, std::vector<std::string> const& args) { return read_layout(evaluate(op, args)); }

/// A tiler written in notation, read back as Python values: a tuple of tilers, a Layout or None.
nb::object tiler_to_python(LV const& t) {
  if (t.shape.is_underscore()) return nb::none();
  if (!t.shape.is_tiler()) return nb::cast(t);
  nb::list items;
  for (int k = 0; k < t.shape.rank(); ++k) items.append(tiler_to_python(cute_cpp::eng::mode(t, k)));
  return nb::tuple(items);
}

// ---- Layout ----

LV make_layout(nb::handle shape, nb::handle stride) {
  std::string s = notation(shape, Kind::int_tuple, "shape");
  if (stride.is_none()) return layout_op("make_layout", {s});
  // The tool's literal `shape:stride`, so congruence is the parser's check, with its message.
  return read_layout(s + ":" + notation(stride, Kind::int_tuple, "stride"));
}

/// get(x, mode): the sub-layout at the path `mode` (an int or a sequence of ints).
LV get_mode(LV l, nb::handle mode) {
  std::vector<nb::handle> path;
  if (nb::isinstance<nb::tuple>(mode) || nb::isinstance<nb::list>(mode)) {
    for (nb::handle m : mode) path.push_back(m);
  } else {
    path.push_back(mode);
  }
  for (nb::handle index : path) {
    long long k = 0;
    if (PyBool_Check(index.ptr()) || !nb::try_cast(index, k))
      raise(PyExc_TypeError, "cute_cpp.layout: mode must be an int or a sequence of ints, not " + python_type_name(index));
    cute_cpp::diag::LayoutError e;
    if (k < 0 || k >= cute_cpp::eng::rank(l)) e.set(cute_cpp::diag::LayoutRule::mode_index, k, cute_cpp::eng::rank(l));
    cute_cpp::throw_if_error(e);
    l = cute_cpp::eng::mode(l, int(k));
  }
  return l;
}
LV as_layout(nb::handle h, char const* what) {
  if (nb::isinstance<LV>(h)) return nb::cast<LV>(h);
  return layout_op("make_layout", {notation(h, Kind::int_tuple, what)});
}

long long count_cells(LV const& l) {
  return cute_cpp::eng::rank(l) > 2 ? 0 : read_int(evaluate("size", {notation(l)}));
}
void check_cells(long long cells) {
  if (cells > max_svg_cells)
    raise(PyExc_ValueError, "cute_cpp.layout: the picture would have " + std::to_string(cells) + " cells, more than " +
                                std::to_string(max_svg_cells));
}

std::string svg_of(LV const& l) {
  check_cells(count_cells(l));
  return cute_cpp::to_svg(l);
}
std::string svg_of(ComposedV const& c) {
  check_cells(count_cells(c.layout));
  return cute_cpp::to_svg(c);
}
std::string svg_of(SwizzleV const& s) {
  // svg.hpp draws a swizzle on (max(2^B, 8), 2^(M+|S|)) cells.
  int shift = s.shift < 0 ? -s.shift : s.shift;
  if (s.bits > 16 || s.base + shift > 16) check_cells(max_svg_cells + 1);
  check_cells(std::max(1LL << s.bits, 8LL) * (1LL << (s.base + shift)));
  return cute_cpp::to_svg(s);
}

/// _repr_svg_: the picture, or None (text only) where the layout has no picture, as IPython expects.
template <class T>
nb::object repr_svg(T const& x) {
  try {
    return nb::cast(svg_of(x));
  } catch (std::invalid_argument const&) {
    return nb::none();
  } catch (nb::python_error& e) {
    if (!e.matches(PyExc_ValueError)) throw;
    return nb::none();
  }
}

LV binary_layout(char const* op, LV const& a, nb::handle b) { return layout_op(op, {notation(a), notation(b, Kind::tiler, "the tiler")}); }

}  // namespace

NB_MODULE(_layout, m) {
  m.doc() =
      "cute-cpp's layout algebra (include/cute_cpp/layout/), the engine of `cute-cpp layout`, under CuTeDSL's\n"
      "names. Layouts print in CuTe C++ notation, `(4,(2,3)):(1,(8,4))`; a static integer read from notation\n"
      "keeps its `_N` mark. A broken rule raises ValueError with the rule's message, e.g.\n"
      "`cute-cpp [layout.composition.shape-divisibility]: ...`.";

  // ---- Layout ----
  nb::class_<LV>(m, "Layout",
                 "A CuTe layout: a function from coordinates to offsets, given by a shape and a congruent stride.\n\n"
                 "    >>> L = make_layout((4, (2, 3)), stride=(1, (8, 4)))\n"
                 "    >>> L\n"
                 "    (4,(2,3)):(1,(8,4))\n"
                 "    >>> L(5), L((1, (1, 2)))\n"
                 "    (9, 17)")
      .def(
          "__init__", [](LV* self, nb::handle shape, nb::handle stride) { new (self) LV(make_layout(shape, stride)); },
          "shape"_a, "stride"_a = nb::none(), "Layout(shape, stride=None): the same as make_layout(shape, stride).")
      .def_static(
          "parse", [](std::string const& text) { return read_layout(text); }, "text"_a,
          "Layout.parse('(4,2):(1,4)'): a layout written in CuTe notation (`_N` marks a static integer,\n"
          "`v@axis` a ScaledBasis stride). Raises ValueError (layout.notation.syntax) naming the position.")
      .def_prop_ro(
          "shape", [](LV const& l) { return tuple_to_python(l.shape); },
          "The shape: an int or a (nested) tuple of ints.")
      .def_prop_ro(
          "stride", [](LV const& l) { return tuple_to_python(l.stride); },
          "The stride, congruent to the shape. A ScaledBasis stride (`1@0`) raises NotImplementedError.")
      .def(
          "__call__",
          [](LV const& l, nb::args args) -> nb::object {
            std::string r = evaluate("call", {notation(l), call_coordinate(args)});
            if (is_slice(r)) return nb::cast(slice_layout(r));
            return nb::cast(read_int(r));
          },
          "args"_a,
          "L(i), L((i, (j, k))) or L(i, j): the offset of a 1-D index or of a (weakly) congruent coordinate.\n"
          "None in the coordinate is CuTe's `_`: the result is then the layout of the open modes (slice_).\n"
          "A coordinate outside the shape raises ValueError (layout.coord.out-of-range).")
      .def(
          "size", [](LV const& l) { return read_int(evaluate("size", {notation(l)})); },
          "The number of coordinates: the product of the shape.")
      .def(
          "cosize", [](LV const& l) { return read_int(evaluate("cosize", {notation(l)})); },
          "L(size - 1) + 1: the extent of the offsets.")
      .def(
          "rank", [](LV const& l) { return read_int(evaluate("rank", {notation(l)})); },
          "The number of top-level modes (1 for an int shape).")
      .def(
          "depth", [](LV const& l) { return read_int(evaluate("depth", {notation(l)})); },
          "The nesting depth of the shape (0 for an int shape).")
      .def(
          "__str__", [](LV const& l) { return notation(l); }, "CuTe C++ notation, `(4,(2,3)):(1,(8,4))`.")
      .def(
          "__repr__", [](LV const& l) { return notation(l); }, "CuTe C++ notation, `(4,(2,3)):(1,(8,4))`.")
      .def(
          "__eq__",
          [](LV const& a, nb::handle b) -> nb::object {
            if (!nb::isinstance<LV>(b)) return nb::borrow(Py_NotImplemented);
            // Equal values compare equal whether or not they are static, as CuTe's operator==.
            return nb::bool_(cute_cpp::to_string(a, false) == cute_cpp::to_string(nb::cast<LV const&>(b), false));
          },
          "other"_a.none(), "Same shape and stride values (static marks ignored).")
      .def(
          "__hash__", [](LV const& l) { return nb::hash(nb::str(cute_cpp::to_string(l, false).c_str())); },
          "A hash of the values, consistent with ==.")
      .def("_repr_svg_", [](LV const& l) { return repr_svg(l); },
           "The grid picture of a rank-1 or rank-2 layout (to_svg), or None for other ranks, so notebooks "
           "draw layouts.")
      .def("__getstate__", [](LV const& l) { return notation(l); }, "Pickling: the notation.")
      .def(
          "__setstate__", [](LV& self, std::string const& text) { new (&self) LV(read_layout(text)); }, "state"_a,
          "Pickling: read the notation back.");

  // ---- Swizzle, ComposedLayout ----
  nb::class_<SwizzleV>(m, "Swizzle",
                       "Sw<B,M,S>: offset ^ ((offset >> S) & mask), the mask being B bits starting at bit M + S.\n\n"
                       "    >>> make_swizzle(3, 4, 3)(0x80)\n"
                       "    144")
      .def(
          "__init__",
          [](SwizzleV* self, int bits, int base, int shift) {
            new (self) SwizzleV(cute_cpp::parse_swizzle("Sw<" + std::to_string(bits) + "," + std::to_string(base) +
                                                        "," + std::to_string(shift) + ">"));
          },
          "bits"_a, "base"_a, "shift"_a, "Swizzle(bits, base, shift): the same as make_swizzle.")
      .def_prop_ro("bits", [](SwizzleV const& s) { return s.bits; }, "B: the number of bits swizzled.")
      .def_prop_ro("base", [](SwizzleV const& s) { return s.base; }, "M: the lowest bit left alone.")
      .def_prop_ro("shift", [](SwizzleV const& s) { return s.shift; }, "S: the distance the mask bits move.")
      .def(
          "__call__",
          [](SwizzleV const& s, nb::handle offset) {
            return read_int(evaluate("swizzle", {cute_cpp::to_string(s), notation(offset, Kind::int_tuple, "offset")}));
          },
          "offset"_a, "The swizzled offset.")
      .def("__str__", [](SwizzleV const& s) { return cute_cpp::to_string(s); }, "`Sw<B,M,S>`.")
      .def("__repr__", [](SwizzleV const& s) { return cute_cpp::to_string(s); }, "`Sw<B,M,S>`.")
      .def(
          "__eq__",
          [](SwizzleV const& a, nb::handle b) -> nb::object {
            if (!nb::isinstance<SwizzleV>(b)) return nb::borrow(Py_NotImplemented);
            return nb::bool_(cute_cpp::to_string(a) == cute_cpp::to_string(nb::cast<SwizzleV const&>(b)));
          },
          "other"_a.none(), "Same B, M and S.")
      .def(
          "__hash__", [](SwizzleV const& s) { return nb::hash(nb::str(cute_cpp::to_string(s).c_str())); },
          "A hash consistent with ==.")
      .def("_repr_svg_", [](SwizzleV const& s) { return repr_svg(s); },
           "The swizzle's pattern on the rows it permutes (to_svg).");

  nb::class_<ComposedV>(m, "ComposedLayout",
                        "inner o offset o outer: coordinate -> inner(offset + outer(coordinate)), the inner function a "
                        "Swizzle.\n\n"
                        "    >>> C = make_composed_layout(make_swizzle(3, 3, 3), 0, make_layout((8, 64), stride=(64, 1)))\n"
                        "    >>> C\n"
                        "    Sw<3,3,3> o 0 o (8,64):(64,1)")
      .def_prop_ro("inner", [](ComposedV const& c) { return c.swizzle; }, "The Swizzle applied last.")
      .def_prop_ro("offset", [](ComposedV const& c) { return c.offset.v; }, "The offset added to outer's result.")
      .def_prop_ro("outer", [](ComposedV const& c) { return c.layout; }, "The Layout applied first.")
      .def(
          "__call__",
          [](ComposedV const& c, nb::args args) {
            return read_int(evaluate("composed_call", {cute_cpp::to_string(c), call_coordinate(args)}));
          },
          "args"_a, "inner(offset + outer(coordinate)).")
      .def("__str__", [](ComposedV const& c) { return cute_cpp::to_string(c); }, "`Sw<B,M,S> o offset o layout`.")
      .def("__repr__", [](ComposedV const& c) { return cute_cpp::to_string(c); }, "`Sw<B,M,S> o offset o layout`.")
      .def(
          "__eq__",
          [](ComposedV const& a, nb::handle b) -> nb::object {
            if (!nb::isinstance<ComposedV>(b)) return nb::borrow(Py_NotImplemented);
            return nb::bool_(cute_cpp::to_string(a, false) == cute_cpp::to_string(nb::cast<ComposedV const&>(b), false));
          },
          "other"_a.none(), "Same swizzle, offset and layout values.")
      .def(
          "__hash__", [](ComposedV const& c) { return nb::hash(nb::str(cute_cpp::to_string(c, false).c_str())); },
          "A hash consistent with ==.")
      .def("_repr_svg_", [](ComposedV const& c) { return repr_svg(c); },
           "The swizzled offsets of a rank-1 or rank-2 outer layout, coloured by 16-byte chunk (to_svg).");

  // ---- construction and notation ----
  m.def("make_layout", &make_layout, "shape"_a, "stride"_a = nb::none(),
        "make_layout(shape, stride=None): a Layout; without a stride, CuTe's compact column-major one.\n\n"
        "    >>> make_layout((4, (2, 3)))\n"
        "    (4,(2,3)):(_1,(4,8))\n\n"
        "The compact strides start at a static 1 (`_1`), as in C++ CuTe.\n"
        "A stride not congruent to the shape raises ValueError.");
  m.def(
      "make_swizzle",
      [](int bits, int base, int shift) {
        return cute_cpp::parse_swizzle("Sw<" + std::to_string(bits) + "," + std::to_string(base) + "," +
                                       std::to_string(shift) + ">");
      },
      "b"_a, "m"_a, "s"_a,
      "make_swizzle(b, m, s): Sw<b,m,s>. Raises ValueError (layout.swizzle.params) unless b >= 0, m >= 0, |s| >= b and b + m + |s| <= 63.");
  m.def(
      "make_composed_layout",
      [](SwizzleV const& inner, nb::handle offset, LV const& outer) {
        return cute_cpp::parse_composed(cute_cpp::to_string(inner) + " o " +
                                        notation(offset, Kind::int_tuple, "offset") + " o " + notation(outer));
      },
      "inner"_a, "offset"_a, "outer"_a,
      "make_composed_layout(inner, offset, outer): inner o offset o outer. The engine composes a Swizzle (inner)\n"
      "with a Layout (outer) only.");
  m.def(
      "parse",
      [](std::string const& text) -> nb::object {
        std::string_view t = text;
        while (!t.empty() && (t.front() == ' ' || t.front() == '\t')) t.remove_prefix(1);
        if (t.starts_with("Sw<")) {
          if (t.find(" o ") != std::string_view::npos) return nb::cast(cute_cpp::parse_composed(text));
          return nb::cast(cute_cpp::parse_swizzle(text));
        }
        if (cute_cpp::detail::has_top_level_colon(t)) return nb::cast(read_layout(text));
        if (t.find(':') != std::string_view::npos) return tiler_to_python(cute_cpp::parse_tiler(text));
        return read_tuple(text);
      },
      "text"_a,
      "parse(text): any value written in CuTe notation, as the matching Python value: a Layout for\n"
      "`(4,2):(1,4)`, a Swizzle for `Sw<3,4,3>`, a ComposedLayout for `Sw<3,4,3> o 0 o (8,64):(64,1)`,\n"
      "a tuple of Layouts for a tiler `(3:4,8:2)`, otherwise an int or a tuple (None for `_`).");
  m.def(
      "evaluate", [](std::string const& expression, bool marks) {
        return cute_cpp::evaluate_layout_expression(expression, marks);
      },
      "expression"_a, "marks"_a = true,
      "evaluate('composition((4,2):(1,4), (2):(2))'): one line of `cute-cpp layout --batch`, the result in\n"
      "notation (marks=False drops the `_` of static integers). Covers every op of the tool, also those\n"
      "without a Python function here (local_tile, local_partition, make_layout_right).");

  // ---- size and friends ----
  auto measure = [](char const* op) {
    return [op](nb::handle a, nb::handle mode) {
      std::string arg = mode.is_none() ? layout_or_shape(a, "the argument")
                                       : notation(get_mode(as_layout(a, "the argument"), mode));
      return read_int(evaluate(op, {arg}));
    };
  };
  m.def("size", measure("size"), "a"_a, "mode"_a = nb::none(),
        "size(a, mode=None): the number of coordinates of a Layout or int tuple (of its sub-mode at `mode`).");
  m.def(
      "cosize",
      [](LV const& a, nb::handle mode) {
        LV l = mode.is_none() ? a : get_mode(a, mode);
        return read_int(evaluate("cosize", {notation(l)}));
      },
      "a"_a, "mode"_a = nb::none(), "cosize(a, mode=None): a(size(a) - 1) + 1.");
  m.def("rank", measure("rank"), "a"_a, "mode"_a = nb::none(),
        "rank(a, mode=None): the number of top-level modes (1 for an int).");
  m.def("depth", measure("depth"), "a"_a, "mode"_a = nb::none(),
        "depth(a, mode=None): the nesting depth (0 for an int).");
  m.def(
      "get",
      [](nb::handle a, nb::handle mode) -> nb::object {
        LV l = get_mode(as_layout(a, "the argument"), mode);
        if (nb::isinstance<LV>(a)) return nb::cast(l);
        return tuple_to_python(l.shape);
      },
      "a"_a, "mode"_a,
      "get(a, mode): the sub-layout (or sub-tuple) at `mode`, an index or a path of indices.\n"
      "Raises ValueError (layout.mode.index) for an index outside the rank.");

  // ---- coordinates ----
  m.def(
      "crd2idx",
      [](nb::handle coord, nb::handle layout_or_shape, nb::handle stride) {
        std::vector<std::string> args{notation(coord, Kind::coord, "coord")};
        if (nb::isinstance<LV>(layout_or_shape)) {
          if (!stride.is_none()) raise(PyExc_TypeError, "cute_cpp.layout: crd2idx(coord, layout) takes no stride");
          LV const& l = nb::cast<LV const&>(layout_or_shape);
          args.push_back(cute_cpp::to_string(l.shape));
          args.push_back(cute_cpp::to_string(l.stride));
        } else {
          args.push_back(notation(layout_or_shape, Kind::int_tuple, "shape"));
          if (!stride.is_none()) args.push_back(notation(stride, Kind::int_tuple, "stride"));
        }
        return read_int(evaluate("crd2idx", args));
      },
      "coord"_a, "layout"_a, "stride"_a = nb::none(),
      "crd2idx(coord, layout) or crd2idx(coord, shape, stride=None): the index of a coordinate; without a\n"
      "stride, the shape's compact column-major one.");
  m.def(
      "idx2crd",
      [](nb::handle idx, nb::handle shape, nb::handle stride) {
        std::vector<std::string> args{notation(idx, Kind::int_tuple, "idx"), notation(shape, Kind::int_tuple, "shape")};
        if (!stride.is_none()) args.push_back(notation(stride, Kind::int_tuple, "stride"));
        return read_tuple(evaluate("idx2crd", args));
      },
      "idx"_a, "shape"_a, "stride"_a = nb::none(),
      "idx2crd(idx, shape, stride=None): the natural (column-major) coordinate of an index, congruent to\n"
      "shape; with a stride, each leaf (idx // stride) % shape.");
  m.def(
      "slice_",
      [](LV const& src, nb::handle coord) {
        std::string r = evaluate("call", {notation(src), notation(coord, Kind::coord, "coord")});
        if (!is_slice(r))
          raise(PyExc_ValueError, "cute_cpp.layout: slice_ needs None (CuTe's `_`) in the coordinate; without "
                                  "one, call the layout for the offset");
        return slice_layout(r);
      },
      "src"_a, "coord"_a,
      "slice_(src, coord): the layout of the modes where coord holds None (CuTe's `_`).\n\n"
      "    >>> slice_(make_layout((4, 8), stride=(8, 1)), (None, 3))\n"
      "    (4):(8)");

  // ---- unary operations ----
  m.def(
      "coalesce",
      [](LV const& a, nb::handle target_profile) {
        if (target_profile.is_none()) return layout_op("coalesce", {notation(a)});
        return layout_op("coalesce", {notation(a), notation(target_profile, Kind::int_tuple, "target_profile")});
      },
      "input"_a, "target_profile"_a = nb::none(),
      "coalesce(input, target_profile=None): the same function with the fewest modes; with a profile tuple,\n"
      "mode by mode.  coalesce((2,(1,6)):(1,(6,2))) -> 12:1");
  m.def(
      "filter",
      [](LV const& a, nb::handle target_profile) {
        if (target_profile.is_none()) return layout_op("filter", {notation(a)});
        return layout_op("filter", {notation(a), notation(target_profile, Kind::int_tuple, "target_profile")});
      },
      "input"_a, "target_profile"_a = nb::none(),
      "filter(input, target_profile=None): coalesce after dropping stride-0 and size-1 modes (C++ filter).");
  m.def(
      "flatten",
      [](nb::handle a) -> nb::object {
        LV r = layout_op("flatten", {layout_or_shape(a, "the argument")});
        if (nb::isinstance<LV>(a)) return nb::cast(r);
        return tuple_to_python(r.shape);
      },
      "a"_a, "flatten(a): the leaves of a Layout's (or int tuple's) modes as one level.");
  m.def(
      "complement",
      [](LV const& a, nb::handle cotarget) {
        if (cotarget.is_none()) return layout_op("complement", {notation(a)});
        return layout_op("complement", {notation(a), notation(cotarget, Kind::int_tuple, "cotarget")});
      },
      "input"_a, "cotarget"_a = nb::none(),
      "complement(input, cotarget=None): the layout of the offsets below cotarget that input leaves out.\n"
      "complement((2,2):(1,6), 24) -> (3,2):(2,12). A non-injective input raises ValueError\n"
      "(layout.complement.injective).");
  m.def(
      "right_inverse", [](LV const& a) { return layout_op("right_inverse", {notation(a)}); }, "input"_a,
      "right_inverse(input): R with input(R(i)) == i for i < size(R), R as large as possible.");
  m.def(
      "left_inverse", [](LV const& a) { return layout_op("left_inverse", {notation(a)}); }, "input"_a,
      "left_inverse(input): R with R(input(i)) == i for an injective input (C++ CuTe's quasi-inverse).");

  // ---- composition, divides, products ----
  m.def(
      "composition", [](LV const& a, nb::handle b) { return binary_layout("composition", a, b); }, "lhs"_a, "rhs"_a,
      "composition(lhs, rhs): i -> lhs(rhs(i)); rhs a Layout, or a tiler (a tuple of Layouts, ints and None,\n"
      "applied mode by mode).  composition((6,2):(8,2), (4,3):(3,1)) -> ((2,2),3):((24,2),8)");
  struct Named {
    char const* name;
    char const* doc;
  };
  static constexpr Named tile_ops[] = {
      {"logical_divide", "logical_divide(target, tiler): ((tile), (rest)) for a layout tiler, by mode for a tuple."},
      {"zipped_divide", "zipped_divide(target, tiler): ((tile modes), (rest modes))."},
      {"tiled_divide", "tiled_divide(target, tiler): ((tile modes), rest0, rest1, ...)."},
      {"flat_divide", "flat_divide(target, tiler): (tile0, tile1, ..., rest0, rest1, ...)."},
      {"logical_product", "logical_product(block, tiler): (block, complement of block repeated by tiler)."},
      {"zipped_product", "zipped_product(block, tiler): ((block modes), (repeat modes))."},
      {"tiled_product", "tiled_product(block, tiler): ((block modes), repeat0, repeat1, ...)."},
      {"flat_product", "flat_product(block, tiler): (block0, block1, ..., repeat0, repeat1, ...)."},
      {"blocked_product", "blocked_product(block, tiler): block repeated over tiler, block elements contiguous:\n"
                          "((block0, tiler0), (block1, tiler1), ...)."},
      {"raked_product", "raked_product(block, tiler): block elements interleaved across tiler's copies:\n"
                        "((tiler0, block0), (tiler1, block1), ...)."},
  };
  for (Named const& op : tile_ops) {
    char const* name = op.name;
    bool divide = std::string_view(name).ends_with("divide");
    m.def(
        name, [name](LV const& a, nb::handle b) { return binary_layout(name, a, b); },
        nb::arg(divide ? "target" : "block"), "tiler"_a, op.doc);
  }
  m.def(
      "max_common_layout", [](LV const& a, LV const& b) { return layout_op("max_common_layout", {notation(a), notation(b)}); },
      "a"_a, "b"_a, "max_common_layout(a, b): the largest layout C with a o C and b o C both contiguous.");
  m.def(
      "max_common_vector",
      [](LV const& a, LV const& b) { return read_int(evaluate("max_common_vector", {notation(a), notation(b)})); },
      "a"_a, "b"_a, "max_common_vector(a, b): how many elements a and b both hold contiguously from offset 0.");
  m.def(
      "tile_to_shape",
      [](LV const& atom, nb::handle trg_shape, nb::handle order) {
        std::vector<std::string> args{notation(atom), notation(trg_shape, Kind::int_tuple, "trg_shape")};
        if (!order.is_none()) args.push_back(notation(order, Kind::int_tuple, "order"));
        return layout_op("tile_to_shape", args);
      },
      "atom"_a, "trg_shape"_a, "order"_a = nb::none(),
      "tile_to_shape(atom, trg_shape, order=None): atom repeated until it covers trg_shape, the repeats\n"
      "column-major or in `order`.");

  // ---- pictures ----
  m.def(
      "to_svg",
      [](nb::handle x) -> std::string {
        if (nb::isinstance<LV>(x)) return svg_of(nb::cast<LV const&>(x));
        if (nb::isinstance<ComposedV>(x)) return svg_of(nb::cast<ComposedV const&>(x));
        if (nb::isinstance<SwizzleV>(x)) return svg_of(nb::cast<SwizzleV const&>(x));
        raise(PyExc_TypeError, "cute_cpp.layout: to_svg draws a Layout, Swizzle or ComposedLayout, not " + python_type_name(x));
      },
      "x"_a,
      "to_svg(x): the SVG text `cute-cpp layout --svg` writes: the grid of a rank-1 or rank-2 Layout, a\n"
      "ComposedLayout's swizzled offsets, or a Swizzle's pattern. Raises ValueError for other ranks\n"
      "(layout.svg.rank) and for more than 65536 cells.");
  m.def(
      "to_svg_tv",
      [](LV const& tv, long long m_, long long n_) {
        if (m_ <= 0 || n_ <= 0) raise(PyExc_ValueError, "cute_cpp.layout: to_svg_tv needs a tile of positive extents");
        check_cells(m_ > max_svg_cells || n_ > max_svg_cells ? max_svg_cells + 1 : m_ * n_);
        check_cells(count_cells(tv));
        return cute_cpp::to_svg_tv(tv, m_, n_);
      },
      "tv"_a, "m"_a, "n"_a,
      "to_svg_tv(tv, m, n): a (thread, value) layout drawn over an m x n tile, `cute-cpp layout --tv M N`.\n"
      "An offset outside the tile raises ValueError (layout.svg.tv).");
}
