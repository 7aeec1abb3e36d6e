#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Cross-checks models/common's safetensors reader against the reference implementation.

Writes files with Python safetensors (numpy tensors of several dtypes, 0-d and empty tensors,
metadata; raw BF16 and FP8 tensors through the byte-level serializer), reads them back with the
reference, records what it reads in expected.json, and also writes damaged copies that the
reference rejects. Then runs the C++ checker, which must read the same and reject the same.

    safetensors_reference.py <models_safetensors_check> <work folder>

Needs safetensors and numpy (scripts/setup installs them into .tools/py; the CTest puts that on
PYTHONPATH). Their absence is a failure, not a skip: the cross-check must run in CI."""
import json
import shutil
import struct
import subprocess
import sys
from pathlib import Path

try:
    import numpy as np
    import safetensors
    from safetensors.numpy import save_file
except ImportError as e:
    print(f"FAIL: {e}: the cross-check needs safetensors and numpy; run scripts/setup "
          "(it installs them into .tools/py, which this test puts on PYTHONPATH)", file=sys.stderr)
    sys.exit(1)


def reference_view(path):
    """What the reference reads: name -> dtype, shape, bytes (hex); and the metadata."""
    data = path.read_bytes()
    tensors = {name: {"dtype": t["dtype"], "shape": list(t["shape"]), "hex": bytes(t["data"]).hex()}
               for name, t in safetensors.deserialize(data)}
    with safetensors.safe_open(str(path), framework="numpy") as f:
        metadata = f.metadata() or {}
    return {"tensors": tensors, "metadata": metadata}


def rejected_by_reference(path):
    try:
        safetensors.deserialize(path.read_bytes())
    except Exception:  # the reference's SafetensorError, or a deserializer error
        return True
    return False


def main():
    checker, work = sys.argv[1], Path(sys.argv[2])
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    rng = np.random.default_rng(20261130)

    numpy_tensors = {
        "model.embed_tokens.weight": rng.standard_normal((5, 3)).astype(np.float16),
        "model.layers.0.self_attn.q_proj.weight": rng.standard_normal((4, 6)).astype(np.float32),
        "scalar_f64": np.array(3.25, dtype=np.float64),
        "scalar_i32": np.array(-7, dtype=np.int32),
        "empty": np.zeros((0, 4), dtype=np.float32),
        "empty_3d": np.zeros((2, 0, 3), dtype=np.int64),
        "ids": rng.integers(-2**62, 2**62, size=(3, 2), dtype=np.int64),
        "mask": rng.integers(0, 2, size=(7,)).astype(np.bool_),
        "bytes": rng.integers(0, 256, size=(2, 2, 2), dtype=np.uint8),
        "i8": rng.integers(-128, 128, size=(9,), dtype=np.int8),
        "u16": rng.integers(0, 2**16, size=(3,), dtype=np.uint16),
        "i16": rng.integers(-2**15, 2**15, size=(1, 1), dtype=np.int16),
        "u32": rng.integers(0, 2**32, size=(2,), dtype=np.uint32),
        "u64": rng.integers(0, 2**63, size=(2,), dtype=np.uint64),
    }
    save_file(numpy_tensors, str(work / "numpy.safetensors"),
              metadata={"format": "np", "note": "caf\u00e9 \U0001F600 \"quoted\" \\ back"})

    # BF16 and FP8 have no numpy dtype: the byte-level serializer takes them by their torch names
    # (the file then says BF16, F8_E4M3, ...; expected.json records what the reference reads).
    raw = {
        "model.layers.0.mlp.up_proj.weight": {"dtype": "bfloat16", "shape": [6, 4], "data": rng.bytes(48)},
        "model.norm.weight": {"dtype": "bfloat16", "shape": [4], "data": rng.bytes(8)},
        "q8": {"dtype": "float8_e4m3fn", "shape": [3, 5], "data": rng.bytes(15)},
        "k8": {"dtype": "float8_e5m2", "shape": [2], "data": rng.bytes(2)},
        "e8": {"dtype": "float8_e8m0fnu", "shape": [3], "data": rng.bytes(3)},
        "scale": {"dtype": "float32", "shape": [], "data": struct.pack("<f", 0.125)},
        "empty_bf16": {"dtype": "bfloat16", "shape": [0], "data": b""},
    }
    safetensors.serialize_file(raw, str(work / "raw.safetensors"), metadata={"format": "pt"})
    safetensors.serialize_file({}, str(work / "no_tensors.safetensors"))

    expected = {"files": {}, "rejected": []}
    for name in ("numpy.safetensors", "raw.safetensors", "no_tensors.safetensors"):
        expected["files"][name] = reference_view(work / name)
    assert len(expected["files"]["numpy.safetensors"]["tensors"]) == len(numpy_tensors)
    raw_dtypes = {t["dtype"] for t in expected["files"]["raw.safetensors"]["tensors"].values()}
    assert raw_dtypes == {"BF16", "F8_E4M3", "F8_E5M2", "F8_E8M0", "F32"}, raw_dtypes

    # Damaged copies: each must be rejected by the reference and by us.
    good = (work / "raw.safetensors").read_bytes()
    (n,) = struct.unpack("<Q", good[:8])
    header = json.loads(good[8:8 + n])
    damaged = {
        "truncated.safetensors": good[:-1],
        "trailing_byte.safetensors": good + b"\0",
        "header_past_end.safetensors": struct.pack("<Q", len(good)) + good[8:],
    }
    def with_header(h):
        text = json.dumps(h).encode()
        text += b" " * (-len(text) % 8)
        return struct.pack("<Q", len(text)) + text + good[8 + n:]
    for key, edit in (("bad_dtype", lambda e: e.update(dtype="BF17")),
                      ("bad_shape", lambda e: e.update(shape=[6, 5])),
                      ("overlap", lambda e: e.update(data_offsets=[e["data_offsets"][0] - 1, e["data_offsets"][1] - 1]))):
        h = json.loads(json.dumps(header))
        edit(h["model.norm.weight"])
        damaged[key + ".safetensors"] = with_header(h)
    for name, data in damaged.items():
        (work / name).write_bytes(data)
        if not rejected_by_reference(work / name):
            print(f"FAIL: the reference accepts {name}; the test's damage is wrong", file=sys.stderr)
            return 1
        expected["rejected"].append(name)

    (work / "expected.json").write_text(json.dumps(expected, indent=1, ensure_ascii=False))
    print(f"reference: safetensors {safetensors.__version__}, numpy {np.__version__}")
    return subprocess.run([checker, str(work)]).returncode


if __name__ == "__main__":
    sys.exit(main())
