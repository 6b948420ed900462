#include "shardbridge/base/input.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>

namespace shardbridge {
namespace {

std::array<bool, 3> gClosedAtStart{false, false, false};

Error ioError(const char* verb, std::string_view name, int err) {
  return makeError(ErrorCode::kIo, std::string("cannot ") + verb + " " + quotedName(name) + ": " +
                                       std::strerror(err));
}

Error tooLarge(std::string_view name, size_t limit) {
  return makeError(ErrorCode::kIo, quotedName(name) + " is larger than " + std::to_string(limit) +
                                       " bytes, the input limit");
}

// The length of the UTF-8 sequence starting at text[i], or 0 when it is not
// valid (overlong forms, surrogates and code points past U+10FFFF included).
size_t utf8Length(std::string_view text, size_t i) {
  auto byte = [&](size_t k) { return static_cast<unsigned char>(text[k]); };
  unsigned char c = byte(i);
  if (c < 0x80) return 1;
  size_t n;
  uint32_t cp;
  if (c >= 0xc2 && c <= 0xdf) {
    n = 2;
    cp = c & 0x1f;
  } else if (c >= 0xe0 && c <= 0xef) {
    n = 3;
    cp = c & 0x0f;
  } else if (c >= 0xf0 && c <= 0xf4) {
    n = 4;
    cp = c & 0x07;
  } else {
    return 0;
  }
  if (text.size() - i < n) return 0;
  for (size_t k = 1; k < n; ++k) {
    if ((byte(i + k) & 0xc0) != 0x80) return 0;
    cp = (cp << 6) | (byte(i + k) & 0x3f);
  }
  if ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) || cp > 0x10ffff ||
      (cp >= 0xd800 && cp <= 0xdfff)) {
    return 0;
  }
  return n;
}

std::string hexByte(unsigned char c) {
  static const char* kHex = "0123456789abcdef";
  std::string s = "\\x";
  s += kHex[c >> 4];
  s += kHex[c & 0xf];
  return s;
}

Result<InputText> finish(std::string text, std::string name, const InputOptions& options) {
  if (!options.allowEmpty && isBlank(text)) {
    return makeError(ErrorCode::kParse, "empty input");
  }
  return InputText{std::move(text), std::move(name)};
}

}  // namespace

size_t validUtf8Length(std::string_view text) { return text.empty() ? 0 : utf8Length(text, 0); }

size_t firstInvalidUtf8(std::string_view text) {
  for (size_t i = 0; i < text.size();) {
    size_t n = utf8Length(text, i);
    if (n == 0) return i;
    i += n;
  }
  return std::string_view::npos;
}

bool isBlank(std::string_view text) {
  return text.find_first_not_of(" \t\r\n") == std::string_view::npos;
}

std::string quotedName(std::string_view name) {
  // "<stdin>" and "<input>" are not paths; they read better unquoted.
  if (!name.empty() && name.front() == '<') return std::string(name);
  return "'" + escapeBytes(name) + "'";
}

std::string escapeBytes(std::string_view bytes) {
  std::string out;
  out.reserve(bytes.size());
  for (size_t i = 0; i < bytes.size();) {
    unsigned char c = static_cast<unsigned char>(bytes[i]);
    if (c >= 0x80) {
      if (size_t n = utf8Length(bytes, i)) {
        out.append(bytes.substr(i, n));
        i += n;
        continue;
      }
    }
    if ((c < 0x20 && c != '\t') || c == 0x7f || c >= 0x80) {
      out += hexByte(c);
    } else {
      out += static_cast<char>(c);
    }
    ++i;
  }
  return out;
}

namespace {
// Whether all eight bytes of `w` are printable ASCII (0x20 to 0x7e), tested
// at once: with every byte's top bit clear (no carry can cross a byte), a
// byte is at least 0x20 iff adding 0x60 sets its top bit, and at least 0x7f
// iff adding 0x01 does. Most of a module is such runs. Asked only of a word
// that is not, whether its bytes are printable ASCII or '\n': one word of
// every few in a module holds a line break, whose bytes were otherwise
// tested one at a time up to it. Other bytes (UTF-8, tabs) go to the byte loop.
constexpr uint64_t kOnes = 0x0101010101010101ull, kHigh = 0x8080808080808080ull, kLow7 = 0x7f7f7f7f7f7f7f7full;
uint64_t printableBytes(uint64_t w) {
  uint64_t low = w + (0x80 - 0x20) * kOnes;   // top bit set iff byte >= 0x20
  uint64_t high = w + (0x80 - 0x7f) * kOnes;  // top bit set iff byte >= 0x7f
  return low & ~high & kHigh;
}
bool allPrintable(uint64_t w) { return !(w & kHigh) && printableBytes(w) == kHigh; }
bool allPrintableOrNewline(uint64_t w) {
  if (w & kHigh) return false;
  uint64_t x = w ^ (uint64_t{'\n'} * kOnes);                   // zero where a byte is '\n'
  uint64_t newline = ~(((x & kLow7) + kLow7) | x | kLow7);  // top bit set iff that byte of x is zero
  return (printableBytes(w) | newline) == kHigh;
}
}  // namespace

Status checkText(std::string_view text) {
  for (size_t i = 0; i < text.size();) {
    if (i + 8 <= text.size()) {
      uint64_t w;
      std::memcpy(&w, text.data() + i, 8);
      if (allPrintable(w) || allPrintableOrNewline(w)) {
        i += 8;
        continue;
      }
    }
    unsigned char c = static_cast<unsigned char>(text[i]);
    if (c >= 0x20 && c != 0x7f && c < 0x80) {
      ++i;
      continue;
    }
    if (c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v') {
      ++i;
      continue;
    }
    if (c == 0) return makeError(ErrorCode::kParse, "text contains a NUL byte", i);
    if (c < 0x80) {
      return makeError(ErrorCode::kParse, "text contains the control byte " + hexByte(c), i);
    }
    size_t n = utf8Length(text, i);
    if (n == 0) {
      return makeError(ErrorCode::kParse, "text is not valid UTF-8 (byte " + hexByte(c) + ")", i);
    }
    i += n;
  }
  return okStatus();
}

Result<std::string> readAllFrom(int fd, std::string_view name, size_t limit) {
  if (fd >= 0 && fd <= 2 && gClosedAtStart[static_cast<size_t>(fd)]) {
    return ioError("read", name, EBADF);
  }
  struct stat st;
  if (::fstat(fd, &st) != 0) return ioError("read", name, errno);
  if (S_ISDIR(st.st_mode)) return ioError("read", name, EISDIR);
  std::string data;
  size_t statSize = 0;  // a regular file's size as fstat tells it (0: unknown)
  if (S_ISREG(st.st_mode) && st.st_size > 0) {
    // A regular file's size is known: refuse it before reading a byte.
    if (static_cast<uint64_t>(st.st_size) > limit) return tooLarge(name, limit);
    statSize = static_cast<size_t>(st.st_size);
    data.reserve(statSize);
  }
  // Read at most `limit` bytes into the string, then probe for one more
  // into a byte of its own: the string never grows past the limit (growing
  // it by one byte would double its capacity).
  size_t used = 0;
  auto readSome = [&](char* into, size_t n) -> Result<size_t> {
    while (true) {
      ssize_t got = ::read(fd, into, n);
      if (got >= 0) return static_cast<size_t>(got);
      if (errno != EINTR) return ioError("read", name, errno);
    }
  };
  while (used < limit) {
    if (data.size() == used && used > 0 && used == statSize) {
      // The file's whole size is read: one byte more, into a byte of its
      // own, tells the end without doubling the string (which zeroed twice
      // the file and left the text holding twice its size).
      char probe;
      SB_ASSIGN_OR_RETURN(size_t n, readSome(&probe, 1));
      if (n == 0) break;
      statSize = 0;  // it grew while read: the doubling below takes over
      data.resize(std::min(std::max<size_t>(used * 2, 65536), limit));
      data[used++] = probe;
      continue;
    }
    if (data.size() == used) {
      // Doubling from 64 KiB, capped at the limit: a power-of-two limit is
      // reached exactly.
      size_t grow = std::max<size_t>({data.capacity(), size_t{65536}, used * 2});
      data.resize(std::min(grow, limit));
    }
    SB_ASSIGN_OR_RETURN(size_t n, readSome(data.data() + used, data.size() - used));
    if (n == 0) break;
    used += n;
  }
  if (used == limit) {
    char probe;
    SB_ASSIGN_OR_RETURN(size_t n, readSome(&probe, 1));
    if (n > 0) ++used;
  }
  if (used > limit) return tooLarge(name, limit);
  data.resize(used);
  return data;
}

Result<InputText> readInputFile(std::string_view path, const InputOptions& options) {
  if (path == "-") {
    SB_ASSIGN_OR_RETURN(std::string text, readAllFrom(0, "<stdin>", options.limit));
    return finish(std::move(text), "<stdin>", options);
  }
  std::string p(path);
  if (p.empty()) return makeError(ErrorCode::kIo, "cannot open '': No such file or directory");
  int fd = ::open(p.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) return ioError("open", p, errno);
  Result<std::string> text = readAllFrom(fd, p, options.limit);
  ::close(fd);
  if (!text) return text.error();
  return finish(std::move(*text), p, options);
}

Result<InputText> readInput(std::string_view arg, const InputOptions& options) {
  if (arg == "-") return readInputFile(arg, options);
  if (!arg.empty() && arg.front() == '@') return readInputFile(arg.substr(1), options);
  if (arg.size() > options.limit) return tooLarge("<input>", options.limit);
  return finish(std::string(arg), "<input>", options);
}

void guardStandardStreams() {
  for (int fd = 0; fd <= 2; ++fd) {
    if (::fcntl(fd, F_GETFD) != -1 || errno != EBADF) continue;
    gClosedAtStart[static_cast<size_t>(fd)] = true;
    int opened = ::open("/dev/null", fd == 0 ? O_RDONLY : O_WRONLY);
    if (opened >= 0 && opened != fd) {
      ::dup2(opened, fd);
      ::close(opened);
    }
  }
}

bool standardStreamClosed(int fd) {
  return fd >= 0 && fd <= 2 && gClosedAtStart[static_cast<size_t>(fd)];
}

}  // namespace shardbridge
