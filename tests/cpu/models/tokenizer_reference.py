#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Cross-checks models/common's Tokenizer against the Python `tokenizers` package.

Trains a small byte-level BPE with tokenizers itself, set up as Qwen2/Qwen3's tokenizer.json is
(NFC normalizer, Split by Qwen2's regex then ByteLevel, ByteLevel decoder and post-processor,
the special tokens <|endoftext|> <|im_start|> <|im_end|> after the vocab, plus Qwen3's non-special
<think> </think>), on a generated multilingual corpus. Then writes variants of it: merges as
"a b" strings (Qwen's files) instead of pairs; added tokens with lstrip/rstrip/normalized and one
that is a prefix of another; Llama 3's regex with ignore_merges and a TemplateProcessing; no
normalizer and no decoder. Each variant encodes a few hundred strings and decodes id lists with
tokenizers and with the C++ checker; any difference fails the test (the first few are printed).
Files that tokenizers rejects must be rejected by the C++ reader too.

    tokenizer_reference.py <models_tokenizer_check> <work folder>

Needs tokenizers (scripts/setup installs it into .tools/py; the CTest puts that on PYTHONPATH).
Its absence is a failure, not a skip: the cross-check must run in CI. Characters are taken from
this Python's unicodedata (Unicode 14), the version models/common/unicode_tables.* were made from."""
import json
import random
import shutil
import subprocess
import sys
import unicodedata
from pathlib import Path

try:
    import tokenizers
    from tokenizers import AddedToken, Regex, Tokenizer, decoders, models, normalizers, pre_tokenizers, processors
    from tokenizers import trainers
except ImportError as e:
    print(f"FAIL: {e}: the cross-check needs tokenizers; run scripts/setup "
          "(it installs it into .tools/py, which this test puts on PYTHONPATH)", file=sys.stderr)
    sys.exit(1)

QWEN2 = (r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+"
         r"|\s+(?!\S)|\s+")
LLAMA3 = QWEN2.replace(r"|\p{N}|", r"|\p{N}{1,3}|")
SPECIAL = ["<|endoftext|>", "<|im_start|>", "<|im_end|>"]
SEED = 20261130

ENGLISH = ("the quick brown fox jumps over lazy dog I'm you're we've they'll she'd it's don't CAN'T "
           "tokenizer model weights attention layer kernel memory bandwidth throughput latency "
           "Hello World hello world THE END of the line").split()
CODE = ["def f(x):\n    return x * 2\n", "for (int i = 0; i < n; ++i) {\n\ta[i] += b[i];\n}\n",
        "if x != None and y >= 3: print(f\"{x!r}\")", "#include <vector>\r\nint main() { return 0; }\r\n",
        "SELECT * FROM t WHERE id = 42;", "x = [1, 2, 3]  # comment", "const char* s = \"\\n\";",
        "    \n    \n", "fn main() -> Result<(), Box<dyn Error>> { Ok(()) }", "a_b_c = __init__(self)"]
NUMBERS = ["0", "7", "42", "1234567890", "3.14159", "1,000,000", "-17", "2026-11-30", "0x1F600", "1e-9",
           "\u0663\u0664\u0665", "\u2460\u2461", "\u216b", "\u00bd", "\uff11\uff12"]
EUROPEAN = ["Stra\u00dfe", "M\u00fcnchen", "\u00fcber", "Gr\u00f6\u00dfe", "\u00c4rger", "caf\u00e9", "na\u00efve",
            "fran\u00e7ais", "\u00e9l\u00e8ve", "c\u0153ur", "\u00c0 bient\u00f4t", "No\u00ebl", "Espa\u00f1a",
            "\u0141\u00f3d\u017a", "\u0159e\u0161en\u00ed", "\u0391\u03b8\u03ae\u03bd\u03b1",
            "\u041c\u043e\u0441\u043a\u0432\u0430"]
CHINESE = ["\u4f60\u597d", "\u4e16\u754c", "\u6211\u4eec", "\u4eba\u5de5\u667a\u80fd", "\u6a21\u578b",
           "\u7684", "\u662f", "\u5728", "\u4e2d\u6587\u6d4b\u8bd5", "\u3002", "\uff0c", "\u300c\u5f15\u7528\u300d"]
JAPANESE = ["\u3053\u3093\u306b\u3061\u306f", "\u30ab\u30bf\u30ab\u30ca", "\u65e5\u672c\u8a9e", "\u304c\u304e\u3050",
            "\u304b\u3099", "\u30d2\u309a", "\u3067\u3059", "\u6771\u4eac\u90fd"]
ARABIC = ["\u0645\u0631\u062d\u0628\u0627", "\u0627\u0644\u0639\u0631\u0628\u064a\u0629", "\u0634\u0643\u0631\u0627",
          "\u0628\u0650\u0633\u0652\u0645\u0650", "\u0661\u0662\u0663"]
EMOJI = ["\U0001F600", "\U0001F44D\U0001F3FD", "\U0001F468\u200d\U0001F469\u200d\U0001F467", "\U0001F1E9\U0001F1EA",
         "\u2764\ufe0f", "\U0001F680", "\u2603", "\U0001F9D1\u200d\U0001F4BB"]
COMBINING = ["e\u0301", "a\u0300", "o\u0308", "n\u0303", "c\u0327", "A\u030a", "e\u0323\u0302", "e\u0302\u0323",
             "a\u0316\u0301", "a\u0301\u0316", "\u1100\u1161\u11a8", "\u1112\u1161\u11ab\u1100\u1173\u11af",
             "\u212b", "\u2126", "\u0344", "\u0958", "\ufb2c", "Vie\u0323\u0302t", "q\u0307\u0323"]
SPACES = [" ", "  ", "   ", "\t", "\t\t", "\n", "\n\n", "\r\n", "\r\n\r\n", " \n ", "\u00a0", "\u3000", "\u2003",
          "\u2028", "\u0085", "\x0b", "\x0c", "\x1c", " \t \n", "\r"]


def corpus(rng):
    pools = [ENGLISH] * 4 + [CODE, NUMBERS, EUROPEAN, CHINESE, JAPANESE, ARABIC, EMOJI, COMBINING]
    lines = []
    for _ in range(4000):
        words = [rng.choice(rng.choice(pools)) for _ in range(rng.randint(3, 14))]
        lines.append("".join(w + rng.choice([" ", " ", " ", "", "\n", ", ", ". "]) for w in words))
    return lines


def test_strings(rng):
    fixed = [
        "", " ", "a", "Hello world", "Hello  world", "Hello world  ", "  leading", "trailing   ", "\n", "\n\n\n",
        "I'm", "don't", "'S 'T 'RE 'VE 'M 'LL 'D", "we'Re you'LL", "'s's", "''", "'x", "'\u017f", "rock'n'roll",
        "it's 5 o'clock", "'123", "12345", "3.14159", "1,000,000", "a1b2c3", "x\u00b2", "\u0663\u0664\u0665abc",
        "\u2460\u2461\u2462", "\u216b", "abc123def", "\uff11\uff12\uff13",
        "\u4f60\u597d\u4e16\u754c", "\u4f60\u597d\uff0c\u4e16\u754c\u3002",
        "\u65e5\u672c\u8a9e\u306e\u30c6\u30ad\u30b9\u30c8",
        "\u304b\u3099\u304d\u3099", "\u0645\u0631\u062d\u0628\u0627 \u0628\u0627\u0644\u0639\u0627\u0644\u0645",
        "\U0001F600\U0001F600", "hi \U0001F44D\U0001F3FD!", "\U0001F468\u200d\U0001F469\u200d\U0001F467 family",
        "\U0001F1E9\U0001F1EA\U0001F1EB\U0001F1F7", "e\u0301", "cafe\u0301", "Cafe\u0301 au lait", "a\u0316\u0301",
        "\u1100\u1161\u11a8", "\u212b\u2126", "x\u0344y", "\u0958\u0959", "\u0301start", "a\u0301\u0301\u0301",
        "\t\tx", "a \t b", "a\t\tb", "a  \n\n  b", "x\r\ny", "x\r\n\r\ny", "\r\n", "end\r\n", " \r\n ", "a\n b",
        "a \nb", "tab\tsep\tvalues\n", "\u00a0\u00a0x", "\u3000\u3000abc", "x\u2028y", "x\u0085y", "x\x1cy",
        "x\x0b\x0cy", "  !!  ", "!!!\n\n\nabc", " ?!", "...", "a...b", "(a)[b]{c}", "--flag=value", "http://x.y/z?q=1",
        "\\n\\t", "$100.00", "50%", "#hashtag @user", "\u00ab\u00bb\u201c\u201d", "\u2014\u2013",
        "<|im_start|>user\nhello<|im_end|>\n<|im_start|>assistant\n", "<|endoftext|>", "<|endoftext|><|endoftext|>",
        "a<|im_end|>b", "<|im_start", "<|im_start|", "<|im_start|><|im_end|>", " <|im_start|> ",
        "<think>\n\n</think>\n\nanswer", "<think></think>", "<thinking>", "</think >",
        "[MASK]", "a [MASK] b", "a\t[MASK]\t b", "[MASK][MASK]", "  [MASK]  x", "cafe\u0301!", "caf\u00e9!",
        "<|im", "<|im_start|>", "x<|imy",
        "a" * 300, "ab" * 200, "\u4f60" * 100, "1" * 50, " " * 40 + "x", "\n" * 30, "!" * 100,
        "word " * 60,
    ]
    pool = "".join(ENGLISH) + "".join(NUMBERS) + "".join(EUROPEAN) + "".join(CHINESE) + "".join(JAPANESE) + \
        "".join(ARABIC) + "".join(EMOJI) + "".join(COMBINING) + "".join(SPACES) + "'''!?.,;:-_()[]{}<>|/\\\"#$%&*+=~^`@"
    pool = sorted(set(pool))
    assert all(unicodedata.category(c) != "Cn" for c in pool)
    randoms = ["".join(rng.choice(pool) for _ in range(rng.randint(1, 40))) for _ in range(250)]
    pieces = [ENGLISH, CODE, NUMBERS, EUROPEAN, CHINESE, JAPANESE, ARABIC, EMOJI, COMBINING, SPACES,
              SPECIAL, ["<think>", "</think>", "[MASK]", "cafe\u0301!", "<|im"]]
    mixed = ["".join(rng.choice(rng.choice(pieces)) for _ in range(rng.randint(2, 20))) for _ in range(250)]
    return fixed + randoms + mixed


def train(lines):
    tok = Tokenizer(models.BPE())
    tok.normalizer = normalizers.NFC()
    tok.pre_tokenizer = pre_tokenizers.Sequence([
        pre_tokenizers.Split(Regex(QWEN2), behavior="isolated", invert=False),
        pre_tokenizers.ByteLevel(add_prefix_space=False, trim_offsets=False, use_regex=False)])
    tok.decoder = decoders.ByteLevel(add_prefix_space=False, trim_offsets=False, use_regex=False)
    tok.post_processor = processors.ByteLevel(add_prefix_space=False, trim_offsets=False, use_regex=False)
    trainer = trainers.BpeTrainer(vocab_size=4000, min_frequency=1, show_progress=False,
                                  initial_alphabet=pre_tokenizers.ByteLevel.alphabet())
    tok.train_from_iterator(lines, trainer)
    # As in Qwen's file: special tokens after the vocab, not normalized; <think> added but not special.
    tok.add_special_tokens([AddedToken(s, special=True, normalized=False) for s in SPECIAL])
    tok.add_tokens([AddedToken(s, special=False, normalized=False) for s in ("<think>", "</think>")])
    return tok


def variants(tok, work):
    base = json.loads(tok.to_str())
    assert base["model"]["merges"] and isinstance(base["model"]["merges"][0], list), "expected pair merges"
    out = {"qwen_pairs": base}

    legacy = json.loads(json.dumps(base))
    assert all(" " not in a and " " not in b for a, b in legacy["model"]["merges"])
    legacy["model"]["merges"] = [f"{a} {b}" for a, b in legacy["model"]["merges"]]
    out["qwen_string_merges"] = legacy

    flags = Tokenizer.from_str(tok.to_str())
    flags.add_tokens([AddedToken("[MASK]", lstrip=True, rstrip=True, normalized=False, special=False),
                      AddedToken("cafe\u0301!", normalized=True, special=False),
                      AddedToken("<|im", normalized=False, special=False)])
    flags.add_special_tokens([AddedToken("<|sep|>", special=True, normalized=False, rstrip=True)])
    out["added_flags"] = json.loads(flags.to_str())

    llama = json.loads(json.dumps(base))
    llama["pre_tokenizer"]["pretokenizers"][0]["pattern"]["Regex"] = LLAMA3
    llama["model"]["ignore_merges"] = True
    bos = next(t["id"] for t in base["added_tokens"] if t["content"] == "<|endoftext|>")
    with_template = Tokenizer.from_str(tok.to_str())
    with_template.post_processor = processors.Sequence([
        processors.ByteLevel(add_prefix_space=False, trim_offsets=False, use_regex=False),
        processors.TemplateProcessing(single="<|endoftext|> $A <|im_end|>",
                                      special_tokens=[("<|endoftext|>", bos), ("<|im_end|>", bos + 2)])])
    llama["post_processor"] = json.loads(with_template.to_str())["post_processor"]
    out["llama3_template"] = llama

    bare = json.loads(json.dumps(base))
    bare["normalizer"] = None
    bare["decoder"] = None
    out["no_normalizer_no_decoder"] = bare

    paths = {}
    for name, doc in out.items():
        paths[name] = work / f"{name}.json"
        paths[name].write_text(json.dumps(doc, ensure_ascii=False, indent=1))
    return paths


def rejected(base, work):
    """Damaged files that tokenizers refuses to load; the C++ reader must refuse them too."""
    cases = {}
    bad = json.loads(json.dumps(base))
    bad["model"]["merges"].append(["nope", "zzz"])
    cases["merge_not_in_vocab"] = bad
    bad = json.loads(json.dumps(base))
    bad["version"] = "2.0"
    cases["version"] = bad
    bad = json.loads(json.dumps(base))
    bad["model"]["merges"] = [f"{a} {b} c" for a, b in bad["model"]["merges"][:3]]
    cases["merge_three_parts"] = bad
    paths = {}
    for name, doc in cases.items():
        text = json.dumps(doc, ensure_ascii=False)
        try:
            Tokenizer.from_str(text)
        except Exception:
            paths[name] = work / f"rejected_{name}.json"
            paths[name].write_text(text)
            continue
        raise SystemExit(f"FAIL: tokenizers accepts the damaged file {name}; the test's damage is wrong")
    return paths


def main():
    checker, work = sys.argv[1], Path(sys.argv[2])
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    rng = random.Random(SEED)
    tok = train(corpus(rng))
    texts = test_strings(rng)
    long_text = "\n".join(corpus(random.Random(SEED + 1))[:2000])
    print(f"tokenizers {tokenizers.__version__}; vocab {tok.get_vocab_size()}; {len(texts)} strings; "
          f"unicodedata {unicodedata.unidata_version}")

    failures = 0
    for name, path in variants(tok, work).items():
        ref = Tokenizer.from_file(str(path))
        size = ref.get_vocab_size()
        encode = [{"text": t, "add_special_tokens": flag} for t in texts for flag in (False, True)]
        encode.append({"text": long_text, "add_special_tokens": False})
        expected = [("E " + " ".join(map(str, ref.encode(c["text"], add_special_tokens=c["add_special_tokens"]).ids)))
                    .rstrip() for c in encode]
        id_lists = [ref.encode(t).ids for t in texts[:150]]
        id_lists += [[rng.randrange(size + 3) for _ in range(rng.randint(1, 12))] for _ in range(200)]
        decode = [{"ids": ids, "skip_special_tokens": flag} for ids in id_lists for flag in (False, True)]
        expected += [("D " + ref.decode(c["ids"], skip_special_tokens=c["skip_special_tokens"]).encode().hex())
                     .rstrip() for c in decode]
        cases = work / f"{name}.cases.json"
        cases.write_text(json.dumps({"encode": encode, "decode": decode}, ensure_ascii=False))
        run = subprocess.run([checker, str(path), str(cases)], capture_output=True, text=True)
        if run.returncode != 0:
            print(f"FAIL {name}: models_tokenizer_check exited {run.returncode}\n{run.stdout[-2000:]}{run.stderr}",
                  file=sys.stderr)
            failures += 1
            continue
        got = [line.rstrip() for line in run.stdout.splitlines()]
        cases_all = encode + decode
        diffs = [i for i in range(max(len(got), len(expected)))
                 if i >= len(got) or i >= len(expected) or got[i] != expected[i]]
        for i in diffs[:5]:
            what = cases_all[i] if i < len(cases_all) else "?"
            print(f"MISMATCH {name} case {i}: {json.dumps(what, ensure_ascii=True)[:300]}\n"
                  f"  tokenizers: {expected[i] if i < len(expected) else '(none)'}\n"
                  f"  C++:        {got[i] if i < len(got) else '(none)'}", file=sys.stderr)
        failures += len(diffs)
        print(f"{name}: {len(encode)} encodings, {len(decode)} decodings, {len(diffs)} differences; "
              f"C++ {run.stderr.strip()}")

    for name, path in rejected(json.loads(tok.to_str()), work).items():
        empty = work / "empty.cases.json"
        empty.write_text('{"encode": [], "decode": []}')
        run = subprocess.run([checker, str(path), str(empty)], capture_output=True, text=True)
        if run.returncode != 3:
            print(f"FAIL rejected_{name}: tokenizers rejects it, the C++ reader exited {run.returncode}: "
                  f"{run.stdout[-500:]}{run.stderr[-500:]}", file=sys.stderr)
            failures += 1
        else:
            print(f"rejected_{name}: rejected by both: {run.stdout.strip()}")

    if failures:
        print(f"FAIL: {failures} differences from tokenizers", file=sys.stderr)
        return 1
    print("all cases agree with tokenizers")
    return 0


if __name__ == "__main__":
    sys.exit(main())
