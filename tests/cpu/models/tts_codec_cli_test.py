#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""cute-cpp-tts-codec's errors that come before any GPU work: the command line, the config, the codes file and
the checkpoint's manifest are checked before the weights go to the device, so each case exits 2 with its rule on
this machine (no GPU). The decodes themselves are models/qwen3_tts/check_tts_codec.py's.

    tts_codec_cli_test.py PROGRAM
"""
import json
import struct
import subprocess
import sys
import tempfile
from pathlib import Path

DECODER = {"codebook_size": 4, "codebook_dim": 16, "num_quantizers": 3, "latent_dim": 16, "hidden_size": 16,
           "num_hidden_layers": 1, "num_attention_heads": 1, "num_key_value_heads": 1, "head_dim": 64,
           "intermediate_size": 24, "sliding_window": 4, "upsampling_ratios": [2], "upsample_rates": [3, 4],
           "decoder_dim": 32}


def folder(root, name, tensors=None, model_type="qwen3_tts_tokenizer_12hz", **changes):
    path = root / name
    path.mkdir()
    (path / "config.json").write_text(json.dumps({"model_type": model_type,
                                                  "decoder_config": dict(DECODER, **changes)}))
    if tensors is not None:  # a safetensors file of float32 zeros
        header, offset = {}, 0
        for tensor_name, shape in tensors.items():
            n = 4
            for d in shape:
                n *= d
            header[tensor_name] = {"dtype": "F32", "shape": shape, "data_offsets": [offset, offset + n]}
            offset += n
        text = json.dumps(header).encode()
        text += b" " * (-len(text) % 8)
        (path / "model.safetensors").write_bytes(struct.pack("<Q", len(text)) + text + bytes(offset))
    return str(path)


def main():
    program = sys.argv[1]
    root = Path(tempfile.mkdtemp(prefix="tts-codec-cli-"))
    toy = folder(root, "toy", tensors={"decoder.pre_conv.conv.bias": [16]})
    codes = root / "codes.bin"
    codes.write_bytes(bytes(4 * 3 * 5))  # batch 1, 3 quantizers, 5 frames
    out = str(root / "wave.bin")
    decode = ["decode", "--model", toy, "--codes", str(codes), "--out", out]
    cases = [
        # (arguments, rule expected on stderr's first line, text expected in it)
        ([], "tts-codec.usage", "no command"),
        (["serve"], "tts-codec.usage", 'unknown command "serve"'),
        (["decode", "--codes", str(codes), "--frames", "5", "--out", out], "tts-codec.usage", "--model is required"),
        (decode + ["--frames", "5", "--random-weights", "1"], "tts-codec.usage", "accepted by bench only"),
        (decode, "tts-codec.usage", "--frames given"),
        (decode + ["--frames", "5", "--chunk", "0"], "tts-codec.usage", "--chunk and --stream take at least 1"),
        (decode + ["--frames", "4"], "tts-codec.usage", "holds 60 bytes"),
        (decode + ["--frames", "5", "--batch", "2"], "tts-codec.usage", "give 120"),
        (["decode", "--model", folder(root, "mimi", model_type="mimi"), "--codes", str(codes), "--frames", "5",
          "--out", out], "config.model-type", '"model_type" is "mimi"'),
        (["decode", "--model", folder(root, "r6", upsample_rates=[6, 4]), "--codes", str(codes), "--frames", "5",
          "--out", out], "config.unsupported", '"upsample_rates" holds 6'),
        (["decode", "--model", folder(root, "h32", head_dim=32), "--codes", str(codes), "--frames", "5",
          "--out", out], "config.unsupported", "the head dimension is 32"),
        (decode + ["--frames", "5"], "tts-codec.tensor-missing",
         '"decoder.quantizer.rvq_first.vq.layers.0._codebook.embedding_sum" [4, 8] F32 is not in'),
    ]
    failed = 0
    for args, rule, text in cases:
        r = subprocess.run([program, *args], capture_output=True, text=True, timeout=60)
        first = r.stderr.strip().splitlines()[0] if r.stderr.strip() else "(no stderr)"
        ok = r.returncode == 2 and first.startswith(f"cute-cpp [{rule}]: ") and text in first
        if not ok:
            failed += 1
            print(f"FAIL {args}: exit {r.returncode}, stderr: {first}\n  expected [{rule}] with: {text}")
    print(f"{len(cases) - failed} of {len(cases)} cases pass")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
