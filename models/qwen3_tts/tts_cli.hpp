// SPDX-License-Identifier: Apache-2.0
#pragma once
// models/qwen3_tts/tts_cli.hpp: what cute-cpp-tts's commands share across its files (tts_main.cpp, and
// tts_bench.cpp's bench): the usage rule and the prompt from the command line. Host only.
#include "models/common/cli.hpp"            // CliArgs
#include "models/qwen3_tts/prompt.hpp"      // TtsPrompt
#include "models/qwen3_tts/tts_config.hpp"  // Qwen3TtsConfig

namespace cute_cpp::models::qwen3_tts {

inline constexpr char kRuleUsage[] = "cute-cpp [tts.usage]: the command line of cute-cpp-tts (see its --help)";

/// The prompt from --text (tokenized with DIR/tokenizer.json) or --ids, and the prompt options
/// (--speaker, --language, --instruct / --instruct-ids, --streaming). tts_main.cpp.
/// @pre one of --text and --ids [tts.usage]; build_prompt's preconditions.
[[nodiscard]] TtsPrompt cli_prompt(const CliArgs& a, const Qwen3TtsConfig& config);

/// cute-cpp-tts bench (tts_bench.cpp): prints the figures, writes --json records; returns the exit code.
int run_bench(const CliArgs& a);

}  // namespace cute_cpp::models::qwen3_tts
