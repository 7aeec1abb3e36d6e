#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# SPDX-FileCopyrightText: 2026 cute-cpp authors
"""CPU check of check_tts_codec.py's float64 torch decoder and random checkpoint against qwen-tts itself.

  check_reference_cpu.py --qwen-tts SRC [--program BUILD/models/qwen3_tts/cute-cpp-tts-codec]

SRC is a folder holding qwen-tts's source (SRC/qwen_tts/core/tokenizer_12hz/...; the package's own __init__ needs
librosa and more, so only that subpackage is imported). Needs torch and transformers 4.57.3 (qwen-tts's pin), no
GPU. At reduced widths (a few seconds on a CPU), with GQA, a window of 5 and of 72 and 90 frames:
  - the random state loads strictly into qwen-tts's Qwen3TTSTokenizerV2Decoder (every name and shape);
  - the torch decoder's waveform against qwen-tts's forward and chunked_decode(12, 25) in float64: SNR >= 100 dB
    (qwen-tts computes RMSNorm and RoPE in float32 inside a float64 model: about 140 dB is what agrees);
  - the bf16-storage emulation's SNR (what check_tts_codec.py lets the GPU decoder come within 3 dB of);
  - with --program: cute-cpp-tts-codec's manifest accepts the checkpoint (it then stops at its first CUDA call
    when there is no GPU: any error but a tts-codec.* or config.* rule passes)."""
import argparse
import importlib.util
import subprocess
import sys
import tempfile
import types
from pathlib import Path


def load_modules(src):
    """check_tts_codec.py, and qwen-tts's tokenizer_12hz without the package's __init__."""
    spec = importlib.util.spec_from_file_location("check_tts_codec", Path(__file__).with_name("check_tts_codec.py"))
    chk = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(chk)
    for name in ("qwen_tts", "qwen_tts.core"):
        package = types.ModuleType(name)
        package.__path__ = [str(Path(src, *name.split(".")))]
        sys.modules[name] = package
    from qwen_tts.core.tokenizer_12hz import configuration_qwen3_tts_tokenizer_v2 as conf
    from qwen_tts.core.tokenizer_12hz import modeling_qwen3_tts_tokenizer_v2 as model
    return chk, conf.Qwen3TTSTokenizerV2DecoderConfig, model.Qwen3TTSTokenizerV2Decoder


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--qwen-tts", required=True)
    ap.add_argument("--program")
    opts = ap.parse_args()
    chk, Config, Decoder = load_modules(opts.qwen_tts)
    import numpy as np
    import torch
    failed = 0
    for layers, window in ((2, 5), (8, 72)):
        cfg = dict(chk.DECODER_CONFIG, codebook_size=64, codebook_dim=32, latent_dim=32, hidden_size=32,
                   num_attention_heads=2, num_key_value_heads=1, intermediate_size=48, sliding_window=window,
                   decoder_dim=128, num_hidden_layers=layers, num_quantizers=4)
        state = chk.random_state(cfg, torch.Generator().manual_seed(1))
        codes = torch.randint(0, 64, (2, 4, 90), generator=torch.Generator().manual_seed(2))
        with torch.no_grad():
            chk.scaled_output(state, cfg, codes.numpy(), device="cpu")
            config = Config(**cfg)
            config._attn_implementation = "eager"
            reference = Decoder(config).double().eval()
            reference.load_state_dict(state, strict=True)
            ref, ours = reference(codes), chk.torch_decode(codes, state, cfg)
            emulated = chk.torch_decode(codes, state, cfg, q=lambda v: v.to(torch.bfloat16).to(torch.float64))
            ref_chunked = reference.chunked_decode(codes, chunk_size=12, left_context_size=25)
            ours_chunked = chk.chunked(lambda c: chk.torch_decode(c, state, cfg), codes, 1920, 12, 25)
        whole, chunked = chk.snr_db(ours.numpy(), ref.numpy()), chk.snr_db(ours_chunked.numpy(), ref_chunked.numpy())
        ok = whole >= 100 and chunked >= 100
        failed += not ok
        print(f"{'pass' if ok else 'FAIL'}: {layers} layers, window {window}: torch decoder vs qwen-tts {whole:.1f} dB, "
              f"chunked (12, 25) {chunked:.1f} dB; bf16-storage emulation {chk.snr_db(emulated.numpy(), ref.numpy()):.1f}"
              f" dB; {100 * float((ref.abs() >= 1).double().mean()):.2f}% clamped")
        if opts.program:
            with tempfile.TemporaryDirectory() as work:
                chk.write_checkpoint(Path(work, "ck"), cfg, state)
                np.zeros((1, 4, 3), dtype="<i4").tofile(Path(work, "codes.bin"))
                r = subprocess.run([opts.program, "decode", "--model", str(Path(work, "ck")), "--codes",
                                    str(Path(work, "codes.bin")), "--frames", "3", "--out", str(Path(work, "w"))],
                                   capture_output=True, text=True, timeout=120)
                first = (r.stderr.strip().splitlines() or ["(none)"])[0]
                ok = r.returncode == 0 or not ("[tts-codec." in first or "[config." in first)
                failed += not ok
                print(f"{'pass' if ok else 'FAIL'}: the program's manifest on that checkpoint: exit {r.returncode}, "
                      f"{first[:160]}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
