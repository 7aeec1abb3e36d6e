#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""cute-cpp-tts's errors that come before any GPU work: the command line, the config and the prompt
are checked before the weights load, so each case exits 2 with its rule on this machine (no GPU).
The checks that need the model on the device are in models/qwen3_tts/check_tts.py.

    qwen3_tts_cli_test.py PROGRAM
"""
import copy
import json
import subprocess
import sys
import tempfile
from pathlib import Path

PREDICTOR = {"hidden_size": 256, "intermediate_size": 512, "num_hidden_layers": 2, "num_attention_heads": 4,
             "num_key_value_heads": 2, "head_dim": 64, "vocab_size": 128, "rms_norm_eps": 1e-06,
             "rope_theta": 1000000.0, "num_code_groups": 4}
CONFIG = {
    "model_type": "qwen3_tts", "tts_model_type": "custom_voice", "tts_model_size": "1b7", "torch_dtype": "bfloat16",
    "im_start_token_id": 900, "im_end_token_id": 901, "tts_pad_token_id": 902, "tts_bos_token_id": 903,
    "tts_eos_token_id": 904,
    "talker_config": {
        "hidden_size": 256, "intermediate_size": 512, "num_hidden_layers": 2, "num_attention_heads": 4,
        "num_key_value_heads": 2, "head_dim": 64, "vocab_size": 192, "rms_norm_eps": 1e-06, "rope_theta": 1000000.0,
        "rope_scaling": {"interleaved": True, "mrope_section": [12, 10, 10], "rope_type": "default"},
        "text_vocab_size": 1000, "text_hidden_size": 256, "num_code_groups": 4,
        "codec_pad_id": 130, "codec_bos_id": 131, "codec_eos_token_id": 132, "codec_think_id": 133,
        "codec_nothink_id": 134, "codec_think_bos_id": 135, "codec_think_eos_id": 136,
        "spk_id": {"ann": 150}, "spk_is_dialect": {"ann": False}, "codec_language_id": {"english": 140},
        "code_predictor_config": PREDICTOR,
    },
}


# bench's speech tokenizer (speech_tokenizer/config.json): a decoder config its parser accepts, with the
# talker's 4 code groups of 128 codes (or, with mismatch, 3 groups).
DECODER = {"codebook_size": 128, "codebook_dim": 16, "num_quantizers": 4, "latent_dim": 16, "hidden_size": 16,
           "num_hidden_layers": 1, "num_attention_heads": 1, "num_key_value_heads": 1, "head_dim": 64,
           "intermediate_size": 24, "sliding_window": 4, "upsampling_ratios": [2], "upsample_rates": [3, 4],
           "decoder_dim": 32}


def folder(root, name, edit=None, speech_tokenizer=None):
    path = root / name
    path.mkdir()
    config = copy.deepcopy(CONFIG)
    if edit:
        edit(config)
    (path / "config.json").write_text(json.dumps(config))
    if speech_tokenizer is not None:
        (path / "speech_tokenizer").mkdir()
        (path / "speech_tokenizer/config.json").write_text(json.dumps(
            {"model_type": "qwen3_tts_tokenizer_12hz", "decoder_config": dict(DECODER, **speech_tokenizer)}))
    return str(path)


def main():
    program = sys.argv[1]
    root = Path(tempfile.mkdtemp(prefix="tts-cli-"))
    tts = folder(root, "tts")
    qwen3 = folder(root, "qwen3", lambda c: c.update(model_type="qwen3"))
    sections = folder(root, "sections", lambda c: c["talker_config"]["rope_scaling"].update(mrope_section=[12, 10, 9]))
    speech = folder(root, "speech", speech_tokenizer={})
    mismatch = folder(root, "mismatch", speech_tokenizer={"num_quantizers": 3})
    ids = ["--ids", "900,5,6,7,901,6,900,5,6"]  # role (3), one text id, the closing turn and the next header (5)
    cases = [
        # (arguments, rule expected on stderr's first line, text expected in it)
        ([], "tts.usage", "no command"),
        (["speak"], "tts.usage", 'unknown command "speak"'),
        (["codes", *ids], "tts.usage", "--model is required"),
        (["codes", "--model", tts], "tts.usage", "give one of --text and --ids"),
        (["codes", "--model", tts, "--text", "hi", *ids], "tts.usage", "give one of --text and --ids"),
        (["codes", "--model", tts, "--ids", "900,5,6,7"], "tts.prompt", "the assistant text has 4 ids"),
        (["codes", "--model", tts, "--ids", "900,5,6,1000,901,6,900,5,6"], "tts.prompt",
         "text id 1000 is outside [0, 1000)"),
        (["codes", "--model", tts, *ids, "--speaker", "bob"], "tts.speaker", 'speaker "bob" is not in spk_id (ann)'),
        (["codes", "--model", tts, *ids, "--language", "klingon"], "tts.language", 'language "klingon"'),
        (["codes", "--model", tts, *ids, "--max-new-tokens", "0"], "tts.usage", "--max-new-tokens 1 to 2^20"),
        (["codes", "--model", qwen3, *ids], "config.model-type", 'expected "qwen3_tts"'),
        (["codes", "--model", sections, *ids], "config.value", "adds up to 31, expected head_dim / 2 = 32"),
        (["logits", "--model", tts, *ids, "--out", str(root / "x.bin")], "tts.usage", "--codes is required"),
        # bench: its options, then the two configs and the prompt, all before the weights go to the device.
        (["bench", *ids], "tts.usage", "--model is required"),
        (["bench", "--model", speech, *ids, "--frames", "0"], "tts.usage", "--frames 1 to 4096"),
        (["bench", "--model", speech, *ids, "--frames", "4097"], "tts.usage", "--frames 1 to 4096"),
        (["bench", "--model", speech, *ids, "--batch", "0"], "tts.usage", "--batch 1 to 64"),
        (["bench", "--model", speech, *ids, "--runs", "0"], "tts.usage", "--runs and --stream-chunk at least 1"),
        (["bench", "--model", speech, *ids, "--stream-chunk", "0"], "tts.usage", "--stream-chunk at least 1"),
        (["bench", "--model", speech, *ids, "--left-context", "-1"], "tts.usage", "--left-context at least 0"),
        (["bench", "--model", speech, *ids, "--frames", "ten"], "tts.usage", "--frames"),
        (["bench", "--model", speech, *ids, "--random-weights", "-1"], "tts.usage", "--random-weights takes a seed"),
        (["bench", "--model", tts, *ids], "json.file", "speech_tokenizer"),
        (["bench", "--model", mismatch, *ids], "tts.codec-match", "the talker has 4 groups of 128 codes; the speech "
         "tokenizer 3 of 128"),
        (["bench", "--model", speech], "tokenizer.files", ""),  # the default sentence needs DIR's tokenizer
        (["bench", "--model", speech, *ids, "--speaker", "bob"], "tts.speaker", 'speaker "bob"'),
    ]
    failed = 0
    # prompt needs no GPU: the rows of the --ids text with speaker ann, language auto, non-streaming.
    r = subprocess.run([program, "prompt", "--model", tts, *ids, "--speaker", "ANN"], capture_output=True, text=True,
                       timeout=60)
    expected = {"rows": [[900, -1], [5, -1], [6, -1], [902, 134], [902, 135], [902, 136], [902, 150], [903, 130],
                         [7, 130], [904, 130], [902, 131]], "trailing": [], "pad": 902}
    ok = r.returncode == 0 and json.loads(r.stdout) == expected
    print(f"{'pass' if ok else 'FAIL'}: prompt -> {r.stdout.strip()[:160]} {r.stderr.strip()[:160]}")
    failed += not ok
    for args, rule, text in cases:
        r = subprocess.run([program, *args], capture_output=True, text=True, timeout=60)
        first = r.stderr.splitlines()[0] if r.stderr else ""
        ok = r.returncode == 2 and f"[{rule}]" in first and text in first
        print(f"{'pass' if ok else 'FAIL'}: {' '.join(args)[:80]} -> {first[:160]}")
        failed += not ok
    # synthesize without the codec decoder (models/qwen3_tts/codec.hpp, the tts-codec branch's): the error
    # comes first, before any GPU work.
    if (Path(__file__).resolve().parents[3] / "models/qwen3_tts/codec.hpp").exists():
        print(f"{len(cases) + 1 - failed} passed, {failed} failed")
        return 1 if failed else 0
    r = subprocess.run([program, "synthesize", "--model", tts, *ids, "--out", str(root / "x.wav")], capture_output=True,
                       text=True, timeout=60)
    ok = r.returncode == 2 and r.stderr.strip() == "cute-cpp: tts.codec-decoder: not built in this branch"
    print(f"{'pass' if ok else 'FAIL'}: synthesize -> {r.stderr.strip()[:160]}")
    failed += not ok
    print(f"{len(cases) + 2 - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
