# SPDX-License-Identifier: Apache-2.0
# SPDX-FileCopyrightText: 2026 cute-cpp authors
"""cute_cpp.layout against the reference vectors (shared/layout-vectors, pycute's results), and its
printing, pictures, docstring examples and errors. Run by the CTest python.layout (scripts/test);
a missing extension or pytest is a failure there, never a skip."""
import doctest
import importlib.util
import json
import pickle
import re
import time
import xml.etree.ElementTree as ET
from collections import defaultdict
from pathlib import Path

import pytest

import cute_cpp
from cute_cpp import _layout
from cute_cpp import layout as cute

ROOT = Path(__file__).resolve().parents[2]
VECTORS = ROOT / "shared" / "layout-vectors" / "layout_vectors.jsonl"
SVG = "{http://www.w3.org/2000/svg}"


def _load_batch_script():
    """tests/tools/layout_batch_vectors.py: the tool's vector test, for its size-1 stride rule."""
    spec = importlib.util.spec_from_file_location("layout_batch_vectors", ROOT / "tests/tools/layout_batch_vectors.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


batch = _load_batch_script()

# How each op of the vectors is asked through the Python API; the arguments arrive parsed.
OPS = {
    "make_layout": cute.make_layout,
    "print": lambda layout: layout,
    "shape": lambda layout: layout.shape,
    "stride": lambda layout: layout.stride,
    "size": cute.size,
    "cosize": cute.cosize,
    "rank": cute.rank,
    "depth": cute.depth,
    "call": lambda layout, index: layout(index),
    "call_coord": lambda layout, coord: layout(coord),
    "crd2idx": cute.crd2idx,
    "idx2crd": cute.idx2crd,
    "coalesce": cute.coalesce,
    "filter": cute.filter,
    "flatten": cute.flatten,
    "composition": cute.composition,
    "complement": cute.complement,
    "right_inverse": cute.right_inverse,
    "left_inverse": cute.left_inverse,
    "swizzle": lambda swizzle, offset: swizzle(offset),
    "composed_call": lambda composed, coord: composed(coord),
}
for name in ("logical_divide", "zipped_divide", "tiled_divide", "flat_divide", "logical_product", "zipped_product",
             "tiled_product", "flat_product", "blocked_product", "raked_product"):
    OPS[name] = getattr(cute, name)


def notation(value):
    """A Python result in CuTe notation: ints as they are, tuples as `(a,b)`, a rank-1 tuple `(a)`."""
    if isinstance(value, tuple):
        return "(" + ",".join(notation(v) for v in value) + ")"
    return str(value)


def unmarked(text):
    """The vectors carry no static marks: `_4` -> `4` (a lone `_` stays)."""
    return re.sub(r"_(?=-?\d)", "", text)


def load_cases():
    cases = defaultdict(list)
    for line in VECTORS.read_text().splitlines():
        if line.strip():
            case = json.loads(line)
            cases[case["op"]].append(case)
    return cases


CASES = load_cases()


def test_every_vector_op_is_covered():
    assert sum(len(c) for c in CASES.values()) == 4407, "shared/layout-vectors changed: update this count"
    assert set(CASES) == set(OPS), f"ops without a Python call: {sorted(set(CASES) - set(OPS))}"


@pytest.mark.parametrize("op", sorted(OPS))
def test_reference_vectors(op):
    """Every case through the Python API equals the reference (size-1 strides by the vectors'
    README rule) and equals `evaluate`, the tool's own evaluation of the same expression."""
    failures, convention = [], 0
    for case in CASES[op]:
        expression = batch.expression(case)
        try:
            got = unmarked(notation(OPS[op](*[cute.parse(a) for a in case["args"]])))
        except (ValueError, TypeError, NotImplementedError) as e:
            failures.append(f"{case['id']}: {expression}\n    raised {type(e).__name__}: {e}")
            continue
        tool = cute.evaluate(expression, marks=False)
        want = case["expect"].replace(" ", "")
        if got != tool:
            failures.append(f"{case['id']}: {expression}\n    python {got}\n    tool   {tool}")
        elif got != want:
            if batch.zero_size1_strides(got) == batch.zero_size1_strides(want):
                convention += 1
            else:
                failures.append(f"{case['id']}: {expression}\n    want {want}\n    got  {got}")
    assert not failures, f"{len(failures)} of {len(CASES[op])} cases wrong:\n" + "\n".join(failures[:20])
    # The tool test accepts this convention too; counted here so a change shows up in -v output.
    print(f"{op}: {len(CASES[op])} cases, {convention} by the size-1 stride convention")


# ---- printing and values ----

def test_print_in_cute_notation():
    L = cute.make_layout((4, (2, 3)), stride=(1, (8, 4)))
    assert str(L) == repr(L) == "(4,(2,3)):(1,(8,4))"
    assert L.shape == (4, (2, 3)) and L.stride == (1, (8, 4))
    assert str(cute.make_layout((4,), (1,))) == "(4):(1)"  # a rank-1 tuple is not an int
    assert str(cute.make_layout(4, 1)) == "4:1"
    assert cute.make_layout((4,)).shape == (4,) and cute.make_layout(4).shape == 4


def test_compact_strides_are_static_as_in_cpp():
    assert str(cute.make_layout((4, 8))) == "(4,8):(_1,4)"
    assert str(cute.Layout((4, 8))) == "(4,8):(_1,4)"
    assert cute.make_layout((4, 8)) == cute.make_layout((4, 8), stride=(1, 4))  # == ignores the marks


@pytest.mark.parametrize("text", ["(4,(2,3)):(1,(8,4))", "(_4,_2):(_1,_4)", "((2,2),3):((24,2),8)",
                                  "(4,8):(1@0,1@1)", "7:0", "(3,-2):(-1,5)"])
def test_parse_print_round_trip(text):
    assert str(cute.Layout.parse(text)) == text
    assert str(cute.parse(text)) == text
    assert str(pickle.loads(pickle.dumps(cute.Layout.parse(text)))) == text


def test_parse_every_kind():
    assert cute.parse("(4,(2,_3))") == (4, (2, 3))
    assert cute.parse("_") is None and cute.parse("(2,_)") == (2, None)
    assert cute.parse("(3:4,(8:2,_))") == (cute.make_layout(3, 4), (cute.make_layout(8, 2), None))
    assert isinstance(cute.parse("Sw<3,4,3>"), cute.Swizzle)
    assert isinstance(cute.parse("Sw<3,4,3> o 0 o (8,64):(64,1)"), cute.ComposedLayout)


def test_layout_is_a_function():
    L = cute.make_layout((4, (2, 3)), stride=(1, (8, 4)))
    assert [L(i) for i in range(5)] == [0, 1, 2, 3, 8]
    assert L((1, (1, 2))) == L(1, (1, 2)) == L((1, 5)) == 17
    assert (L.size(), L.cosize(), L.rank(), L.depth()) == (24, 20, 2, 2)
    assert (cute.size(L), cute.cosize(L), cute.rank(L), cute.depth(L)) == (24, 20, 2, 2)
    assert cute.size(L, mode=1) == 6 and cute.rank(L, mode=[1]) == 2 and cute.cosize(L, mode=[1, 1]) == 9
    assert cute.size((2, (3, 4))) == 24 and cute.rank(5) == 1 and cute.depth((1, (2, 3))) == 2
    assert str(cute.get(L, 1)) == "(2,3):(8,4)" and str(cute.get(L, [1, 0])) == "2:8"
    assert cute.get((4, (2, 3)), 1) == (2, 3)
    assert str(L(None, 1)) == str(cute.slice_(L, (None, 1))) == "(4):(1)"
    assert cute.crd2idx((1, 5), L) == 17 and cute.crd2idx((1, 1), (2, 3)) == 3
    assert cute.idx2crd(17, (4, (2, 3))) == (1, (0, 2))
    assert cute.flatten((1, (2, (3,)))) == (1, 2, 3)


def test_swizzle_and_composed_layout():
    sw = cute.make_swizzle(3, 4, 3)
    assert str(sw) == "Sw<3,4,3>" and (sw.bits, sw.base, sw.shift) == (3, 4, 3)
    assert sw(0x80) == 0x90 and cute.Swizzle(3, 4, 3) == sw
    c = cute.make_composed_layout(cute.make_swizzle(3, 3, 3), 0, cute.make_layout((8, 64), stride=(64, 1)))
    assert str(c) == "Sw<3,3,3> o 0 o (8,64):(64,1)"
    assert c.inner == cute.make_swizzle(3, 3, 3) and c.offset == 0 and str(c.outer) == "(8,64):(64,1)"
    assert c(1, 2) == cute.make_swizzle(3, 3, 3)(64 + 2) == int(cute.evaluate(f"composed_call({c}, (1,2))"))


def test_docstring_examples():
    """The `>>>` examples in the package's docstrings run and print what they show."""
    globs = {name: getattr(cute, name) for name in cute.__all__}
    globs["cute"] = cute
    docs = [cute_cpp, cute, _layout] + [getattr(cute, name) for name in cute.__all__]
    parser, runner = doctest.DocTestParser(), doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
    examples = 0
    for i, obj in enumerate(docs):
        test = parser.get_doctest(obj.__doc__ or "", dict(globs), f"doc{i}", None, 0)
        examples += len(test.examples)
        runner.run(test)
    assert examples >= 8
    assert runner.failures == 0


def test_public_names_have_docstrings():
    for name in cute.__all__:
        assert getattr(cute, name).__doc__, name
    for cls in (cute.Layout, cute.Swizzle, cute.ComposedLayout):
        for name, member in vars(cls).items():
            if not name.startswith("__") or name in ("__call__", "__init__"):
                assert getattr(member, "__doc__", None), f"{cls.__name__}.{name}"


# ---- pictures ----

def svg_root(text):
    root = ET.fromstring(text)
    assert root.tag == SVG + "svg"
    return root


def test_svg_of_a_layout_is_its_grid():
    L = cute.make_layout((4, 8), stride=(8, 1))
    root = svg_root(L._repr_svg_())
    assert L._repr_svg_() == cute.to_svg(L)
    assert len(root.findall(SVG + "rect")) == 32
    texts = [t.text for t in root.findall(SVG + "text")]
    assert texts[0] == "(4,8):(8,1)"
    assert {str(L(i, j)) for i in range(4) for j in range(8)} <= set(texts)


def test_svg_of_swizzles_and_thread_value_layouts():
    for x in (cute.make_swizzle(3, 4, 3), cute.parse("Sw<3,3,3> o 0 o (8,64):(64,1)")):
        assert svg_root(x._repr_svg_()) is not None and x._repr_svg_() == cute.to_svg(x)
    tv = cute.Layout.parse("((4,8),(2,2)):((16,1),(8,64))")
    root = svg_root(cute.to_svg_tv(tv, 8, 16))
    assert sum(1 for t in root.findall(SVG + "text") if t.text and t.text.startswith("T")) == 128


def test_no_picture_for_other_ranks_or_huge_layouts():
    assert cute.make_layout((2, 2, 2))._repr_svg_() is None
    with pytest.raises(ValueError, match=r"cute-cpp \[layout\.svg\.rank\]"):
        cute.to_svg(cute.make_layout((2, 2, 2)))
    start = time.monotonic()
    assert cute.make_layout((100000, 100000))._repr_svg_() is None  # refused before any cell is computed
    assert cute.make_swizzle(3, 20, 30)._repr_svg_() is None
    assert time.monotonic() - start < 1
    with pytest.raises(ValueError, match="65536"):
        cute.to_svg(cute.make_layout((1000, 1000)))
    with pytest.raises(ValueError, match=r"cute-cpp \[layout\.svg\.tv\]: thread 0 value 1"):
        cute.to_svg_tv(cute.Layout.parse("(2,3):(1,2)"), 1, 1)
    with pytest.raises(ValueError, match="positive"):
        cute.to_svg_tv(cute.Layout.parse("(2,3):(1,2)"), -1, 4)


# ---- errors ----

L42 = cute.make_layout((4, 2))
RULE_ERRORS = [
    ("layout.expression.op", lambda: cute.evaluate("bogus((4):(1))")),
    ("layout.expression.arity", lambda: cute.evaluate("composition((4):(1))")),
    ("layout.notation.syntax", lambda: cute.Layout.parse("(4,2):(1)")),
    ("layout.notation.syntax", lambda: cute.make_layout((4, 2), stride=(1,))),
    ("layout.notation.syntax", lambda: cute.make_layout((1,) * 40)),
    ("layout.composition.shape-divisibility", lambda: cute.composition(cute.parse("(4,6):(1,8)"), cute.make_layout(6))),
    ("layout.composition.stride-divisibility",
     lambda: cute.composition(cute.parse("(4,6):(1,8)"), cute.make_layout(3, 3))),
    ("layout.complement.injective", lambda: cute.complement(cute.parse("(2,2):(1,1)"), 8)),
    ("layout.divide.tiler-rank", lambda: cute.logical_divide(cute.make_layout(8), (2, 2))),
    ("layout.product.tiler-rank", lambda: cute.logical_product(L42, (2, 2, 2))),
    ("layout.coord.out-of-range", lambda: L42(8)),
    ("layout.coord.congruent", lambda: L42((1, 2, 3))),
    ("layout.mode.index", lambda: cute.get(L42, 2)),
    ("layout.swizzle.params", lambda: cute.make_swizzle(3, 4, 2)),
    ("layout.swizzle.params", lambda: cute.make_swizzle(3, 30, 31)),
    ("layout.tile-to-shape.divides", lambda: cute.tile_to_shape(cute.make_layout((3, 2)), (8, 4))),
    ("layout.left-inverse.divisibility", lambda: cute.left_inverse(cute.parse("(2,3):(3,2)"))),
]


@pytest.mark.parametrize("rule,call", RULE_ERRORS, ids=[r for r, _ in RULE_ERRORS])
def test_rule_errors_are_value_errors(rule, call):
    with pytest.raises(ValueError, match=r"^cute-cpp \[" + re.escape(rule) + r"\]: "):
        call()


def test_wrong_types_are_type_errors():
    for call in (lambda: cute.make_layout((4, 2.0)), lambda: cute.make_layout(True),
                 lambda: cute.make_layout((4, None)), lambda: cute.composition(L42, "2:1"),
                 lambda: cute.composition((4, 2), L42), lambda: L42(1.5), lambda: L42(),
                 lambda: cute.size(L42, mode="x"), lambda: cute.to_svg((4, 2)),
                 lambda: cute.make_composed_layout(L42, 0, L42)):
        with pytest.raises(TypeError):
            call()


def test_unsupported_inputs_raise_clear_errors():
    with pytest.raises(NotImplementedError, match="ScaledBasis"):
        cute.Layout.parse("(4,8):(1@0,1@1)").stride
    with pytest.raises(ValueError, match="slice_ needs None"):
        cute.slice_(L42, (1, 1))
    with pytest.raises(ValueError, match="beyond 64 bits"):
        cute.make_layout(2**70)
    nested = 1
    for _ in range(100):
        nested = (nested,)
    with pytest.raises(ValueError, match="nested deeper"):
        cute.make_layout(nested)
    # Names the engine does not evaluate are absent, so they fail instead of differing.
    for name in ("make_ordered_layout", "make_identity_layout", "recast_layout", "local_tile", "local_partition"):
        assert not hasattr(cute, name), name
