// Fuzz target for the reader and writer layer (base/input.h, base/output.h)
// and the text checks in front of the parsers: any bytes are written through
// writeOutputFile (directly or through a symlink), read back through
// readInputFile / readInput / a pipe with a limit taken from the first byte,
// and must come back whole or be refused for the stated reason. checkText,
// escapeBytes and module::checkMlirModule must agree with each other.
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "shardbridge/base/input.h"
#include "shardbridge/base/output.h"
#include "shardbridge/module/mlir_input.h"

namespace {

using namespace shardbridge;

// One scratch directory per process, with `out` and a symlink `link` to it,
// removed when the process exits.
struct Scratch {
  std::string dir;
  Scratch() {
    char tmpl[] = "/tmp/sb_io_fuzz.XXXXXX";
    if (::mkdtemp(tmpl) == nullptr) __builtin_trap();
    dir = tmpl;
    if (::symlink("out", (dir + "/link").c_str()) != 0) __builtin_trap();
  }
  ~Scratch() {
    ::unlink((dir + "/link").c_str());
    ::unlink((dir + "/out").c_str());
    ::rmdir(dir.c_str());
  }
};

const std::string& scratch() {
  static const Scratch s;
  return s.dir;
}

void check(bool ok) {
  if (!ok) __builtin_trap();
}

// The result of reading `data` back under `options`, whatever the route.
void checkRead(const Result<InputText>& r, std::string_view data, const InputOptions& options) {
  if (data.size() > options.limit) {
    check(!r && r.error().code == ErrorCode::kIo &&
          r.error().message.find(" is larger than ") != std::string::npos);
  } else if (!options.allowEmpty && isBlank(data)) {
    check(!r && r.error().message == "empty input");
  } else {
    check(r && r->text == data);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* bytes, size_t size) {
  if (size == 0 || size > 16 * 1024) return 0;
  const uint8_t control = bytes[0];
  const std::string_view data(reinterpret_cast<const char*>(bytes) + 1, size - 1);
  InputOptions options;
  options.limit = (control & 0x80) ? data.size() + (control & 3) : (control & 0x3f);
  options.allowEmpty = (control & 0x40) != 0;

  // Written (through the symlink half the time), then read back.
  const std::string out = scratch() + "/out";
  check(bool(writeOutputFile((control & 4) ? scratch() + "/link" : out, data)));
  checkRead(readInputFile(out, options), data, options);
  checkRead(readInput("@" + out, options), data, options);

  // Text arguments are themselves, unless '@' or '-' starts them.
  if (!data.empty() && data[0] != '@' && data != "-") checkRead(readInput(data, options), data, options);

  // Through a pipe (the data fits its buffer, so one thread suffices).
  int fds[2];
  if (::pipe(fds) == 0) {
    check(bool(writeAll(fds[1], data, "<pipe>")));
    ::close(fds[1]);
    Result<std::string> piped = readAllFrom(fds[0], "<pipe>", options.limit);
    ::close(fds[0]);
    if (data.size() > options.limit) {
      check(!piped);
    } else {
      check(piped && *piped == data);
    }
  }

  // escapeBytes yields text that checkText accepts and that holds no raw
  // control byte but tab; text that checkText accepts and holds no control
  // byte at all is left as it is.
  const std::string escaped = escapeBytes(data);
  check(bool(checkText(escaped)));
  for (char c : escaped) check(static_cast<unsigned char>(c) >= 0x20 || c == '\t');
  Status text = checkText(data);
  if (text && data.find_first_of("\n\r\f\v") == std::string_view::npos) check(escaped == data);
  if (!text) check(text.error().offset < data.size());
  // A module passes checkMlirModule only if it is text.
  if (module::checkMlirModule(data)) check(bool(text));
  return 0;
}
