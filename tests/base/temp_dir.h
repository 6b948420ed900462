// A scratch directory for the I/O tests, removed with everything in it when
// the object goes out of scope.
#pragma once

#include <dirent.h>
#include <stdlib.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace shardbridge::test_support {

class TempDir {
 public:
  TempDir() {
    char tmpl[] = "/tmp/sb_io_test.XXXXXX";
    path_ = ::mkdtemp(tmpl);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  ~TempDir() { std::system(("rm -rf '" + path_ + "'").c_str()); }

  const std::string& path() const { return path_; }
  std::string operator/(const std::string& name) const { return path_ + "/" + name; }

  // Writes DATA to the file NAME in the directory; returns its path.
  std::string write(const std::string& name, const std::string& data) const {
    std::string p = *this / name;
    FILE* f = std::fopen(p.c_str(), "wb");
    std::fwrite(data.data(), 1, data.size(), f);
    std::fclose(f);
    return p;
  }

  // The names in the directory, sorted, without "." and "..".
  std::vector<std::string> entries() const {
    std::vector<std::string> names;
    DIR* d = ::opendir(path_.c_str());
    while (dirent* e = ::readdir(d)) {
      std::string n = e->d_name;
      if (n != "." && n != "..") names.push_back(n);
    }
    ::closedir(d);
    std::sort(names.begin(), names.end());
    return names;
  }

 private:
  std::string path_;
};

}  // namespace shardbridge::test_support
