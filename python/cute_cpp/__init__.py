# SPDX-License-Identifier: Apache-2.0
# SPDX-FileCopyrightText: 2026 cute-cpp authors
"""cute-cpp from Python.

``cute_cpp.layout`` is cute-cpp's layout algebra under CuTeDSL's names: the C++ engine of the
``cute-cpp layout`` tool (include/cute_cpp/layout/), bound with nanobind, so Python and C++ give
the same answers and the same rule ids in their errors.

    >>> from cute_cpp import layout as cute
    >>> cute.logical_divide(cute.Layout.parse("(8,8):(1,8)"), cute.Layout.parse("(2,4):(1,2)"))
    ((2,4),8):((1,2),8)
"""
from . import layout

__all__ = ["layout"]
