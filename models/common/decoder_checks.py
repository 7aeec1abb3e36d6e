# SPDX-License-Identifier: Apache-2.0
# SPDX-FileCopyrightText: 2026 cute-cpp authors
"""The checks of an end-to-end decoder program against transformers that do not depend on the model:
their tolerances, the reference's float32 and bf16 models of one checkpoint, the logit comparisons,
greedy and batched generation, sampling, and the report's end. check_qwen3.py's docstring says what
each check asks and why; check_nemotron.py runs them on its own checkpoints. A spec is any object
with name, index, vocab and greedy_tokens."""
import gc
import math

import numpy as np
import torch

import check_report

SEED = 20261201
COSINE_VS_FP32 = 0.999      # bf16 logits against the fp32 model, every position (or transformers' bf16 minimum)
RMS_VS_BF16 = 2.5           # our rms logit error against fp32 at most this many times transformers' bf16 one
COSINE_BATCHED = 0.9999     # one prompt alone against the same prompt in a batch, every position
OUTLIERS_VS_BF16 = 2        # where bf16 has positions under COSINE_VS_FP32: ours at most this many times as many
OUTLIER_SLACK = 2           # ... plus this many
OUTLIER_DEPTH_VS_BF16 = 2   # ... none with more than this many times bf16's worst shortfall from cosine 1
NEAR_TIE = 0.05             # fp32 logit gap under which two greedy choices are a tie for bf16 ...
NOISE_TIE = 3.0             # ... or under this many times bf16's own logit noise at that step (the rms of
                            # transformers' bf16 logits minus its fp32 ones there)
MAX_DIVERGENCES = 16        # near-ties tolerated in one greedy run before the run counts as failed
SAMPLING_PROB_TOL = 1e-3    # top-p boundary: mass above the token may reach top_p + this
SAMPLING_LOGIT_SLACK = NEAR_TIE  # ... or the token is kept once each fp32 logit moves this far its way
                                 # (or NOISE_TIE / 2 x bf16's logit noise there, where larger)

GREEDY_PROMPT = 40               # random ids before a greedy run (its length: the spec's greedy_tokens)
BATCH_PROMPTS, BATCH_TOKENS = (5, 33, 130), 32
SAMPLING_PROMPT, SAMPLING_TOKENS = 16, 64
SAMPLING = {"temperature": 0.8, "top_k": 20, "top_p": 0.9}

Report = check_report.Report
finish = check_report.finish  # the run's end, as every model check script ends


def rng_for(spec_index, check):
    """Each check draws its prompts from its own stream, so that checks do not depend on each other's order."""
    return np.random.default_rng([SEED, spec_index, check])


def random_ids(rng, vocab, n):
    return [int(t) for t in rng.integers(0, vocab, n)]


def free_cuda():
    """Returns freed models' memory to the device (a model in a reference cycle waits for the collector)."""
    gc.collect()
    torch.cuda.empty_cache()



class Reference:
    """transformers' model of one checkpoint, in float32 and in bf16 (loaded by the caller)."""

    def __init__(self, spec, fp32, bf16):
        self.spec, self.fp32, self.bf16 = spec, fp32, bf16
        self.bf16.generation_config.eos_token_id = None  # never stop early: the program runs --ignore-eos
        self.bf16.generation_config.pad_token_id = 0

    @torch.no_grad()
    def logits(self, model, ids):
        """Teacher-forced logits at every position of one prompt: float32 [len, vocab]."""
        x = torch.tensor([list(ids)], dtype=torch.long, device="cuda")
        return model(input_ids=x, use_cache=False).logits[0].float().cpu().numpy()

    @torch.no_grad()
    def greedy(self, ids, new_tokens):
        """transformers' greedy generate with the bf16 model, exactly new_tokens long."""
        x = torch.tensor([list(ids)], dtype=torch.long, device="cuda")
        kwargs = dict(attention_mask=torch.ones_like(x), do_sample=False, max_new_tokens=new_tokens,
                      eos_token_id=None, pad_token_id=0)
        try:
            out = self.bf16.generate(x, min_new_tokens=new_tokens, **kwargs)
        except (TypeError, ValueError):  # a version that wants an eos for min_new_tokens; eos is None anyway
            out = self.bf16.generate(x, **kwargs)
        new = out[0, x.shape[1]:].tolist()
        if len(new) != new_tokens:
            raise RuntimeError(f"transformers generated {len(new)} tokens, asked for {new_tokens}")
        return new

    def logit_noise(self, prefix, fp32):
        """bf16's logit noise at the next token after `prefix` (fp32: its fp32 logits): the rms of
        transformers' bf16 logits minus the fp32 ones there."""
        bf16 = self.logits(self.bf16, prefix)[-1].astype(np.float64)
        return float(np.sqrt(np.mean((bf16 - fp32) ** 2)))

    def free(self):
        del self.fp32, self.bf16
        free_cuda()


def row_cosines(a, b):
    a, b = a.astype(np.float64), b.astype(np.float64)
    return (a * b).sum(1) / (np.linalg.norm(a, axis=1) * np.linalg.norm(b, axis=1))


def first_mismatch(a, b):
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return i
    return None if len(a) == len(b) else min(len(a), len(b))


def top2_margin(z):
    top = np.partition(np.asarray(z, np.float64), -2)[-2:]
    return float(top[1] - top[0])


def tie_tolerance(ref, prefix, fp32, runs=1):
    """The fp32 logit gap under which two bf16 implementations may choose differently after `prefix`
    (whose next-token fp32 logits, already at hand, are `fp32`): NEAR_TIE, or NOISE_TIE times bf16's
    logit noise there (ref.logit_noise), whichever is larger. runs=2 when both choices come from bf16
    runs with errors of their own (ours batched and alone): the noise of a difference of two
    independent errors is sqrt(2) times one's."""
    return max(NEAR_TIE, NOISE_TIE * math.sqrt(runs) * ref.logit_noise(prefix, fp32))


def where_in_batch(row, lengths):
    for i, n in enumerate(lengths):
        if row < n:
            return f"prompt {i} position {row}"
        row -= n
    return f"row {row}"


def error_figures(logits, fp32):
    """(cosine at each position, rms error, max |error|) of logits against the fp32 model's."""
    diff = logits.astype(np.float64) - fp32
    return row_cosines(logits, fp32), float(np.sqrt(np.vdot(diff, diff) / diff.size)), float(np.abs(diff).max())


def cosine_rule(cos, cos_bf16):
    """(pass, the minimum needed, a note). Every position >= COSINE_VS_FP32 while transformers' bf16 stays
    there. Where bf16 has positions under it (outliers), ours may too, as many as OUTLIERS_VS_BF16 times
    bf16's count plus OUTLIER_SLACK, none deeper than OUTLIER_DEPTH_VS_BF16 times bf16's worst shortfall
    (1 - its minimum cosine): the worst of such discrete events is a coin toss between two bf16
    implementations, so ours' minimum against bf16's alone would fail about half the runs of a correct
    decoder."""
    min_bf16 = float(cos_bf16.min())
    if not np.isfinite(cos).all():
        return False, COSINE_VS_FP32, ""
    if min_bf16 >= COSINE_VS_FP32:
        return bool(np.all(cos >= COSINE_VS_FP32)), COSINE_VS_FP32, ""
    ours_n, bf16_n = int(np.sum(cos < COSINE_VS_FP32)), int(np.sum(cos_bf16 < COSINE_VS_FP32))
    allowed_n = OUTLIERS_VS_BF16 * bf16_n + OUTLIER_SLACK
    needed = 1.0 - OUTLIER_DEPTH_VS_BF16 * (1.0 - min_bf16)
    ok = ours_n <= allowed_n and float(cos.min()) >= needed
    return ok, needed, (f"; positions under {COSINE_VS_FP32}: ours {ours_n}, bf16 {bf16_n} "
                        f"(needs <= {allowed_n})")


def greedy_prompt(spec):
    """The prompt check_greedy generates from (the same ids every run)."""
    return random_ids(rng_for(spec.index, 3), spec.vocab, GREEDY_PROMPT)


def check_greedy(report, program, spec, folder, ref, extra=(), label="greedy"):
    """`label`.<ckpt>: greedy ids of one prompt against transformers' bf16 generate (the program run with
    `extra` flags), each divergence a near-tie or ours the fp32 argmax."""
    tokens, prompt = spec.greedy_tokens, greedy_prompt(spec)
    ours = program.generate(folder, [prompt], tokens, spec.vocab, extra=tuple(extra))[0]
    # fp32 logits given our prefix at every step: row len(prompt) - 1 + s predicts ours[s]
    fp32 = ref.logits(ref.fp32, prompt + ours[:-1]).astype(np.float64)[len(prompt) - 1:]
    margins = np.array([top2_margin(z) for z in fp32])

    parts, ok, pos = [], True, 0
    while pos < tokens:
        theirs = ref.greedy(prompt + ours[:pos], tokens - pos)
        j = first_mismatch(ours[pos:], theirs)
        if j is None:
            break
        step = pos + j
        z = fp32[step]
        a, b = ours[step], theirs[j]
        gap = abs(float(z[a] - z[b]))
        fp32_top1 = int(np.argmax(z))
        tie = tie_tolerance(ref, prompt + ours[:step], z)
        allowed = gap < tie or a == fp32_top1
        why = "near-tie" if gap < tie else "ours is the fp32 argmax" if a == fp32_top1 else "NOT a near-tie"
        parts.append(f"step {step}: ours {a}, transformers {b}, fp32 top1 {fp32_top1} top1-top2 margin "
                     f"{margins[step]:.4f}, fp32 gap between the two {gap:.4f} ({why}; tie under {tie:.4f})")
        if not allowed:
            ok = False
            break
        if len(parts) > MAX_DIVERGENCES:
            ok = False
            parts.append(f"more than {MAX_DIVERGENCES} divergences")
            break
        pos = step + 1  # transformers restarts from our prefix, ours[step] included

    context = (f"fp32 top1-top2 margin along our ids: min {margins.min():.4f}, "
               f"{int((margins < NEAR_TIE).sum())} steps under {NEAR_TIE}")
    if not parts:
        figures = f"{tokens} ids after {GREEDY_PROMPT} identical to transformers bf16 generate; {context}"
    else:
        tail = "; the rest identical after restarting transformers from our prefix" if ok else ""
        figures = (f"{len(parts)} divergence(s) from transformers bf16 generate in {tokens} ids: "
                   f"{'; '.join(parts)}{tail}; {context}")
    report.check(f"{label}.{spec.name}", ok, figures)
    return ours


def check_batched_generate(report, program, spec, folder, ref):
    rng = rng_for(spec.index, 4)
    prompts = [random_ids(rng, spec.vocab, n) for n in BATCH_PROMPTS]
    together = program.generate(folder, prompts, BATCH_TOKENS, spec.vocab)
    alone = [program.generate(folder, [p], BATCH_TOKENS, spec.vocab)[0] for p in prompts]
    # Decode steps at other batch sizes sum in other orders (split-K, split-KV), so batched and alone
    # may part at a near-tie, as two bf16 implementations may; once parted, the rest is not compared.
    problems, ties = [], []
    for i, (p, t, a) in enumerate(zip(prompts, together, alone)):
        j = first_mismatch(t, a)
        if j is not None:
            z = ref.logits(ref.fp32, p + a[:j]).astype(np.float64)[-1]
            gap, tie = abs(float(z[t[j]] - z[a[j]])), tie_tolerance(ref, p + a[:j], z, runs=2)
            (ties if gap < tie else problems).append(
                f"prompt {i} ({len(p)} ids) step {j}: batched {t[j]}, alone {a[j]}, fp32 gap between the two "
                f"{gap:.4f} ({'a near-tie' if gap < tie else 'NOT a near-tie'}: tie under {tie:.4f})")
    sizes = ", ".join(map(str, BATCH_PROMPTS))
    report.check(f"batched-generate.{spec.name}", not problems,
                 f"prompts of {sizes} ids x {BATCH_TOKENS} greedy ids, together and alone: "
                 + ("identical" if not problems and not ties else "; ".join(problems + ties)))
    # Decode steps replay CUDA graphs (padded to a power of two rows) whose kernels are programmatic
    # dependents (each starts while the one before runs and waits for its memory: a kernel that
    # did not wait would race and differ); --eager launches every kernel. The same launches either
    # way, so the same ids.
    eager = program.generate(folder, prompts, BATCH_TOKENS, spec.vocab, extra=("--eager",))
    same = eager == together
    report.check(f"graphs-vs-eager.{spec.name}", same,
                 "decode steps through CUDA graphs and eagerly give " + ("identical ids" if same else
                 f"different ids: graphs {together}, eager {eager}"))
    # The same graphs with plain edges (--no-pdl).
    plain = program.generate(folder, prompts, BATCH_TOKENS, spec.vocab, extra=("--no-pdl",))
    same_plain = plain == eager
    report.check(f"graphs-no-pdl-vs-eager.{spec.name}", same_plain,
                 "decode steps through CUDA graphs without PDL and eagerly give " + ("identical ids" if same_plain
                 else f"different ids: plain graphs {plain}, eager {eager}"))


def in_kept_set(z, token, temperature, top_k, top_p, slack=0.0):
    """Whether transformers' warpers (temperature, then top-k, then top-p over the top-k) keep `token`
    for the logits z, after every other logit above it moves down by up to 2 * slack (each logit moving
    at most `slack` the token's way). Ties are resolved in the token's favour."""
    z = np.asarray(z, np.float64).copy()
    zt = z[token]
    above = z > zt
    z[above] = np.maximum(z[above] - 2 * slack, zt)
    above = z > zt
    rank = int(above.sum())
    if rank >= top_k:
        return False
    others = z[~above]
    others = np.delete(others, np.flatnonzero(others == zt)[:1])  # the token itself
    kept_below = np.sort(others)[::-1][:top_k - 1 - rank]
    values = np.concatenate([z[above], [zt], kept_below]) / temperature
    w = np.exp(values - values.max())
    mass_above = w[:rank].sum() / w.sum()
    return bool(mass_above < top_p + SAMPLING_PROB_TOL)


def kept_set_size(z, temperature, top_k, top_p):
    u = np.sort(np.asarray(z, np.float64))[::-1][:top_k] / temperature
    w = np.exp(u - u[0])
    w /= w.sum()
    mass_above = np.concatenate([[0.0], np.cumsum(w)[:-1]])
    return int((mass_above < top_p).sum())


def sampling_figures(ref, prompt, ids):
    """(tokens kept exactly, kept only with the logit slack, outside, first outside, non-top1 picks, median set).
    The slack at a step is SAMPLING_LOGIT_SLACK, or half the tie rule's gap there (NOISE_TIE / 2 times the
    rms of transformers' bf16 logits minus fp32's) where larger: each logit may move that far, so a pair's
    gap as far as tie_tolerance allows."""
    t, k, p = SAMPLING["temperature"], SAMPLING["top_k"], SAMPLING["top_p"]
    z_all = ref.logits(ref.fp32, prompt + ids[:-1]).astype(np.float64)[len(prompt) - 1:]
    b_all = ref.logits(ref.bf16, prompt + ids[:-1]).astype(np.float64)[len(prompt) - 1:]
    exact = slack = 0
    outside = []
    for step, (z, b, token) in enumerate(zip(z_all, b_all, ids)):
        step_slack = max(SAMPLING_LOGIT_SLACK, NOISE_TIE / 2 * float(np.sqrt(np.mean((b - z) ** 2))))
        if in_kept_set(z, token, t, k, p):
            exact += 1
        elif in_kept_set(z, token, t, k, p, slack=step_slack):
            slack += 1
        else:
            order = np.argsort(-z)
            outside.append(f"step {step}: token {token} of fp32 rank {int(np.flatnonzero(order == token)[0])}, "
                           f"kept set {kept_set_size(z, t, k, p)} tokens")
    not_top1 = int(sum(int(np.argmax(z)) != token for z, token in zip(z_all, ids)))
    sizes = [kept_set_size(z, t, k, p) for z in z_all]
    return exact, slack, outside, not_top1, float(np.median(sizes))


def check_sampling(report, program, spec, folder, ref):
    rng = rng_for(spec.index, 5)
    prompt = random_ids(rng, spec.vocab, SAMPLING_PROMPT)
    flags = ["--temperature", SAMPLING["temperature"], "--top-k", SAMPLING["top_k"], "--top-p", SAMPLING["top_p"]]
    first = program.generate(folder, [prompt], SAMPLING_TOKENS, spec.vocab, [*flags, "--seed", 7])[0]
    again = program.generate(folder, [prompt], SAMPLING_TOKENS, spec.vocab, [*flags, "--seed", 7])[0]
    other = program.generate(folder, [prompt], SAMPLING_TOKENS, spec.vocab, [*flags, "--seed", 8])[0]
    same, differ = first == again, first != other
    parts = [f"seed 7 twice: {'identical' if same else 'DIFFERENT at step %d' % first_mismatch(first, again)}",
             f"seed 8: {'different' if differ else 'SAME ids'}"]
    all_kept = True
    for seed, ids in ((7, first), (8, other)):
        exact, slack, outside, not_top1, median = sampling_figures(ref, prompt, ids)
        all_kept &= not outside
        parts.append(f"seed {seed}: {exact + slack}/{len(ids)} in the kept set ({slack} only with the bf16-noise "
                     f"logit slack), {not_top1} not the fp32 top-1, median kept set {median:g}"
                     + (f"; OUTSIDE: {'; '.join(outside[:4])}" if outside else ""))
    settings = f"T {SAMPLING['temperature']}, top-k {SAMPLING['top_k']}, top-p {SAMPLING['top_p']}"
    report.check(f"sampling.{spec.name}", same and differ and all_kept, f"{settings}; " + "; ".join(parts))
