// SPDX-License-Identifier: Apache-2.0
// models/qwen3_tts/prompt.cpp: build_prompt and the speaker and language rules.
#include "models/qwen3_tts/prompt.hpp"

#include <algorithm>  // std::transform
#include <cctype>     // std::tolower

#include "models/common/error.hpp"  // LoadError, in_quotes

namespace cute_cpp::models::qwen3_tts {

namespace {
constexpr char kRulePrompt[] =
    "cute-cpp [tts.prompt]: the text must tokenize to the role header, at least one text id and the closing "
    "turn, every id in the text vocabulary";
constexpr char kRuleSpeaker[] = "cute-cpp [tts.speaker]: the speaker must be one of the config's spk_id";
constexpr char kRuleLanguage[] =
    "cute-cpp [tts.language]: the language must be \"auto\" or one of the config's codec_language_id";

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return char(std::tolower(c)); });
  return s;
}

template <class Map>
std::string names_of(const Map& m) {
  std::string s;
  for (auto const& [name, id] : m) s += (s.empty() ? "" : ", ") + name;
  return s.empty() ? "none" : s;
}
}  // namespace

std::string assistant_text(const std::string& text) {
  return "<|im_start|>assistant\n" + text + "<|im_end|>\n<|im_start|>assistant\n";
}
std::string instruct_text(const std::string& instruct) { return "<|im_start|>user\n" + instruct + "<|im_end|>\n"; }

std::int32_t language_codec_id(const Qwen3TtsConfig& config, const std::string& speaker, const std::string& language) {
  TalkerConfig const& t = config.talker;
  std::string const who = lower(speaker), lang = lower(language);
  if (!who.empty() && !t.spk_id.contains(who))
    throw LoadError(kRuleSpeaker, "speaker " + in_quotes(speaker) + " is not in spk_id (" + names_of(t.spk_id) + ")");
  std::int32_t id = -1;
  if (lang != "auto") {
    auto const it = t.codec_language_id.find(lang);
    if (it == t.codec_language_id.end())
      throw LoadError(kRuleLanguage, "language " + in_quotes(language) + " is not \"auto\" or in codec_language_id (" +
                                         names_of(t.codec_language_id) + ")");
    id = std::int32_t(it->second);
  }
  // NOTE: the reference lets a dialect speaker's dialect replace "chinese" and "auto" (its own
  // language for Chinese text), and leaves other languages as asked.
  if ((lang == "chinese" || lang == "auto") && !who.empty())
    if (auto const d = t.spk_is_dialect.find(who); d != t.spk_is_dialect.end())
      id = std::int32_t(t.codec_language_id.at(d->second));
  return id;
}

TtsPrompt build_prompt(const Qwen3TtsConfig& config, const PromptRequest& r) {
  TalkerConfig const& t = config.talker;
  std::size_t const n = r.text_ids.size();
  if (n < 9)
    throw LoadError(kRulePrompt, "the assistant text has " + std::to_string(n) +
                                     " ids; the role header (3), at least one text id and the closing turn (5) need 9");
  for (auto const* ids : {&r.text_ids, &r.instruct_ids})
    for (std::int32_t id : *ids)
      if (id < 0 || id >= t.text_vocab_size)
        throw LoadError(kRulePrompt, "text id " + std::to_string(id) + " is outside [0, " +
                                         std::to_string(t.text_vocab_size) + ")");
  std::int32_t const language = language_codec_id(config, r.speaker, r.language);
  auto const id = [](std::int64_t v) { return std::int32_t(v); };

  std::vector<std::int32_t> codec;
  if (language < 0) codec = {id(t.codec_nothink_id), id(t.codec_think_bos_id), id(t.codec_think_eos_id)};
  else codec = {id(t.codec_think_id), id(t.codec_think_bos_id), language, id(t.codec_think_eos_id)};
  if (!r.speaker.empty()) codec.push_back(id(t.spk_id.at(lower(r.speaker))));
  codec.push_back(id(t.codec_pad_id));
  codec.push_back(id(t.codec_bos_id));

  TtsPrompt p;
  p.pad_text = id(config.tts_pad_token_id);
  for (std::int32_t x : r.instruct_ids) p.rows.push_back({x, -1});
  for (std::size_t i = 0; i < 3; ++i) p.rows.push_back({r.text_ids[i], -1});
  for (std::size_t i = 0; i + 2 < codec.size(); ++i) p.rows.push_back({p.pad_text, codec[i]});
  p.rows.push_back({id(config.tts_bos_token_id), codec[codec.size() - 2]});
  if (r.non_streaming) {
    for (std::size_t i = 3; i < n - 5; ++i) p.rows.push_back({r.text_ids[i], id(t.codec_pad_id)});
    p.rows.push_back({id(config.tts_eos_token_id), id(t.codec_pad_id)});
    p.rows.push_back({p.pad_text, id(t.codec_bos_id)});
  } else {
    p.rows.push_back({r.text_ids[3], id(t.codec_bos_id)});
    p.trailing.assign(r.text_ids.begin() + 4, r.text_ids.end() - 5);
    p.trailing.push_back(id(config.tts_eos_token_id));
  }
  return p;
}

}  // namespace cute_cpp::models::qwen3_tts
