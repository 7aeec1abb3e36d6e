# SPDX-License-Identifier: Apache-2.0
# SPDX-FileCopyrightText: 2026 cute-cpp authors
"""The layout algebra of cute-cpp under CuTeDSL's names (``cute.make_layout``, ``cute.composition``,
``cute.logical_divide``, ...), computed by the C++ engine of ``cute-cpp layout``.

Values are Python ints and (nested) tuples; ``None`` in a coordinate or tiler is CuTe's ``_``.
Layouts print in CuTe C++ notation, ``(4,(2,3)):(1,(8,4))``, and draw themselves in notebooks
(``_repr_svg_``). A broken rule raises ``ValueError`` with the rule's id and message, e.g.
``cute-cpp [layout.divide.tiler-fits]: ...``; a wrong argument type raises ``TypeError``.

    >>> from cute_cpp import layout as cute
    >>> A = cute.make_layout((6, 2), stride=(8, 2))
    >>> cute.composition(A, cute.make_layout((4, 3), stride=(3, 1)))
    ((2,2),3):((24,2),8)
"""
# NOTE: the names live in the extension; this module only gives them their public home, so a
# later module (cute_cpp.tensor, ...) can import them without reaching into cute_cpp._layout.
from ._layout import (
    ComposedLayout,
    Layout,
    Swizzle,
    blocked_product,
    coalesce,
    complement,
    composition,
    cosize,
    crd2idx,
    depth,
    evaluate,
    filter,
    flat_divide,
    flat_product,
    flatten,
    get,
    idx2crd,
    left_inverse,
    logical_divide,
    logical_product,
    make_composed_layout,
    make_layout,
    make_swizzle,
    max_common_layout,
    max_common_vector,
    parse,
    raked_product,
    rank,
    right_inverse,
    size,
    slice_,
    tile_to_shape,
    tiled_divide,
    tiled_product,
    to_svg,
    to_svg_tv,
    zipped_divide,
    zipped_product,
)

__all__ = [
    "ComposedLayout",
    "Layout",
    "Swizzle",
    "blocked_product",
    "coalesce",
    "complement",
    "composition",
    "cosize",
    "crd2idx",
    "depth",
    "evaluate",
    "filter",
    "flat_divide",
    "flat_product",
    "flatten",
    "get",
    "idx2crd",
    "left_inverse",
    "logical_divide",
    "logical_product",
    "make_composed_layout",
    "make_layout",
    "make_swizzle",
    "max_common_layout",
    "max_common_vector",
    "parse",
    "raked_product",
    "rank",
    "right_inverse",
    "size",
    "slice_",
    "tile_to_shape",
    "tiled_divide",
    "tiled_product",
    "to_svg",
    "to_svg_tv",
    "zipped_divide",
    "zipped_product",
]
