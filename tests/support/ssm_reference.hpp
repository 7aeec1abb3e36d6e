// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// float64 references of the state-space (Mamba-2) kernels' formulas, written from the formulas
// (transformers' NemotronH torch path, mamba_ssm's kernels) and not from the kernels: the
// sequential recurrence, the chunked SSD algorithm organised as kernels/ssm/ssd_kernels.cuh is
// (its five steps, chunks never crossing a sequence), the causal conv1d by direct convolution and
// its decode step, the selective state update and the grouped gated RMSNorm. Dense row-major
// layouts; tests/cpu/ssm proves them against each other, tests/gpu/ssm checks the kernels on them.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <vector>

namespace cute_cpp::test::ssm {

/// softplus with torch's threshold (the input itself above 20), then clamped to [lo, hi].
inline double dt_of(double raw, double bias, double lo, double hi) {
  double const v = raw + bias;
  double const s = v > 20.0 ? v : std::log1p(std::exp(v));
  return std::min(std::max(s, lo), hi);
}

inline double silu(double v) { return v / (1.0 + std::exp(-v)); }

// ---- the SSD problem ----

/// A varlen SSD problem, token-major and dense: x (T, H, P), dt (T, H) raw, B and C (T, G, N);
/// dt_bias, A_log, D (H); initial states (S, H, P, N) or empty (zeros).
struct SsdProblem {
  int heads = 0, head_dim = 0, state = 0, groups = 0;
  std::vector<int> cu_seqlens;
  std::vector<double> x, dt, B, C, dt_bias, A_log, D, initial;
  double dt_lo = 0.0, dt_hi = INFINITY;
  [[nodiscard]] int num_seqs() const { return int(cu_seqlens.size()) - 1; }
  [[nodiscard]] int tokens() const { return cu_seqlens.back(); }
  [[nodiscard]] std::size_t state_elems() const { return std::size_t(heads) * head_dim * state; }
};

/// y (T, H, P) and the final states (S, H, P, N).
struct SsdResult {
  std::vector<double> y, final_states;
};

/// The recurrence token by token: S = exp(dt A) S + dt B xᵀ, y = C . S + D x.
inline SsdResult ssd_sequential(SsdProblem const& q) {
  int const H = q.heads, P = q.head_dim, N = q.state, G = q.groups, hpg = H / G;
  SsdResult r{std::vector<double>(std::size_t(q.tokens()) * H * P), {}};
  for (int s = 0; s < q.num_seqs(); ++s) {
    std::vector<double> S = q.initial.empty() ? std::vector<double>(q.state_elems(), 0.0)
                                              : std::vector<double>(q.initial.begin() + s * q.state_elems(),
                                                                    q.initial.begin() + (s + 1) * q.state_elems());
    for (int t = q.cu_seqlens[s]; t < q.cu_seqlens[s + 1]; ++t) {
      for (int h = 0; h < H; ++h) {
        int const g = h / hpg;
        double const dt = dt_of(q.dt[t * H + h], q.dt_bias[h], q.dt_lo, q.dt_hi);
        double const dA = std::exp(-std::exp(q.A_log[h]) * dt);
        for (int p = 0; p < P; ++p) {
          double const x = q.x[(std::size_t(t) * H + h) * P + p];
          double y = q.D[h] * x;
          for (int n = 0; n < N; ++n) {
            double& e = S[(std::size_t(h) * P + p) * N + n];
            e = dA * e + dt * q.B[(std::size_t(t) * G + g) * N + n] * x;
            y += q.C[(std::size_t(t) * G + g) * N + n] * e;
          }
          r.y[(std::size_t(t) * H + h) * P + p] = y;
        }
      }
    }
    r.final_states.insert(r.final_states.end(), S.begin(), S.end());
  }
  return r;
}

/// One chunk: tokens [begin, end) of sequence seq.
struct Chunk {
  int seq, begin, end;
};

/// The chunks of `chunk` tokens of each sequence in order (an empty sequence has none).
inline std::vector<Chunk> chunks_of(std::vector<int> const& cu, int chunk) {
  std::vector<Chunk> out;
  for (int s = 0; s + 1 < int(cu.size()); ++s)
    for (int b = cu[s]; b < cu[s + 1]; b += chunk) out.push_back({s, b, std::min(b + chunk, cu[s + 1])});
  return out;
}

/// The chunked SSD algorithm in the kernels' five steps (ssd_kernels.cuh), in double.
inline SsdResult ssd_chunked(SsdProblem const& q, int L) {
  int const H = q.heads, P = q.head_dim, N = q.state, G = q.groups, hpg = H / G, T = q.tokens();
  std::size_t const PN = std::size_t(P) * N;
  std::vector<Chunk> const chunks = chunks_of(q.cu_seqlens, L);
  // 1: dt and the chunk-local cumulative sum a_t of dt A.
  std::vector<double> dt(std::size_t(T) * H), a(std::size_t(T) * H);
  for (Chunk const& c : chunks)
    for (int h = 0; h < H; ++h) {
      double sum = 0.0;
      for (int t = c.begin; t < c.end; ++t) {
        dt[t * H + h] = dt_of(q.dt[t * H + h], q.dt_bias[h], q.dt_lo, q.dt_hi);
        sum += dt[t * H + h] * -std::exp(q.A_log[h]);
        a[t * H + h] = sum;
      }
    }
  auto const Bv = [&](int t, int g, int n) { return q.B[(std::size_t(t) * G + g) * N + n]; };
  auto const Cv = [&](int t, int g, int n) { return q.C[(std::size_t(t) * G + g) * N + n]; };
  auto const xv = [&](int t, int h, int p) { return q.x[(std::size_t(t) * H + h) * P + p]; };
  // 2: CB per chunk and group; 3: each chunk's own state.
  std::vector<double> cb(chunks.size() * G * L * L, 0.0), states(chunks.size() * H * PN, 0.0);
  for (std::size_t ci = 0; ci < chunks.size(); ++ci) {
    Chunk const& c = chunks[ci];
    for (int g = 0; g < G; ++g)
      for (int t = c.begin; t < c.end; ++t)
        for (int s = c.begin; s < c.end; ++s) {
          double dot = 0.0;
          for (int n = 0; n < N; ++n) dot += Cv(t, g, n) * Bv(s, g, n);
          cb[((ci * G + g) * L + (t - c.begin)) * L + (s - c.begin)] = dot;
        }
    for (int h = 0; h < H; ++h) {
      double const a_last = a[(c.end - 1) * H + h];
      for (int s = c.begin; s < c.end; ++s) {
        double const w = std::exp(a_last - a[s * H + h]) * dt[s * H + h];
        for (int p = 0; p < P; ++p)
          for (int n = 0; n < N; ++n) states[(ci * H + h) * PN + p * N + n] += w * xv(s, h, p) * Bv(s, h / hpg, n);
      }
    }
  }
  // 4: the state passing, per sequence in chunk order; states[ci] becomes chunk ci's incoming state.
  SsdResult r{std::vector<double>(std::size_t(T) * H * P), {}};
  for (int s = 0; s < q.num_seqs(); ++s) {
    std::vector<double> S = q.initial.empty() ? std::vector<double>(H * PN, 0.0)
                                              : std::vector<double>(q.initial.begin() + s * H * PN,
                                                                    q.initial.begin() + (s + 1) * H * PN);
    for (std::size_t ci = 0; ci < chunks.size(); ++ci) {
      if (chunks[ci].seq != s) continue;
      for (int h = 0; h < H; ++h) {
        double const decay = std::exp(a[(chunks[ci].end - 1) * H + h]);
        for (std::size_t e = 0; e < PN; ++e) {
          double const own = states[(ci * H + h) * PN + e];
          states[(ci * H + h) * PN + e] = S[h * PN + e];
          S[h * PN + e] = decay * S[h * PN + e] + own;
        }
      }
    }
    r.final_states.insert(r.final_states.end(), S.begin(), S.end());
  }
  // 5: the output from the incoming state and the chunk's own tokens, plus D x.
  for (std::size_t ci = 0; ci < chunks.size(); ++ci) {
    Chunk const& c = chunks[ci];
    for (int h = 0; h < H; ++h) {
      int const g = h / hpg;
      for (int t = c.begin; t < c.end; ++t)
        for (int p = 0; p < P; ++p) {
          double off = 0.0;
          for (int n = 0; n < N; ++n) off += Cv(t, g, n) * states[(ci * H + h) * PN + p * N + n];
          double y = std::exp(a[t * H + h]) * off + q.D[h] * xv(t, h, p);
          for (int s = c.begin; s <= t; ++s)
            y += cb[((ci * G + g) * L + (t - c.begin)) * L + (s - c.begin)] * std::exp(a[t * H + h] - a[s * H + h]) *
                 dt[s * H + h] * xv(s, h, p);
          r.y[(std::size_t(t) * H + h) * P + p] = y;
        }
    }
  }
  return r;
}

/// One decode step (the selective state update) of one row: S (H, P, N) updated, y (H, P) returned.
inline std::vector<double> state_update(std::vector<double>& S, SsdProblem const& q, int t) {
  SsdProblem one = q;
  one.cu_seqlens = {0, 1};
  int const H = q.heads, P = q.head_dim, GN = q.groups * q.state;
  one.x.assign(q.x.begin() + std::size_t(t) * H * P, q.x.begin() + std::size_t(t + 1) * H * P);
  one.dt.assign(q.dt.begin() + std::size_t(t) * H, q.dt.begin() + std::size_t(t + 1) * H);
  one.B.assign(q.B.begin() + std::size_t(t) * GN, q.B.begin() + std::size_t(t + 1) * GN);
  one.C.assign(q.C.begin() + std::size_t(t) * GN, q.C.begin() + std::size_t(t + 1) * GN);
  one.initial = S;
  SsdResult r = ssd_sequential(one);
  S = r.final_states;
  return r.y;
}

// ---- the causal conv1d ----

/// A varlen conv1d problem: x (T, channels), weight (channels, width), bias (channels) or empty,
/// initial conv states (S, width-1, channels) or empty (zeros).
struct ConvProblem {
  int channels = 0, width = 4;
  std::vector<int> cu_seqlens;
  std::vector<double> x, weight, bias, initial;
};

/// y (T, channels) and the final conv states (S, width-1, channels), the oldest input first.
struct ConvResult {
  std::vector<double> y, final_states;
};

/// Direct convolution of each sequence padded on the left by its state: y[t] = silu(bias + sum_k
/// w[k] in[t - (W-1) + k]); the final state is the padded sequence's last W-1 inputs.
inline ConvResult conv1d_direct(ConvProblem const& q) {
  int const Cn = q.channels, W = q.width, S = int(q.cu_seqlens.size()) - 1;
  ConvResult r{std::vector<double>(std::size_t(q.cu_seqlens.back()) * Cn), {}};
  for (int s = 0; s < S; ++s) {
    int const begin = q.cu_seqlens[s], len = q.cu_seqlens[s + 1] - begin;
    for (int c = 0; c < Cn; ++c) {
      std::vector<double> padded(std::size_t(W - 1 + len));
      for (int j = 0; j < W - 1; ++j) padded[j] = q.initial.empty() ? 0.0 : q.initial[(std::size_t(s) * (W - 1) + j) * Cn + c];
      for (int t = 0; t < len; ++t) padded[W - 1 + t] = q.x[std::size_t(begin + t) * Cn + c];
      for (int t = 0; t < len; ++t) {
        double acc = q.bias.empty() ? 0.0 : q.bias[c];
        for (int k = 0; k < W; ++k) acc += q.weight[std::size_t(c) * W + k] * padded[t + k];
        r.y[std::size_t(begin + t) * Cn + c] = silu(acc);
      }
    }
    std::vector<double> state(std::size_t(W - 1) * Cn);
    for (int c = 0; c < Cn; ++c)
      for (int j = 0; j < W - 1; ++j) {
        int const t = len - (W - 1) + j;  // index into the sequence; negative: the initial state
        state[std::size_t(j) * Cn + c] = t >= 0 ? q.x[std::size_t(begin + t) * Cn + c]
                                       : q.initial.empty() ? 0.0
                                                           : q.initial[(std::size_t(s) * (W - 1) + (W - 1 + t)) * Cn + c];
      }
    r.final_states.insert(r.final_states.end(), state.begin(), state.end());
  }
  return r;
}

/// One decode step of the conv for one row: state (width-1, channels) shifted with x appended;
/// returns y (channels).
inline std::vector<double> conv1d_step(std::vector<double>& state, std::vector<double> const& x,
                                       ConvProblem const& q) {
  int const Cn = q.channels, W = q.width;
  std::vector<double> y(Cn);
  for (int c = 0; c < Cn; ++c) {
    double acc = q.bias.empty() ? 0.0 : q.bias[c];
    for (int k = 0; k < W - 1; ++k) acc += q.weight[std::size_t(c) * W + k] * state[std::size_t(k) * Cn + c];
    acc += q.weight[std::size_t(c) * W + W - 1] * x[c];
    y[c] = silu(acc);
    for (int k = 0; k + 1 < W - 1; ++k) state[std::size_t(k) * Cn + c] = state[std::size_t(k + 1) * Cn + c];
    state[std::size_t(W - 2) * Cn + c] = x[c];
  }
  return y;
}

// ---- the gated RMSNorm ----

/// out = rmsnorm over each of `groups` groups of (y * silu(z)), times weight; rows of `width`.
inline std::vector<double> gated_rmsnorm(std::vector<double> const& y, std::vector<double> const& z,
                                         std::vector<double> const& weight, int width, int groups, double eps) {
  std::vector<double> out(y.size());
  int const size = width / groups;
  for (std::size_t row = 0; row < y.size() / width; ++row)
    for (int g = 0; g < groups; ++g) {
      std::size_t const base = row * width + std::size_t(g) * size;
      double ss = 0.0;
      for (int i = 0; i < size; ++i) {
        double const v = y[base + i] * silu(z[base + i]);
        ss += v * v;
      }
      double const rstd = 1.0 / std::sqrt(ss / size + eps);
      for (int i = 0; i < size; ++i) out[base + i] = y[base + i] * silu(z[base + i]) * rstd * weight[g * size + i];
    }
  return out;
}

}  // namespace cute_cpp::test::ssm
