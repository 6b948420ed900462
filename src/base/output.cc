#include "shardbridge/base/output.h"

#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iterator>

#include "shardbridge/base/input.h"

namespace shardbridge {
namespace {

Error ioError(std::string_view what, int err) {
  return makeError(ErrorCode::kIo, std::string(what) + ": " + std::strerror(err));
}

// The temporary file that a signal must not leave behind. The handler only
// calls async-signal-safe functions (unlink, sigaction, raise).
char gTempPath[PATH_MAX + 32];
volatile sig_atomic_t gTempArmed = 0;
constexpr int kCleanupSignals[] = {SIGINT, SIGTERM, SIGHUP};

extern "C" void removeTempAndDie(int sig) {
  if (gTempArmed) ::unlink(gTempPath);
  struct sigaction dfl {};
  dfl.sa_handler = SIG_DFL;
  sigemptyset(&dfl.sa_mask);
  ::sigaction(sig, &dfl, nullptr);
  ::raise(sig);  // delivered on return: the process ends by `sig`, as it would have
}

// Blocks the cleanup signals for its lifetime, so that arming and disarming
// the temporary file is atomic with its creation and its rename.
class SignalBlock {
 public:
  SignalBlock() {
    sigset_t set;
    sigemptyset(&set);
    for (int s : kCleanupSignals) sigaddset(&set, s);
    ::sigprocmask(SIG_BLOCK, &set, &old_);
  }
  ~SignalBlock() { ::sigprocmask(SIG_SETMASK, &old_, nullptr); }
  SignalBlock(const SignalBlock&) = delete;
  SignalBlock& operator=(const SignalBlock&) = delete;

 private:
  sigset_t old_;
};

// Installs the cleanup handlers for its lifetime (restoring the previous
// ones after), leaving alone a signal the caller ignores.
class CleanupHandlers {
 public:
  CleanupHandlers() {
    struct sigaction sa {};
    sa.sa_handler = removeTempAndDie;
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < std::size(kCleanupSignals); ++i) {
      ::sigaction(kCleanupSignals[i], nullptr, &old_[i]);
      if (old_[i].sa_handler != SIG_IGN) ::sigaction(kCleanupSignals[i], &sa, nullptr);
    }
  }
  ~CleanupHandlers() {
    for (size_t i = 0; i < std::size(kCleanupSignals); ++i) {
      ::sigaction(kCleanupSignals[i], &old_[i], nullptr);
    }
  }
  CleanupHandlers(const CleanupHandlers&) = delete;
  CleanupHandlers& operator=(const CleanupHandlers&) = delete;

 private:
  struct sigaction old_[std::size(kCleanupSignals)];
};

std::string dirOf(const std::string& path) {
  size_t slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

// `path` with its symlinks followed (a dangling link gives the path it
// points to). Only the last component matters: the directories are
// resolved by the kernel when the file is opened or renamed in them.
Result<std::string> followLinks(const std::string& path) {
  std::string p = path;
  for (int hops = 0; hops <= 40; ++hops) {
    struct stat st;
    if (::lstat(p.c_str(), &st) != 0) {
      if (errno == ENOENT) return p;
      return ioError("cannot write " + quotedName(path), errno);
    }
    if (!S_ISLNK(st.st_mode)) return p;
    char target[PATH_MAX];
    ssize_t n = ::readlink(p.c_str(), target, sizeof target);
    if (n < 0) return ioError("cannot write " + quotedName(path), errno);
    if (static_cast<size_t>(n) >= sizeof target) {
      return ioError("cannot write " + quotedName(path), ENAMETOOLONG);
    }
    std::string next(target, static_cast<size_t>(n));
    p = next.front() == '/' ? next : dirOf(p) + "/" + next;
  }
  return ioError("cannot write " + quotedName(path), ELOOP);
}

Status closeChecked(int fd, std::string_view name) {
  if (::close(fd) != 0 && errno != EINTR) return ioError("cannot write " + quotedName(name), errno);
  return okStatus();
}

// A FIFO, device or other non-regular file: opened and written in place.
Status writeInPlace(const std::string& target, const std::string& shown, std::string_view data) {
  int fd = ::open(target.c_str(), O_WRONLY | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) return ioError("cannot write " + quotedName(shown), errno);
  Status written = writeAll(fd, data, shown);
  Status closed = closeChecked(fd, shown);
  return written ? closed : written;
}

// A regular file with several hard links: rewritten through the same inode.
Status writeLinkedFile(const std::string& target, const std::string& shown, std::string_view data,
                       nlink_t links) {
  int fd = ::open(target.c_str(), O_WRONLY | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) return ioError("cannot write " + quotedName(shown), errno);
  // Reserve the space first: a full disk is then found before a byte of
  // the file changes. File systems without fallocate just skip this.
  if (!data.empty()) {
    int rc = ::posix_fallocate(fd, 0, static_cast<off_t>(data.size()));
    if (rc == ENOSPC || rc == EDQUOT || rc == EFBIG) {
      ::close(fd);
      return ioError("cannot write " + quotedName(shown), rc);
    }
  }
  Status written = writeAll(fd, data, shown);
  if (written && ::ftruncate(fd, static_cast<off_t>(data.size())) != 0) {
    written = ioError("cannot write " + quotedName(shown), errno);
  }
  Status closed = closeChecked(fd, shown);
  if (written) written = closed;
  if (written) return okStatus();
  Error error = written.error();
  error.message += "; the file is damaged (it has " + std::to_string(links) +
                   " hard links, so it was written in place)";
  return error;
}

// A new path or a regular file with one link: a temporary file in the same
// directory, renamed over it.
Status writeReplacing(const std::string& target, const std::string& shown, std::string_view data,
                      const struct stat* existing, const OutputFileOptions& options) {
  const std::string dir = dirOf(target);
  const std::string base = target.substr(target.rfind('/') == std::string::npos ? 0 : target.rfind('/') + 1);
  std::string tmpl = dir + "/." + base + ".XXXXXX";
  if (tmpl.size() >= sizeof gTempPath) return ioError("cannot write " + quotedName(shown), ENAMETOOLONG);

  CleanupHandlers handlers;
  int fd;
  {
    SignalBlock block;
    std::memcpy(gTempPath, tmpl.c_str(), tmpl.size() + 1);
    fd = ::mkstemp(gTempPath);
    if (fd < 0) {
      return ioError("cannot create a temporary file in " + quotedName(dir), errno);
    }
    gTempArmed = 1;
  }
  const std::string temp = gTempPath;
  auto discard = [&](Error error) -> Status {
    SignalBlock block;
    ::unlink(temp.c_str());
    gTempArmed = 0;
    return error;
  };

  // mkstemp creates the file 0600: give it the mode (and owner) of the file
  // it replaces, or the mode a plain create would have.
  mode_t mode;
  if (existing != nullptr) {
    mode = existing->st_mode & 07777;
    if (::fchown(fd, existing->st_uid, existing->st_gid) != 0) {
      // Not permitted for another user's file: the caller's ownership stays,
      // and set-id bits are not carried to a file they did not come from.
      mode &= ~static_cast<mode_t>(S_ISUID | S_ISGID);
    }
  } else {
    mode_t mask = ::umask(0);
    ::umask(mask);
    mode = 0666 & ~mask;
  }
  if (::fchmod(fd, mode) != 0) {
    int err = errno;
    ::close(fd);
    return discard(ioError("cannot write " + quotedName(shown), err));
  }
  Status written = writeAll(fd, data, shown);
  Status closed = closeChecked(fd, shown);
  if (!written) return discard(written.error());
  if (!closed) return discard(closed.error());
  if (options.beforeRename) options.beforeRename(temp);

  SignalBlock block;
  if (::rename(temp.c_str(), target.c_str()) != 0) {
    int err = errno;
    ::unlink(temp.c_str());
    gTempArmed = 0;
    return ioError("cannot write " + quotedName(shown), err);
  }
  gTempArmed = 0;
  return okStatus();
}

}  // namespace

Status writeAll(int fd, std::string_view data, std::string_view name) {
  if (fd >= 0 && fd <= 2 && standardStreamClosed(fd)) {
    return ioError("cannot write " + quotedName(name), EBADF);
  }
  size_t done = 0;
  while (done < data.size()) {
    // At most 1 GiB a call: some systems reject larger counts.
    size_t chunk = std::min(data.size() - done, size_t{1} << 30);
    ssize_t n = ::write(fd, data.data() + done, chunk);
    if (n < 0) {
      if (errno == EINTR) continue;
      return ioError("cannot write " + quotedName(name), errno);
    }
    if (n == 0) return ioError("cannot write " + quotedName(name), EIO);
    done += static_cast<size_t>(n);
  }
  return okStatus();
}

Status writeStdout(std::string_view data) { return writeAll(STDOUT_FILENO, data, "<stdout>"); }

Status writeOutputFile(const std::string& path, std::string_view data,
                       const OutputFileOptions& options) {
  if (path == "-") return writeStdout(data);
  if (path.empty()) return ioError("cannot write ''", ENOENT);
  SB_ASSIGN_OR_RETURN(std::string target, followLinks(path));
  struct stat st;
  if (::stat(target.c_str(), &st) != 0) {
    if (errno != ENOENT) return ioError("cannot write " + quotedName(path), errno);
    return writeReplacing(target, path, data, nullptr, options);
  }
  if (S_ISDIR(st.st_mode)) return ioError("cannot write " + quotedName(path), EISDIR);
  if (!S_ISREG(st.st_mode)) return writeInPlace(target, path, data);
  if (st.st_nlink > 1) return writeLinkedFile(target, path, data, st.st_nlink);
  return writeReplacing(target, path, data, &st, options);
}

}  // namespace shardbridge
