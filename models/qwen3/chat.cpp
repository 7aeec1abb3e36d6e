// SPDX-License-Identifier: Apache-2.0
// models/qwen3/chat.cpp: Qwen3's chat template (the no-tools branch of the Jinja chat_template in
// Qwen3-8B's tokenizer_config.json) written out in C++, and the chat special tokens looked up in the
// tokenizer.
#include "models/qwen3/chat.hpp"

#include <algorithm>  // std::find_if

#include "models/common/error.hpp"  // LoadError, in_quotes

namespace cute_cpp::models {

namespace {
constexpr char kRuleRole[] =
    "cute-cpp [qwen3.chat-role]: a chat message's role must be system, user or assistant (tools are not implemented)";
constexpr char kRuleToken[] =
    "cute-cpp [qwen3.chat-token]: the tokenizer must have Qwen's chat special tokens as added tokens";

constexpr std::string_view kImStart = "<|im_start|>";
constexpr std::string_view kImEnd = "<|im_end|>";
constexpr std::string_view kEndOfText = "<|endoftext|>";
constexpr std::string_view kThinkOpen = "<think>";
constexpr std::string_view kThinkClose = "</think>";

// Python's str.lstrip / rstrip / strip with the argument "\n", as the template calls them.
std::string_view lstrip_newlines(std::string_view s) {
  auto const i = s.find_first_not_of('\n');
  return i == std::string_view::npos ? std::string_view() : s.substr(i);
}
std::string_view rstrip_newlines(std::string_view s) {
  auto const i = s.find_last_not_of('\n');
  return i == std::string_view::npos ? std::string_view() : s.substr(0, i + 1);
}
std::string_view strip_newlines(std::string_view s) { return rstrip_newlines(lstrip_newlines(s)); }

/// The template's test for a user turn that carries a tool's output rather than a query.
bool is_tool_response(std::string_view content) {
  return content.starts_with("<tool_response>") && content.ends_with("</tool_response>");
}
}  // namespace

// ---- messages ----

std::string_view chat_role_name(ChatRole role) noexcept {
  switch (role) {
    case ChatRole::system:
      return "system";
    case ChatRole::user:
      return "user";
    case ChatRole::assistant:
      return "assistant";
  }
  return "user";
}

ChatRole parse_chat_role(std::string_view name) {
  for (auto const role : {ChatRole::system, ChatRole::user, ChatRole::assistant})
    if (chat_role_name(role) == name) return role;
  throw LoadError(kRuleRole, "role " + in_quotes(name) + ", expected \"system\", \"user\" or \"assistant\"");
}

// ---- the prompt text ----

std::string render_qwen3_chat(std::span<const ChatMessage> messages, const ChatOptions& options) {
  // The last real query: assistant turns after it keep their reasoning (a turn that is still being
  // written, as in multi-step tool use); the template defaults to the last index when there is none.
  std::size_t last_query = messages.empty() ? 0 : messages.size() - 1;
  for (std::size_t i = messages.size(); i-- > 0;)
    if (messages[i].role == ChatRole::user && !is_tool_response(messages[i].content)) {
      last_query = i;
      break;
    }

  std::string out;
  for (std::size_t i = 0; i < messages.size(); ++i) {
    auto const& m = messages[i];
    out += kImStart;
    out += chat_role_name(m.role);
    out += '\n';
    if (m.role != ChatRole::assistant) {
      // A first system turn comes from the template's preamble, any other from the loop; both
      // write the same text.
      out += m.content;
    } else {
      std::string_view content = m.content;
      std::string_view reasoning;
      if (auto const close = content.find(kThinkClose); close != std::string_view::npos) {
        // content.split('</think>')[0].rstrip('\n').split('<think>')[-1].lstrip('\n')
        auto const before = rstrip_newlines(content.substr(0, close));
        auto const open = before.rfind(kThinkOpen);
        reasoning = lstrip_newlines(open == std::string_view::npos ? before : before.substr(open + kThinkOpen.size()));
        // content.split('</think>')[-1].lstrip('\n')
        content = lstrip_newlines(content.substr(content.rfind(kThinkClose) + kThinkClose.size()));
      }
      if (i > last_query && (i + 1 == messages.size() || !reasoning.empty())) {
        out += kThinkOpen;
        out += '\n';
        out += strip_newlines(reasoning);
        out += '\n';
        out += kThinkClose;
        out += "\n\n";
        out += lstrip_newlines(content);
      } else {
        out += content;
      }
    }
    out += kImEnd;
    out += '\n';
  }
  if (options.add_generation_prompt) {
    out += kImStart;
    out += "assistant\n";
    if (!options.enable_thinking) {
      out += kThinkOpen;
      out += "\n\n";
      out += kThinkClose;
      out += "\n\n";
    }
  }
  return out;
}

// ---- Qwen3Chat ----

Qwen3Chat::Qwen3Chat(const Tokenizer& tokenizer) : tokenizer_(&tokenizer) {
  auto added_id = [&](std::string_view content) {
    auto const& added = tokenizer.added_tokens();
    auto const it = std::find_if(added.begin(), added.end(), [&](const AddedToken& t) { return t.content == content; });
    if (it == added.end()) {
      // NOTE: as a plain vocabulary entry (or not at all) the marker would be split by the BPE into
      // several ids, and the model would never see its chat structure; refuse rather than encode that.
      auto const in_vocab = tokenizer.token_to_id(content);
      throw LoadError(kRuleToken, "the tokenizer has no added token " + in_quotes(content) +
                                      (in_vocab ? " (it is only a vocabulary entry, id " + std::to_string(*in_vocab) +
                                                      ", which encode() does not split out)"
                                                : ""));
    }
    return it->id;
  };
  im_start_ = added_id(kImStart);
  im_end_ = added_id(kImEnd);
  endoftext_ = added_id(kEndOfText);
  stop_ = {im_end_, endoftext_};
}

std::vector<std::int32_t> Qwen3Chat::encode(std::span<const ChatMessage> messages, const ChatOptions& options) const {
  return tokenizer_->encode(render_qwen3_chat(messages, options), /*add_special_tokens=*/false);
}

}  // namespace cute_cpp::models
