#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Writes models/common/unicode_tables.hpp and .cpp: the Unicode data of the tokenizer
(models/common/unicode_text.cpp and pre_tokenizer.cpp), taken from this Python's unicodedata module.

    python3 tools/gen_unicode_tables.py [--check] [OUTPUT_DIR]   (default: models/common)

--check regenerates in memory and compares with the files in OUTPUT_DIR (exit status 1 when
stale); the CTest models.unicode_tables_up_to_date runs it. The tables:
  - the pre-tokenizer regex's classes: \\p{L} (Lu Ll Lt Lm Lo), \\p{N} (Nd Nl No) and \\s, the
    White_Space property (what Oniguruma's and Rust regex's Unicode \\s match), as ranges;
  - NFC: canonical combining classes (ranges), one-level canonical decompositions, primary
    composites (pairs that compose), and the ranges whose NFC quick check is not Yes.
Before writing, NFC built from these tables is checked against unicodedata.normalize for every
code point and for generated sequences, so a table the C++ side reads is known to be complete."""
import random
import sys
import unicodedata
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MAX_CP = 0x10FFFF
SBASE, LBASE, VBASE, TBASE = 0xAC00, 0x1100, 0x1161, 0x11A7
LCOUNT, VCOUNT, TCOUNT = 19, 21, 28
SCOUNT = LCOUNT * VCOUNT * TCOUNT

# White_Space (PropList.txt; stable since Unicode 6.3). unicodedata has no property lookup, so the
# list is written here and checked against str.isspace, which also takes U+001C..U+001F
# (bidi class B or S) that White_Space leaves out.
WHITE_SPACE = [0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x20, 0x85, 0xA0, 0x1680, *range(0x2000, 0x200B), 0x2028, 0x2029,
               0x202F, 0x205F, 0x3000]
CLASS_LETTER, CLASS_NUMBER, CLASS_SPACE = 1, 2, 3


def code_points():
    return (cp for cp in range(MAX_CP + 1) if not 0xD800 <= cp <= 0xDFFF)


def ranges(values):
    """{cp: tag} -> [(first, last, tag)] merging runs of consecutive code points with one tag."""
    out = []
    for cp in sorted(values):
        tag = values[cp]
        if out and out[-1][1] == cp - 1 and out[-1][2] == tag:
            out[-1][1] = cp
        else:
            out.append([cp, cp, tag])
    return [tuple(r) for r in out]


def regex_classes():
    spaces = set(WHITE_SPACE)
    isspace = {cp for cp in code_points() if chr(cp).isspace()}
    assert isspace - spaces == {0x1C, 0x1D, 0x1E, 0x1F} and not spaces - isspace, "White_Space list is stale"
    classes = {}
    for cp in code_points():
        cat = unicodedata.category(chr(cp))
        if cat[0] == "L":
            classes[cp] = CLASS_LETTER
        elif cat[0] == "N":
            classes[cp] = CLASS_NUMBER
        elif cp in spaces:
            classes[cp] = CLASS_SPACE
    assert all(unicodedata.category(chr(cp))[0] not in "LN" for cp in spaces)
    return ranges(classes)


def nfc_data():
    ccc = {cp: unicodedata.combining(chr(cp)) for cp in code_points() if unicodedata.combining(chr(cp))}
    decomp = {}
    for cp in code_points():
        d = unicodedata.decomposition(chr(cp))
        if d and not d.startswith("<"):
            parts = [int(x, 16) for x in d.split()]
            assert 1 <= len(parts) <= 2, hex(cp)
            decomp[cp] = (parts[0], parts[1] if len(parts) == 2 else 0)
    # A primary composite is a two-part decomposition that NFC keeps (not Full_Composition_Exclusion).
    compose = {}
    for cp, (a, b) in decomp.items():
        if b and unicodedata.normalize("NFC", chr(cp)) == chr(cp):
            assert (a, b) not in compose
            compose[(a, b)] = cp
    # NFC quick check not Yes: a non-zero class, a character NFC changes, or one that can compose
    # with what precedes it (Hangul V and T jamo included).
    seconds = {b for (_, b) in compose} | set(range(VBASE, VBASE + VCOUNT)) | set(range(TBASE + 1, TBASE + TCOUNT))
    unsafe = {cp: 0 for cp in code_points()
              if cp in ccc or cp in seconds or unicodedata.normalize("NFC", chr(cp)) != chr(cp)}
    return ccc, decomp, compose, ranges(unsafe)


def nfc_model(text, ccc, decomp, compose):
    """NFC from the tables, as models/common/unicode_text.cpp computes it."""
    def decompose(cp, out):
        if SBASE <= cp < SBASE + SCOUNT:
            s = cp - SBASE
            out += [LBASE + s // (VCOUNT * TCOUNT), VBASE + (s % (VCOUNT * TCOUNT)) // TCOUNT]
            if s % TCOUNT:
                out.append(TBASE + s % TCOUNT)
        elif cp in decomp:
            a, b = decomp[cp]
            decompose(a, out)
            if b:
                decompose(b, out)
        else:
            out.append(cp)
    cps = []
    for ch in text:
        decompose(ord(ch), cps)
    i = 0
    while i < len(cps):  # canonical order: stable sort of each run of non-zero classes
        if ccc.get(cps[i], 0) == 0:
            i += 1
            continue
        j = i
        while j < len(cps) and ccc.get(cps[j], 0):
            j += 1
        cps[i:j] = sorted(cps[i:j], key=lambda c: ccc[c])
        i = j
    out, starter, last_ccc = [], -1, 0
    for cp in cps:
        c = ccc.get(cp, 0)
        if starter >= 0 and (last_ccc < c or (last_ccc == 0 and len(out) - 1 == starter)):
            a = out[starter]
            composite = None
            if LBASE <= a < LBASE + LCOUNT and VBASE <= cp < VBASE + VCOUNT:
                composite = SBASE + ((a - LBASE) * VCOUNT + (cp - VBASE)) * TCOUNT
            elif SBASE <= a < SBASE + SCOUNT and (a - SBASE) % TCOUNT == 0 and TBASE < cp < TBASE + TCOUNT:
                composite = a + (cp - TBASE)
            else:
                composite = compose.get((a, cp))
            if composite is not None:
                out[starter] = composite
                continue
        if c == 0:
            starter = len(out)
        last_ccc = c
        out.append(cp)
    return "".join(map(chr, out))


def self_check(ccc, decomp, compose):
    """The tables reproduce unicodedata.normalize("NFC", .) for each code point, each code point
    after a starter and before marks, and random sequences of the characters NFC touches."""
    touched = set(ccc) | set(decomp) | {b for (_, b) in compose} | {a for (a, _) in compose}
    touched |= set(range(LBASE, LBASE + LCOUNT)) | set(range(VBASE, VBASE + VCOUNT)) | set(range(TBASE, TBASE + TCOUNT))
    for cp in code_points():
        s = chr(cp)
        # Every code point alone; in context only those the tables name, Hangul, and a sample.
        contexts = (s, "a" + s + "\u0301", "\u1100" + s, s + "\u0327\u0301\u0316") \
            if cp in touched or SBASE <= cp < SBASE + SCOUNT or cp % 97 == 0 else (s,)
        for t in contexts:
            want = unicodedata.normalize("NFC", t)
            got = nfc_model(t, ccc, decomp, compose)
            assert got == want, f"NFC tables disagree with unicodedata for {t!r}: {got!r} != {want!r}"
    rng = random.Random(20261130)
    pool = sorted(set(ccc) | set(decomp) | {b for (_, b) in compose} | {a for (a, _) in compose} |
                  set(range(LBASE, LBASE + LCOUNT)) | set(range(VBASE, VBASE + VCOUNT)) |
                  set(range(TBASE, TBASE + TCOUNT)) | {0xAC00, 0xAC01, 0xD7A3, 0x41, 0x20})
    for _ in range(20000):
        t = "".join(chr(rng.choice(pool)) for _ in range(rng.randint(1, 8)))
        want = unicodedata.normalize("NFC", t)
        got = nfc_model(t, ccc, decomp, compose)
        assert got == want, f"NFC tables disagree with unicodedata for {t!r}: {got!r} != {want!r}"


def rows(items, width=118, indent="    "):
    """Items joined by ", " into lines of at most `width` columns."""
    lines, line = [], indent
    for item in items:
        piece = item + ","
        if len(line) + len(piece) + (1 if line.strip() else 0) > width:
            lines.append(line.rstrip())
            line = indent
        line += (" " if line.strip() else "") + piece
    if line.strip():
        lines.append(line.rstrip())
    return "\n".join(lines)


def h(cp):
    return f"0x{cp:04X}"


HPP = """// SPDX-License-Identifier: Apache-2.0
#pragma once
// models/common/unicode_tables.hpp: GENERATED by tools/gen_unicode_tables.py from Python's
// unicodedata (Unicode {version}); do not edit, change the generator and rerun it. The character
// classes of the pre-tokenizer regex and the NFC data of models/common/unicode_text.cpp, as sorted,
// disjoint code point ranges where the data has runs, and per code point where it does not.
#include <cstdint>  // std::uint8_t
#include <span>     // std::span

namespace cute_cpp::models::unicode {{

/// The Unicode version of unicodedata when the tables were generated.
inline constexpr char kUnicodeVersion[] = "{version}";

/// The regex class of a range: \\p{{L}}, \\p{{N}}, or \\s (the White_Space property).
enum class RegexClass : std::uint8_t {{ other = 0, letter = {letter}, number = {number}, space = {space} }};

/// Code points first..last (inclusive) and what they hold.
struct ClassRange {{
  char32_t first;
  char32_t last;
  RegexClass cls;
}};
/// Code points first..last (inclusive) with canonical combining class ccc (non-zero).
struct CombiningClassRange {{
  char32_t first;
  char32_t last;
  std::uint8_t ccc;
}};
/// One level of a canonical decomposition: code -> first second, or code -> first when second is 0.
struct Decomposition {{
  char32_t code;
  char32_t first;
  char32_t second;
}};
/// A pair that canonical composition joins (Hangul syllables are algorithmic and not listed).
struct Composition {{
  char32_t first;
  char32_t second;
  char32_t composite;
}};
/// Code points first..last (inclusive).
struct CodeRange {{
  char32_t first;
  char32_t last;
}};

/// Letters, numbers and white space; everything not listed is RegexClass::other. Sorted by first.
[[nodiscard]] std::span<const ClassRange> regex_class_ranges() noexcept;
/// Non-zero canonical combining classes, sorted by first.
[[nodiscard]] std::span<const CombiningClassRange> combining_class_ranges() noexcept;
/// Canonical decompositions except Hangul syllables, sorted by code.
[[nodiscard]] std::span<const Decomposition> canonical_decompositions() noexcept;
/// Primary composites, sorted by (first, second).
[[nodiscard]] std::span<const Composition> canonical_compositions() noexcept;
/// Code points whose NFC quick check is not Yes (a text without them is already NFC), sorted.
[[nodiscard]] std::span<const CodeRange> nfc_quick_check_ranges() noexcept;

}}  // namespace cute_cpp::models::unicode
"""

CPP = """// SPDX-License-Identifier: Apache-2.0
// models/common/unicode_tables.cpp: GENERATED by tools/gen_unicode_tables.py from Python's
// unicodedata (Unicode {version}); do not edit, change the generator and rerun it.
#include "models/common/unicode_tables.hpp"

namespace cute_cpp::models::unicode {{

namespace {{
constexpr auto L = RegexClass::letter;
constexpr auto N = RegexClass::number;
constexpr auto S = RegexClass::space;

constexpr ClassRange kRegexClasses[] = {{
{classes}
}};

constexpr CombiningClassRange kCombiningClasses[] = {{
{ccc}
}};

constexpr Decomposition kDecompositions[] = {{
{decomp}
}};

constexpr Composition kCompositions[] = {{
{compose}
}};

constexpr CodeRange kNfcQuickCheck[] = {{
{unsafe}
}};
}}  // namespace

std::span<const ClassRange> regex_class_ranges() noexcept {{ return kRegexClasses; }}
std::span<const CombiningClassRange> combining_class_ranges() noexcept {{ return kCombiningClasses; }}
std::span<const Decomposition> canonical_decompositions() noexcept {{ return kDecompositions; }}
std::span<const Composition> canonical_compositions() noexcept {{ return kCompositions; }}
std::span<const CodeRange> nfc_quick_check_ranges() noexcept {{ return kNfcQuickCheck; }}

}}  // namespace cute_cpp::models::unicode
"""


def generate():
    version = unicodedata.unidata_version
    classes = regex_classes()
    ccc, decomp, compose, unsafe = nfc_data()
    self_check(ccc, decomp, compose)
    # The tokenizer skips NFC for text below U+0300 without looking at the tables.
    assert unsafe[0][0] >= 0x300, hex(unsafe[0][0])
    tag = {CLASS_LETTER: "L", CLASS_NUMBER: "N", CLASS_SPACE: "S"}
    hpp = HPP.format(version=version, letter=CLASS_LETTER, number=CLASS_NUMBER, space=CLASS_SPACE)
    cpp = CPP.format(
        version=version,
        classes=rows(f"{{{h(a)}, {h(b)}, {tag[t]}}}" for a, b, t in classes),
        ccc=rows(f"{{{h(a)}, {h(b)}, {t}}}" for a, b, t in ranges(ccc)),
        decomp=rows(f"{{{h(cp)}, {h(a)}, {h(b) if b else '0'}}}" for cp, (a, b) in sorted(decomp.items())),
        compose=rows(f"{{{h(a)}, {h(b)}, {h(cp)}}}" for (a, b), cp in sorted(compose.items())),
        unsafe=rows(f"{{{h(a)}, {h(b)}}}" for a, b, _ in unsafe))
    return {"unicode_tables.hpp": hpp, "unicode_tables.cpp": cpp}


def main(argv):
    check = "--check" in argv
    args = [a for a in argv if a != "--check"]
    out_dir = Path(args[0]) if args else ROOT / "models/common"
    if check:
        header = (out_dir / "unicode_tables.hpp").read_text() if (out_dir / "unicode_tables.hpp").exists() else ""
        want = f'kUnicodeVersion[] = "{unicodedata.unidata_version}"'
        if want not in header:
            print(f"FAIL: {out_dir / 'unicode_tables.hpp'} was not generated with Unicode "
                  f"{unicodedata.unidata_version} (this Python's unicodedata): rerun tools/gen_unicode_tables.py "
                  "with the Python that generated it, or regenerate and review the change", file=sys.stderr)
            return 1
    stale = []
    for name, text in generate().items():
        path = out_dir / name
        if check:
            if not path.exists() or path.read_text() != text:
                stale.append(name)
        else:
            path.write_text(text)
    if stale:
        print(f"FAIL: {', '.join(stale)} in {out_dir} differ from what tools/gen_unicode_tables.py writes; "
              "rerun it", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
