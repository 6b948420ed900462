// base/output.h: checked writes and the -o semantics (symlinks followed,
// non-regular files in place, temporary file and rename for a file with one
// link, in place for several, nothing left behind on failure or signal).
#include "shardbridge/base/output.h"
#include "base/temp_dir.h"

#include <dirent.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace shardbridge {
namespace {

using test_support::TempDir;

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

void spit(const std::string& path, const std::string& data) { std::ofstream(path) << data; }

TEST(WriteOutputFile, NewFileGetsTheUmaskMode) {
  TempDir dir;
  mode_t old = ::umask(022);
  ASSERT_TRUE(writeOutputFile(dir / "new", "data"));
  ::umask(old);
  EXPECT_EQ(slurp(dir / "new"), "data");
  struct stat st;
  ASSERT_EQ(::stat((dir / "new").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0644u);
  EXPECT_EQ(dir.entries(), std::vector<std::string>{"new"});
}

TEST(WriteOutputFile, ReplacingKeepsTheMode) {
  TempDir dir;
  spit(dir / "f", "old");
  ::chmod((dir / "f").c_str(), 0640);
  ASSERT_TRUE(writeOutputFile(dir / "f", "new"));
  EXPECT_EQ(slurp(dir / "f"), "new");
  struct stat st;
  ASSERT_EQ(::stat((dir / "f").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0640u);
}

TEST(WriteOutputFile, SymlinkIsFollowedAndKept) {
  TempDir dir;
  spit(dir / "target", "old");
  ASSERT_EQ(::symlink("target", (dir / "link").c_str()), 0);
  ASSERT_TRUE(writeOutputFile(dir / "link", "new"));
  struct stat st;
  ASSERT_EQ(::lstat((dir / "link").c_str(), &st), 0);
  EXPECT_TRUE(S_ISLNK(st.st_mode));
  EXPECT_EQ(slurp(dir / "target"), "new");
  // A chain of two links, and a dangling one whose target is created.
  ASSERT_EQ(::symlink("link", (dir / "link2").c_str()), 0);
  ASSERT_TRUE(writeOutputFile(dir / "link2", "newer"));
  EXPECT_EQ(slurp(dir / "target"), "newer");
  ASSERT_EQ(::symlink("created", (dir / "dangling").c_str()), 0);
  ASSERT_TRUE(writeOutputFile(dir / "dangling", "x"));
  EXPECT_EQ(slurp(dir / "created"), "x");
}

TEST(WriteOutputFile, SymlinkLoopIsAnError) {
  TempDir dir;
  ASSERT_EQ(::symlink("b", (dir / "a").c_str()), 0);
  ASSERT_EQ(::symlink("a", (dir / "b").c_str()), 0);
  Status s = writeOutputFile(dir / "a", "x");
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().message,
            "cannot write '" + (dir / "a") + "': Too many levels of symbolic links");
}

TEST(WriteOutputFile, HardLinksAreWrittenInPlace) {
  TempDir dir;
  spit(dir / "a", "a much longer old content");
  ASSERT_EQ(::link((dir / "a").c_str(), (dir / "b").c_str()), 0);
  ASSERT_TRUE(writeOutputFile(dir / "a", "new"));
  EXPECT_EQ(slurp(dir / "b"), "new");  // truncated to the new length
  struct stat st;
  ASSERT_EQ(::stat((dir / "a").c_str(), &st), 0);
  EXPECT_EQ(st.st_nlink, 2u);
}

TEST(WriteOutputFile, DirectoryIsAnError) {
  TempDir dir;
  Status s = writeOutputFile(dir.path(), "x");
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().code, ErrorCode::kIo);
  EXPECT_EQ(s.error().message, "cannot write '" + dir.path() + "': Is a directory");
}

TEST(WriteOutputFile, MissingDirectoryIsAnErrorAndLeavesNothing) {
  TempDir dir;
  Status s = writeOutputFile(dir / "no/such/file", "x");
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().message,
            "cannot create a temporary file in '" + (dir / "no/such") + "': No such file or directory");
  EXPECT_TRUE(dir.entries().empty());
}

TEST(WriteOutputFile, FifoIsWrittenInPlace) {
  TempDir dir;
  ASSERT_EQ(::mkfifo((dir / "fifo").c_str(), 0600), 0);
  pid_t child = ::fork();
  if (child == 0) {
    // The reader: exit 0 only when it got exactly the data.
    std::string got = slurp(dir / "fifo");
    ::_exit(got == "through the fifo" ? 0 : 1);
  }
  ASSERT_TRUE(writeOutputFile(dir / "fifo", "through the fifo"));
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  struct stat st;
  ASSERT_EQ(::lstat((dir / "fifo").c_str(), &st), 0);
  EXPECT_TRUE(S_ISFIFO(st.st_mode));
}

TEST(WriteOutputFile, FullDeviceIsAnError) {
  // The real /dev/full, opened for writing only: nothing is created or replaced.
  Status s = writeOutputFile("/dev/full", "x");
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().message, "cannot write '/dev/full': No space left on device");
}

TEST(WriteAll, ReportsTheReason) {
  int fd = ::open("/dev/full", O_WRONLY);
  ASSERT_GE(fd, 0);
  Status s = writeAll(fd, "x", "<stdout>");
  ::close(fd);
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().message, "cannot write <stdout>: No space left on device");
  EXPECT_TRUE(writeAll(fd, "", "<nothing>"));  // nothing to write, nothing fails
}

TEST(WriteOutputFile, SignalRemovesTheTemporaryFile) {
  TempDir dir;
  spit(dir / "out", "old");
  pid_t child = ::fork();
  if (child == 0) {
    OutputFileOptions options;
    options.beforeRename = [](const std::string&) { ::raise(SIGTERM); };
    (void)writeOutputFile(dir / "out", "new", options);
    ::_exit(0);  // not reached: SIGTERM ends the child
  }
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFSIGNALED(status));
  EXPECT_EQ(WTERMSIG(status), SIGTERM);
  EXPECT_EQ(dir.entries(), std::vector<std::string>{"out"});
  EXPECT_EQ(slurp(dir / "out"), "old");
}

}  // namespace
}  // namespace shardbridge
