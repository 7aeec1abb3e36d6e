# SPDX-License-Identifier: Apache-2.0
"""cute_cpp.ops' argument checks, which need no GPU: each bad call raises ValueError naming its rule
before anything is allocated or launched; NumPy arrays (DLPack on the CPU) stand in for framework
tensors, and well-formed ones reach the device check. The GPU half (every op against torch) is
tests/python/gpu_ops_check.py, run by scripts/gpu-check."""
import os

import numpy as np
import pytest

# CUTE_CPP_HAS_OPS (set by CTest) says whether this build has the kernels, and so cute_cpp._ops.
if os.environ.get("CUTE_CPP_HAS_OPS", "1") == "0":
    pytest.skip("this build has no sm_90a kernels, so no cute_cpp._ops", allow_module_level=True)

from cute_cpp import ops  # noqa: E402

F32 = np.float32
F16 = np.float16


def rule_of(call):
    with pytest.raises(ValueError) as e:
        call()
    text = str(e.value)
    assert text.startswith("cute-cpp ["), text
    return text[len("cute-cpp ["):text.index("]")], text


def test_well_formed_cpu_arrays_reach_the_device_check():
    x, w = np.ones((4, 8), F32), np.ones(8, F32)
    rule, text = rule_of(lambda: ops.rmsnorm(x, w))
    assert rule == "ops.device" and "x is not on a CUDA device" in text


@pytest.mark.parametrize("call,rule,text", [
    (lambda: ops.linear(np.ones((4, 8), F32), np.ones((3, 8), F32)), "ops.dtype", "x is float32; this op takes bfloat16"),
    (lambda: ops.scaled_mm(np.ones((4, 16), F32), np.ones((16, 8), F32), np.ones(1, F32), np.ones(1, F32)), "ops.dtype",
     "a is float32; this op takes float8_e4m3fn, float8_e5m2"),
    (lambda: ops.rmsnorm(np.ones((4, 8), F32), np.ones(8, np.float64)), "ops.dtype", "w is an unsupported dtype but x is float32"),
    (lambda: ops.rmsnorm(np.ones((4, 8), np.int32), np.ones(8, np.int32)), "ops.dtype",
     "x is int32; this op takes bfloat16, float16, float32"),
    (lambda: ops.attention(*[np.ones((1, 4, 2, 64), F32)] * 3), "ops.dtype", "q is float32; this op takes bfloat16, float16"),
    (lambda: ops.rmsnorm(np.ones((4, 8), F32), np.ones(7, F32)), "ops.shape", "w has shape (7,); dimension 0 must be 8"),
    (lambda: ops.rmsnorm(np.ones((4, 8, 2), F32), np.ones(8, F32)), "ops.shape", "x has shape (4, 8, 2); expected 2"),
    (lambda: ops.rmsnorm(np.ones((4, 8), F32), np.ones(8, F32), out=np.ones((4, 9), F32)), "ops.shape",
     "out has shape (4, 9); dimension 1 must be 8"),
    (lambda: ops.rmsnorm(np.ones((4, 8), F32), np.ones(8, F32), residual=np.ones((4, 8), F32)), "ops.shape",
     "residual and residual_out go together"),
    (lambda: ops.rmsnorm(np.ones((8, 4), F32).T, np.ones(8, F32)), "ops.layout", "x must be contiguous"),
    (lambda: ops.rmsnorm(np.ones((4, 16), F32)[:, ::2], np.ones(8, F32)), "ops.layout", "x must be contiguous"),
    (lambda: ops.rmsnorm(np.ones((4, 8), F32), np.ones(8, F32), residual=np.ones((4, 8), F32),
                         residual_out=np.ones((4, 8), F32), out=np.ones((5, 8), F32)), "ops.shape",
     "out has shape (5, 8); dimension 0 must be 4"),
    (lambda: ops.gemm(np.ones((4, 8), F32), np.ones((8, 3), F32), activation="tanh"), "ops.activation",
     'activation is None, "relu"'),
    (lambda: ops.gemm(np.ones((4, 8), F32), np.ones((8, 3), F32), beta=0.5), "ops.shape", "beta != 0 adds beta * out"),
    (lambda: ops.gemm(np.ones((4, 8), F32), np.ones((8, 3), F32)), "ops.dtype", "a is float32; this op takes bfloat16"),
    (lambda: ops.softmax(np.ones((4, 8), np.int32)), "ops.dtype", "x is int32; this op takes bfloat16"),
    (lambda: ops.softmax(np.ones((4, 16), F32)[:, ::2]), "ops.layout", "x must be contiguous"),
    (lambda: ops.softmax(np.ones((4, 8), F32), out=np.ones((4, 7), F32)), "ops.shape", "out has shape (4, 7)"),
    (lambda: ops.swiglu(np.ones((4, 7), F32)), "ops.shape", "its last dimension (gate then up) must be even"),
    (lambda: ops.swiglu(np.ones((4, 8), F32), out=np.ones((4, 8), F32)), "ops.shape",
     "out has shape (4, 8); expected (4, 4)"),
    (lambda: ops.reduce(np.ones((4, 8), F32), "mean"), "ops.op", 'op is "sum" or "max"'),
    (lambda: ops.reduce(np.ones((4, 8), F32), out=np.ones(4, np.float16)), "ops.dtype", "the reductions write float32"),
    (lambda: ops.reduce(np.ones((4, 8), F32), out=np.ones(5, F32)), "ops.shape", "out has shape (5,); expected (4,)"),
    (lambda: ops.add(np.ones((4, 8), F32), np.ones((4, 9), F32)), "ops.shape", "b has shape (4, 9); expected (4, 8)"),
    (lambda: ops.add(np.ones((4, 8), F32), np.ones((4, 8), np.float16)), "ops.dtype", "b is float16 but a is float32"),
    (lambda: ops.grouped_mm(np.ones((4, 8), F32), np.ones((2, 8, 16), F32), np.ones(2, np.int32)), "ops.dtype",
     "a is float32; this op takes bfloat16"),
    (lambda: ops.attention_backward(*[np.ones((1, 4, 2, 64), F32)] * 5, np.ones((1, 2, 4), F32)), "ops.dtype",
     "q is float32; this op takes bfloat16, float16"),
    (lambda: ops.attention_backward(*[np.ones((1, 4, 2, 64), F16)] * 5, np.ones((1, 2, 4), F16)), "ops.dtype",
     "lse is float16; the forward's LSE is float32"),
    (lambda: ops.attention_backward(*[np.ones((1, 4, 2, 64), F16)] * 2, np.ones((1, 4, 2, 64), F16),
                                    np.ones((1, 4, 2, 32), F16), np.ones((1, 4, 2, 64), F16), np.ones((1, 2, 4), F32)),
     "ops.shape", "the backward takes one head_dim for q, k and v"),
    (lambda: ops.attention_backward(*[np.ones((1, 4, 2, 64), F16)] * 5, np.ones((1, 4, 2), F32)), "ops.shape",
     "lse has shape (1, 4, 2); expected (1, 2, 4)"),
    (lambda: ops.attention_backward(*[np.ones((1, 4, 2, 64), F16)] * 5, np.ones((1, 2, 4), F32)), "ops.device",
     "is not on a CUDA device"),
    (lambda: ops.moe(np.ones((4, 64), F32), np.ones((8, 64), F32), np.ones((8, 32, 64), F32), np.ones((8, 64, 16), F32),
                     2, routing="topk"), "ops.routing", 'routing is "softmax" or "sigmoid"'),
    (lambda: ops.moe(np.ones((4, 64), F32), np.ones((8, 64), F32), np.ones((8, 32, 64), F32), np.ones((8, 64, 16), F32),
                     2, activation="gelu"), "ops.activation", 'activation is "swiglu" or "relu2"'),
    (lambda: ops.moe(np.ones((4, 64), F32), np.ones((8, 64), F32), np.ones((8, 32, 64), F32), np.ones((8, 64, 16), F32),
                     2), "ops.dtype", "x is float32; this op takes bfloat16"),
    (lambda: ops.pack_gate_up(np.ones((8, 16, 64), F32), np.ones((8, 16, 64), F32)), "ops.dtype",
     "gate is float32; this op takes bfloat16"),
    (lambda: ops.ssd_prefill(np.ones((10, 4, 64), F32), np.ones((10, 4), F32), np.ones(4, F32),
                             np.ones((10, 1, 128), F32), np.ones((10, 1, 128), F32), np.ones(4, F32), np.ones(4, F32),
                             cu_seqlens=np.array([0, 10], np.int32)), "ops.dtype",
     "x is float32; this op takes bfloat16"),
    (lambda: ops.ssd_prefill(np.ones((10, 4, 64), F32), np.ones((10, 4), F32), np.ones(4, F32),
                             np.ones((10, 1, 128), F32), np.ones((10, 1, 128), F32), np.ones(4, F32), np.ones(4, F32)),
     "ops.shape", "cu_seqlens is required for arrays other than torch's"),
    (lambda: ops.decode_attention(np.ones((2, 1, 8, 64), F32), np.ones((2, 32, 2, 64), F32),
                                  np.ones((2, 32, 2, 64), F32), np.array([5, 9], np.int32)), "ops.dtype",
     "q is float32; this op takes bfloat16, float16"),
    (lambda: ops.decode_attention(np.ones((2, 1, 8, 64), F16), np.ones((2, 32, 2, 64), F16),
                                  np.ones((2, 32, 2, 64), F16), np.array([5, 9], np.int64)), "ops.dtype",
     "cache_seqlens is an unsupported dtype"),
    (lambda: ops.decode_attention(np.ones((2, 1, 8, 64), F16), np.ones((2, 32, 2, 64), F16),
                                  np.ones((2, 32, 2, 64), F16), np.array([5, 9], np.int32)), "ops.device",
     "q is not on a CUDA device"),
    (lambda: ops.kv_append(np.ones((2, 1, 2, 64), F16), np.ones((2, 1, 2, 64), F16), np.ones((2, 32, 3, 64), F16),
                           np.ones((2, 32, 2, 64), F16), np.array([5, 9], np.int32)), "ops.shape",
     "k_cache has shape (2, 32, 3, 64); dimension 2 must be 2"),
    (lambda: ops.kv_append(np.ones((2, 1, 2, 64), F16), np.ones((2, 1, 2, 64), F16), np.ones((2, 32, 2, 64), F16),
                           np.ones((2, 32, 2, 64), F16), np.array([5, 9], np.int32)), "ops.device",
     "k_new is not on a CUDA device"),
    (lambda: ops.ssm_state_update(np.ones((2, 4, 64, 128), F32), np.ones((2, 4, 64), F32), np.ones((2, 4), F32),
                                  np.ones(4, F32), np.ones((2, 1, 128), F32), np.ones((2, 1, 128), F32),
                                  np.ones(4, F32), np.ones(4, F32)), "ops.dtype",
     "x is float32; this op takes bfloat16"),
])
def test_bad_calls_name_their_rule(call, rule, text):
    got_rule, got_text = rule_of(call)
    assert got_rule == rule, got_text
    assert text in got_text, got_text


def test_cpu_outputs_are_untouched():
    x, w = np.ones((4, 8), F32), np.ones(8, F32)
    out = np.full((4, 8), 7.0, F32)
    rule, _ = rule_of(lambda: ops.rmsnorm(x, w, out=out))
    assert rule == "ops.device"
    assert (out == 7.0).all()


@pytest.mark.parametrize("call", [
    lambda x: ops.softmax(x),
    lambda x: ops.swiglu(x),
    lambda x: ops.reduce(x, "max"),
    lambda x: ops.add(x, x),
])
def test_row_and_elementwise_ops_reach_the_device_check(call):
    rule, text = rule_of(lambda: call(np.ones((3, 4, 8), F32)))
    assert rule == "ops.device" and "is not on a CUDA device" in text, text
