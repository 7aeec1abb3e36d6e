// SPDX-License-Identifier: Apache-2.0
#pragma once
// models/common/logits_rows.hpp: what the decoders' forward passes leave in their logits (shared by
// models/qwen3 and models/nemotron).

namespace cute_cpp::models {

/// What a forward pass leaves in logits(): one row per prompt (its last token), or every position.
enum class LogitsRows { Last, All };

}  // namespace cute_cpp::models
