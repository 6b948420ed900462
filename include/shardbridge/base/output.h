// The one output writer of shardbridge: stdout and every output file
// (`convert -o`, `show --svg/--html`) go through here, so that no write
// fails silently and no file is left half written.
//
//   writeStdout("...")                    -> every byte written, or kIo
//                                            "cannot write <stdout>: No space left on device"
//   writeOutputFile("out.mlir", text)     -> out.mlir replaced whole, atomically
//   writeOutputFile("link.mlir", text)    -> the symlink's target written, the link kept
//   writeOutputFile("-", text)            -> stdout
#pragma once

#include <functional>
#include <string>
#include <string_view>

#include "shardbridge/base/result.h"

namespace shardbridge {

// Writes all of `data` to `fd`, retrying short writes and EINTR. `name` is
// used in messages: kIo "cannot write NAME: REASON".
Status writeAll(int fd, std::string_view data, std::string_view name);

// Writes all of `data` to stdout (fd 1), unbuffered. Errors as writeAll,
// named "<stdout>". A closed pipe is not an error here: SIGPIPE (left at its
// default by the CLI) ends the process as it ends `cat`.
Status writeStdout(std::string_view data);

struct OutputFileOptions {
  // Called once the data sits complete in the temporary file, before it is
  // renamed over the path (tests use it to deliver a signal at that moment).
  std::function<void(const std::string& tempPath)> beforeRename;
};

// Writes `data` to the output named `path`, the way `-o PATH` works
// everywhere:
// - `-` is stdout;
// - symlinks are followed (up to 40) and their target written; the link
//   stays a link. A dangling link's target is created;
// - a path that exists and is not a regular file (a FIFO, a character
//   device, /dev/stdout) is opened and written in place;
// - a regular file with one link, or a new path, gets a temporary file in
//   the same directory (mode and, when allowed, owner of the file it
//   replaces; else 0666 less the umask), renamed over it once complete. No
//   temporary file survives an error, SIGINT, SIGTERM or SIGHUP;
// - a regular file with several hard links is written in place, so every
//   link sees the result: space is reserved first, and when a write still
//   fails the message says "the file is damaged".
// Errors are kIo with the OS reason, e.g. "cannot write 'out': Is a
// directory", "cannot create a temporary file in 'dir': Permission denied".
Status writeOutputFile(const std::string& path, std::string_view data,
                       const OutputFileOptions& options = {});

}  // namespace shardbridge
