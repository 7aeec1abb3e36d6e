// SPDX-License-Identifier: Apache-2.0
#pragma once
// models/qwen3/chat.hpp: Qwen3's chat prompt, the text the chat_template of Qwen3-8B's
// tokenizer_config.json renders for system/user/assistant turns without tools, turned into token
// ids by the Tokenizer; and the ids that end a reply (<|im_end|>, <|endoftext|>), looked up in the
// tokenizer rather than hard-coded.
#include <cstdint>      // std::int32_t, std::uint8_t
#include <span>         // std::span
#include <string>       // std::string
#include <string_view>  // std::string_view
#include <vector>       // std::vector

#include "models/common/tokenizer.hpp"  // Tokenizer

namespace cute_cpp::models {

// ---- messages ----

/// Who speaks a turn. Tool turns (and tool calls) need the template's tools branch, not implemented.
enum class ChatRole : std::uint8_t { system, user, assistant };

/// "system", "user" or "assistant", as the template writes it after <|im_start|>.
[[nodiscard]] std::string_view chat_role_name(ChatRole role) noexcept;
/// The role spelled `name`.   parse_chat_role("user")  ->  ChatRole::user
/// @pre name is "system", "user" or "assistant" [qwen3.chat-role].
[[nodiscard]] ChatRole parse_chat_role(std::string_view name);

/// One turn of a conversation.
struct ChatMessage {
  ChatRole role = ChatRole::user;
  std::string content;
};

/// The chat template's switches (apply_chat_template's keyword arguments).
struct ChatOptions {
  bool add_generation_prompt = true;  // end with the assistant header, ready for the reply
  bool enable_thinking = true;        // false appends an empty think block after that header
};

// ---- the prompt text ----

/// The text Qwen3's chat template renders (tools none):
///   {system: "S"}, {user: "Hi"}, enable_thinking false  ->
///   "<|im_start|>system\nS<|im_end|>\n<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\n<think>\n\n</think>\n\n"
/// Assistant turns are written as the template writes them: an earlier turn's "<think>...</think>"
/// reasoning is dropped (only the text after the last </think>, leading newlines removed, is kept);
/// an assistant turn after the last user turn keeps its reasoning in a think block (an empty one
/// when it is the last message).
[[nodiscard]] std::string render_qwen3_chat(std::span<const ChatMessage> messages, const ChatOptions& options = {});

// ---- Qwen3Chat ----

/// Chat prompts as token ids, and the stop ids, for one tokenizer. Holds a reference to it.
///   Qwen3Chat chat(tok);
///   chat.encode({{ChatRole::user, "Hi"}})  ->  tok.encode(render_qwen3_chat(...)): <|im_start|>, "user", "\n", ...
///   chat.stop_ids()                        ->  {id of <|im_end|>, id of <|endoftext|>}
class Qwen3Chat {
 public:
  /// @pre the tokenizer has <|im_start|>, <|im_end|> and <|endoftext|> as added tokens, so that
  ///      encode() splits them out as single ids [qwen3.chat-token].
  explicit Qwen3Chat(const Tokenizer& tokenizer);

  /// tokenizer.encode(render_qwen3_chat(messages, options)), with no post-processor tokens, as
  /// transformers' apply_chat_template(tokenize=True) does.
  /// @pre the contents are valid UTF-8 [tokenizer.input].
  [[nodiscard]] std::vector<std::int32_t> encode(std::span<const ChatMessage> messages,
                                                 const ChatOptions& options = {}) const;

  [[nodiscard]] std::int32_t im_start_id() const noexcept { return im_start_; }
  [[nodiscard]] std::int32_t im_end_id() const noexcept { return im_end_; }
  [[nodiscard]] std::int32_t endoftext_id() const noexcept { return endoftext_; }
  /// The ids that end generation: <|im_end|> (the end of the assistant turn), then <|endoftext|>;
  /// Qwen3's generation_config.json lists both as eos_token_id.
  [[nodiscard]] std::span<const std::int32_t> stop_ids() const noexcept { return stop_; }
  [[nodiscard]] bool is_stop(std::int32_t id) const noexcept { return id == im_end_ || id == endoftext_; }

 private:
  const Tokenizer* tokenizer_;
  std::int32_t im_start_ = 0;
  std::int32_t im_end_ = 0;
  std::int32_t endoftext_ = 0;
  std::vector<std::int32_t> stop_;
};

}  // namespace cute_cpp::models
