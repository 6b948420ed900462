// Result<T> and Error: the one error channel of shardbridge.
//
// No function of the library throws or aborts on user data; every fallible
// entry point returns a Result<T>. Member names follow std::expected
// (has_value, value, error) so the type can be swapped for it once the
// toolchain has <expected>.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <variant>

namespace shardbridge {

// What kind of failure an Error reports. Callers branch on the code; the
// message is for people.
enum class ErrorCode : uint8_t {
  kParse,          // malformed text or bytes
  kInvalid,        // well-formed but breaks a rule (verifier, Validate)
  kUnsupported,    // well-formed and valid, but has no representation asked for
  kNotFound,       // a named thing (mesh symbol, file) does not exist
  kIo,             // reading or writing a file failed
  kInternal,       // a broken invariant inside shardbridge (a bug)
};

// Returns a lower-case name for `code`, e.g. "parse" for kParse.
const char* errorCodeName(ErrorCode code);

// An error: a code, a human-readable message and, for errors about text, the
// byte offset into that text where the problem is (kNoOffset when none).
// It may carry one note, MLIR style: a second line of context (e.g. which
// parameter of an attribute was being parsed), with its own offset or none.
// An empty note is no note.
struct Error {
  static constexpr size_t kNoOffset = static_cast<size_t>(-1);

  ErrorCode code = ErrorCode::kInternal;
  std::string message;
  size_t offset = kNoOffset;
  std::string note;
  size_t noteOffset = kNoOffset;

  bool hasOffset() const { return offset != kNoOffset; }
  bool hasNote() const { return !note.empty(); }
  bool hasNoteOffset() const { return hasNote() && noteOffset != kNoOffset; }

  // Returns the same error with its offsets (the note's too) shifted by
  // `base` (used when a sub-parser ran on a slice of a larger buffer).
  // Offsets that are kNoOffset stay so.
  Error shifted(size_t base) const {
    Error e = *this;
    if (e.hasOffset()) e.offset += base;
    if (e.noteOffset != kNoOffset) e.noteOffset += base;
    return e;
  }

  // Moves both offsets through `map` (offset -> offset), as when an error
  // found in a rewritten or decoded text is located in the original one;
  // offsets that are kNoOffset stay so.
  template <typename Map>
  void mapOffsets(Map&& map) {
    if (hasOffset()) offset = map(offset);
    if (noteOffset != kNoOffset) noteOffset = map(noteOffset);
  }
  // Forgets both offsets (the text they point into is not the one shown).
  void dropOffsets() { offset = noteOffset = kNoOffset; }

  // Returns the same error with `text` as its note, at `at` (kNoOffset for a
  // note about no particular byte); replaces any note it had.
  Error withNote(std::string text, size_t at = kNoOffset) const {
    Error e = *this;
    e.note = std::move(text);
    e.noteOffset = e.note.empty() ? kNoOffset : at;
    return e;
  }
};

inline Error makeError(ErrorCode code, std::string message,
                       size_t offset = Error::kNoOffset) {
  Error e;
  e.code = code;
  e.message = std::move(message);
  e.offset = offset;
  return e;
}

// An Error of code kInvalid: a well-formed value that breaks a rule.
inline Error invalidError(std::string message) {
  return makeError(ErrorCode::kInvalid, std::move(message));
}

// Tag to construct a Result holding an error: `return Unexpected(err);`.
struct Unexpected {
  Error error;
  explicit Unexpected(Error e) : error(std::move(e)) {}
};

// Either a T or an Error. Accessing value() of an error result (or error() of
// a value) is a programming error, not an input error.
namespace result_detail {
// An Error on the heap, copied deeply. Results hold their error through one
// pointer, so a successful Result or Status costs a pointer, not the 88
// bytes of an Error's two strings and offsets: constructing, testing, moving
// and destroying one on the success path is a few instructions
// (docs/performance.md, "Status and Result").
class ErrorBox {
 public:
  ErrorBox() = default;  // no error (a Status that succeeded)
  explicit ErrorBox(Error e) : p_(new Error(std::move(e))) {}
  ErrorBox(const ErrorBox& o) : p_(o.p_ ? new Error(*o.p_) : nullptr) {}
  ErrorBox(ErrorBox&& o) noexcept : p_(o.p_) { o.p_ = nullptr; }
  ErrorBox& operator=(const ErrorBox& o) {
    if (this != &o) *this = ErrorBox(o);
    return *this;
  }
  ErrorBox& operator=(ErrorBox&& o) noexcept {
    std::swap(p_, o.p_);
    return *this;
  }
  // The test inline and the deletion out of line: on the success path a
  // Status's destruction is then a compare, not a call (the op-tree parser
  // destroys one per token it reads).
  ~ErrorBox() {
    if (p_) [[unlikely]]
      destroy(p_);
  }
  bool present() const { return p_ != nullptr; }
  Error& get() const { return *p_; }

 private:
  static void destroy(Error* e) noexcept;
  Error* p_ = nullptr;
};
}  // namespace result_detail

template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : v_(std::in_place_index<0>, std::move(value)) {}
  // Constructs the value in place, for types whose move is not free (a
  // protobuf message's move is a construction, a swap and a destruction).
  template <typename... Args>
  explicit Result(std::in_place_t, Args&&... args)
      : v_(std::in_place_index<0>, std::forward<Args>(args)...) {}
  Result(Unexpected u) : v_(std::in_place_index<1>, std::move(u.error)) {}
  Result(Error e) : v_(std::in_place_index<1>, std::move(e)) {}

  bool has_value() const { return v_.index() == 0; }
  explicit operator bool() const { return has_value(); }

  T& value() & { return std::get<0>(v_); }
  const T& value() const& { return std::get<0>(v_); }
  T&& value() && { return std::get<0>(std::move(v_)); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }

  const Error& error() const& { return std::get<1>(v_).get(); }
  Error&& error() && { return std::move(std::get<1>(v_).get()); }

 private:
  std::variant<T, result_detail::ErrorBox> v_;
};

template <>
class [[nodiscard]] Result<void> {
 public:
  Result() = default;
  Result(Unexpected u) : err_(std::move(u.error)) {}
  Result(Error e) : err_(std::move(e)) {}

  bool has_value() const { return !err_.present(); }
  explicit operator bool() const { return has_value(); }
  const Error& error() const& { return err_.get(); }
  Error&& error() && { return std::move(err_.get()); }

 private:
  result_detail::ErrorBox err_;
};

using Status = Result<void>;

inline Status okStatus() { return Status(); }

}  // namespace shardbridge

#define SB_CONCAT_INNER_(a, b) a##b
#define SB_CONCAT_(a, b) SB_CONCAT_INNER_(a, b)

// SB_TRY(expr): evaluates a Result/Status; returns its error from the
// enclosing function if it holds one.
#define SB_TRY(expr)                                                     \
  do {                                                                   \
    auto&& sb_try_result_ = (expr);                                      \
    if (!sb_try_result_.has_value())                                     \
      return ::shardbridge::Unexpected(std::move(sb_try_result_).error()); \
  } while (0)

// SB_ASSIGN_OR_RETURN(lhs, expr): `lhs = value` of a Result, or returns its
// error. `lhs` may be a declaration: SB_ASSIGN_OR_RETURN(auto x, f());
#define SB_ASSIGN_OR_RETURN(lhs, expr) \
  SB_ASSIGN_OR_RETURN_IMPL_(SB_CONCAT_(sb_result_, __LINE__), lhs, expr)
#define SB_ASSIGN_OR_RETURN_IMPL_(tmp, lhs, expr)              \
  auto tmp = (expr);                                           \
  if (!tmp.has_value())                                        \
    return ::shardbridge::Unexpected(std::move(tmp).error());  \
  lhs = std::move(tmp).value()
