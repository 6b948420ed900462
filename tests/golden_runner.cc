// golden_runner: runs the cases of one golden file through the shardbridge
// binary and compares what it prints.
//
//   golden_runner <shardbridge binary> <golden file>
//
// A golden file holds cases separated by a line `// -----`. In a case:
//   // ARGS: --mesh '<["a"=2]>'     extra arguments, split shell-style
//   // CMD: sdy                     the subcommand (default: sdy)
//   // INPUT: file                  pass TEXT (plus a final newline) as the path
//                                   of a temporary file instead of as the text;
//                                   expected-error-at then names that path
//   // CHECK: <line>                the expected stdout, one line each, in
//                                   order; together all of stdout
//   // expected-error {{MSG}}       exit code 1, stderr contains `error: MSG`
//   // expected-error-at {{L:C}}    the diagnostic header is `<input>:L:C: error:`
//   // STDERR: <line>               the expected stderr, one line each, in
//                                   order; together all of stderr (the whole
//                                   rendered diagnostic, note included; a
//                                   file input's path is written <input>)
//   // anything else               a comment
// The other lines, joined with '\n' and trimmed, are TEXT, passed as the last
// argument. With neither CHECK nor expected-error the case must exit 0 and
// print TEXT back exactly.
//
// The binary runs without a shell (posix_spawn, pipes) under a timeout. Each
// failing case is reported with its file:line; the last line is
// `N passed, M failed`, and the exit code is non-zero on any failure.
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

extern char** environ;

namespace {

constexpr int kTimeoutMs = 20000;
constexpr std::string_view kSeparator = "// -----";

struct Case {
  size_t line = 0;  // 1-based line of the case's first non-blank line
  std::vector<std::string> args;
  std::string command = "sdy";
  bool inputFile = false;  // `// INPUT: file`
  std::vector<std::string> checks;
  std::vector<std::string> stderrLines;  // `// STDERR:`
  std::optional<std::string> expectedError;
  std::optional<std::string> expectedErrorAt;
  std::vector<std::string> textLines;
  std::string problem;  // a malformed directive, reported as a failure
};

struct RunResult {
  int exitCode = -1;  // -1: killed by a signal or the timeout
  bool timedOut = false;
  std::string out;
  std::string err;
  std::string spawnError;
};

std::string trimRight(std::string_view s) {
  size_t end = s.size();
  while (end > 0 && (s[end - 1] == ' ' || s[end - 1] == '\t' || s[end - 1] == '\r' ||
                     s[end - 1] == '\n')) {
    --end;
  }
  return std::string(s.substr(0, end));
}

std::string trim(std::string_view s) {
  size_t begin = 0;
  while (begin < s.size() && (s[begin] == ' ' || s[begin] == '\t' || s[begin] == '\r' ||
                              s[begin] == '\n')) {
    ++begin;
  }
  return trimRight(s.substr(begin));
}

bool startsWith(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

// Splits `line` like a POSIX shell would (no expansions): whitespace separates
// words, '...' is literal, "..." honours \" \\ \$ \`, and a bare backslash
// escapes the next character.
std::optional<std::vector<std::string>> splitShellWords(std::string_view line) {
  std::vector<std::string> words;
  std::string word;
  bool inWord = false;
  for (size_t i = 0; i < line.size(); ++i) {
    char c = line[i];
    if (c == ' ' || c == '\t') {
      if (inWord) words.push_back(word);
      word.clear();
      inWord = false;
    } else if (c == '\'') {
      size_t close = line.find('\'', i + 1);
      if (close == std::string_view::npos) return std::nullopt;
      word += line.substr(i + 1, close - i - 1);
      i = close;
      inWord = true;
    } else if (c == '"') {
      size_t j = i + 1;
      for (; j < line.size() && line[j] != '"'; ++j) {
        if (line[j] == '\\' && j + 1 < line.size() &&
            std::string_view("\"\\$`").find(line[j + 1]) != std::string_view::npos) {
          ++j;
        }
        word += line[j];
      }
      if (j >= line.size()) return std::nullopt;
      i = j;
      inWord = true;
    } else if (c == '\\' && i + 1 < line.size()) {
      word += line[++i];
      inWord = true;
    } else {
      word += c;
      inWord = true;
    }
  }
  if (inWord) words.push_back(word);
  return words;
}

// The text between `{{` and the last `}}` of `rest`, or nullopt.
std::optional<std::string> braced(std::string_view rest) {
  size_t open = rest.find("{{");
  size_t close = rest.rfind("}}");
  if (open == std::string_view::npos || close == std::string_view::npos || close < open + 2) {
    return std::nullopt;
  }
  return std::string(rest.substr(open + 2, close - open - 2));
}

void parseDirective(Case& c, std::string_view body) {
  // `body` is what follows `//` with leading blanks removed.
  if (startsWith(body, "ARGS:")) {
    auto words = splitShellWords(body.substr(5));
    if (!words) {
      c.problem = "unterminated quote in ARGS";
      return;
    }
    c.args.insert(c.args.end(), words->begin(), words->end());
  } else if (startsWith(body, "CMD:")) {
    c.command = trim(body.substr(4));
  } else if (startsWith(body, "INPUT:")) {
    std::string how = trim(body.substr(6));
    if (how == "file") {
      c.inputFile = true;
    } else {
      c.problem = "INPUT must be `file`";
    }
  } else if (startsWith(body, "STDERR:")) {
    std::string_view rest = body.substr(7);
    if (!rest.empty() && rest[0] == ' ') rest.remove_prefix(1);
    c.stderrLines.push_back(trimRight(rest));
  } else if (startsWith(body, "CHECK:")) {
    std::string_view rest = body.substr(6);
    if (!rest.empty() && rest[0] == ' ') rest.remove_prefix(1);
    c.checks.push_back(trimRight(rest));
  } else if (startsWith(body, "expected-error-at")) {
    auto where = braced(body.substr(17));
    if (!where) c.problem = "expected-error-at needs {{LINE:COL}}";
    c.expectedErrorAt = where;
  } else if (startsWith(body, "expected-error")) {
    auto message = braced(body.substr(14));
    if (!message) c.problem = "expected-error needs {{MESSAGE}}";
    c.expectedError = message;
  }
}

std::vector<Case> parseGolden(const std::string& content) {
  std::vector<Case> cases(1);
  std::istringstream in(content);
  std::string line;
  size_t lineNo = 0;
  while (std::getline(in, line)) {
    ++lineNo;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (trim(line) == kSeparator) {
      cases.emplace_back();
      continue;
    }
    Case& c = cases.back();
    std::string stripped = trim(line);
    if (c.line == 0 && !stripped.empty()) c.line = lineNo;
    if (startsWith(stripped, "//")) {
      std::string_view body = std::string_view(stripped).substr(2);
      while (!body.empty() && (body[0] == ' ' || body[0] == '\t')) body.remove_prefix(1);
      parseDirective(c, body);
    } else {
      c.textLines.push_back(line);
    }
  }
  return cases;
}

std::string caseText(const Case& c) {
  std::string joined;
  for (size_t i = 0; i < c.textLines.size(); ++i) {
    if (i) joined += '\n';
    joined += c.textLines[i];
  }
  return trim(joined);
}

bool isEmptyCase(const Case& c) {
  return c.args.empty() && c.checks.empty() && c.stderrLines.empty() && !c.expectedError &&
         !c.expectedErrorAt &&
         caseText(c).empty() && c.problem.empty();
}

long long nowMs() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<long long>(ts.tv_sec) * 1000 + ts.tv_nsec / 1000000;
}

// Runs argv[0] with `argv`, stdin from /dev/null, collecting stdout and
// stderr through pipes; kills the child after kTimeoutMs.
RunResult run(const std::vector<std::string>& argv) {
  RunResult result;
  int outPipe[2], errPipe[2];
  if (pipe(outPipe) != 0) {
    result.spawnError = std::string("pipe: ") + std::strerror(errno);
    return result;
  }
  if (pipe(errPipe) != 0) {
    result.spawnError = std::string("pipe: ") + std::strerror(errno);
    close(outPipe[0]);
    close(outPipe[1]);
    return result;
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1);
  posix_spawn_file_actions_adddup2(&actions, errPipe[1], 2);
  posix_spawn_file_actions_addclose(&actions, outPipe[0]);
  posix_spawn_file_actions_addclose(&actions, errPipe[0]);
  posix_spawn_file_actions_addclose(&actions, outPipe[1]);
  posix_spawn_file_actions_addclose(&actions, errPipe[1]);

  std::vector<char*> cargv;
  for (const auto& a : argv) cargv.push_back(const_cast<char*>(a.c_str()));
  cargv.push_back(nullptr);
  pid_t pid = 0;
  int rc = posix_spawn(&pid, cargv[0], &actions, nullptr, cargv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  close(outPipe[1]);
  close(errPipe[1]);
  if (rc != 0) {
    result.spawnError = std::string("posix_spawn: ") + std::strerror(rc);
    close(outPipe[0]);
    close(errPipe[0]);
    return result;
  }

  pollfd fds[2] = {{outPipe[0], POLLIN, 0}, {errPipe[0], POLLIN, 0}};
  std::string* sinks[2] = {&result.out, &result.err};
  int open = 2;
  long long deadline = nowMs() + kTimeoutMs;
  while (open > 0) {
    long long left = deadline - nowMs();
    if (left <= 0) {
      result.timedOut = true;
      break;
    }
    int ready = poll(fds, 2, static_cast<int>(left));
    if (ready < 0) {
      if (errno == EINTR) continue;
      break;
    }
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd < 0 || fds[i].revents == 0) continue;
      char buf[4096];
      ssize_t n = read(fds[i].fd, buf, sizeof buf);
      if (n > 0) {
        sinks[i]->append(buf, static_cast<size_t>(n));
      } else if (n == 0 || errno != EINTR) {
        close(fds[i].fd);
        fds[i].fd = -1;
        --open;
      }
    }
  }
  for (auto& fd : fds) {
    if (fd.fd >= 0) close(fd.fd);
  }
  if (result.timedOut) kill(pid, SIGKILL);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (!result.timedOut && WIFEXITED(status)) result.exitCode = WEXITSTATUS(status);
  return result;
}

// stdout as lines, trailing whitespace trimmed; the final newline ends the
// last line rather than starting an empty one.
std::vector<std::string> outputLines(std::string_view out) {
  std::vector<std::string> lines;
  if (!out.empty() && out.back() == '\n') out.remove_suffix(1);
  if (out.empty()) return lines;
  size_t start = 0;
  while (true) {
    size_t nl = out.find('\n', start);
    lines.push_back(trimRight(out.substr(start, nl == std::string_view::npos ? nl : nl - start)));
    if (nl == std::string_view::npos) break;
    start = nl + 1;
  }
  return lines;
}

std::string indent(const std::string& text) {
  if (text.empty()) return "    <empty>\n";
  std::string out;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) out += "    " + line + "\n";
  return out;
}

// Returns an empty string when the case passes, else what went wrong.
std::string check(const Case& c, const RunResult& r, const std::string& inputName) {
  std::ostringstream why;
  if (!c.problem.empty()) return "malformed case: " + c.problem + "\n";
  if (!r.spawnError.empty()) return "could not run the binary: " + r.spawnError + "\n";
  if (r.timedOut) return "timed out after " + std::to_string(kTimeoutMs / 1000) + " s\n";
  std::string text = caseText(c);
  bool wantError = c.expectedError.has_value() || c.expectedErrorAt.has_value();
  int wantExit = wantError ? 1 : 0;
  if (r.exitCode != wantExit) {
    why << "expected exit code " << wantExit << ", got " << r.exitCode << "\n";
  }
  if (c.expectedError && r.err.find("error: " + *c.expectedError) == std::string::npos) {
    why << "expected stderr to contain:\n" << indent("error: " + *c.expectedError);
  }
  if (c.expectedErrorAt &&
      r.err.find(inputName + ":" + *c.expectedErrorAt + ": error:") == std::string::npos) {
    why << "expected the diagnostic at " << inputName << ":" << *c.expectedErrorAt << "\n";
  }
  // A file input's temporary path reads `<input>` in STDERR lines, as text
  // input is named.
  std::string err = r.err;
  if (inputName != "<input>")
    for (size_t at = err.find(inputName); at != std::string::npos; at = err.find(inputName, at + 7))
      err.replace(at, inputName.size(), "<input>");
  if (!c.stderrLines.empty() && outputLines(err) != c.stderrLines) {
    std::string expected;
    for (const auto& l : c.stderrLines) expected += l + "\n";
    why << "expected stderr:\n" << indent(expected);
  }
  if (!c.checks.empty()) {
    if (outputLines(r.out) != c.checks) {
      std::string expected;
      for (const auto& l : c.checks) expected += l + "\n";
      why << "expected stdout:\n" << indent(expected) << "actual stdout:\n" << indent(r.out);
    }
  } else if (!wantError) {
    std::string out = r.out;
    if (!out.empty() && out.back() == '\n') out.pop_back();
    if (out != text) {
      why << "expected the input printed back:\n"
          << indent(text) << "actual stdout:\n" << indent(r.out);
    }
  }
  std::string failure = why.str();
  if (!failure.empty() && !r.err.empty() && !c.expectedError) {
    failure += "stderr:\n" + indent(r.err);
  } else if (!failure.empty() && c.expectedError) {
    failure += "actual stderr:\n" + indent(r.err);
  }
  return failure;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: golden_runner <shardbridge binary> <golden file>\n");
    return 2;
  }
  std::string binary = argv[1];
  std::string path = argv[2];
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "golden_runner: cannot read %s\n", path.c_str());
    return 2;
  }
  std::stringstream content;
  content << in.rdbuf();

  size_t passed = 0, failed = 0;
  for (const Case& c : parseGolden(content.str())) {
    if (isEmptyCase(c)) continue;
    std::vector<std::string> args = {binary, c.command};
    args.insert(args.end(), c.args.begin(), c.args.end());
    std::string inputName = "<input>";
    std::string tmpDir;
    if (c.inputFile) {
      char tmpl[] = "/tmp/golden_runner.XXXXXX";
      if (mkdtemp(tmpl) == nullptr) {
        std::fprintf(stderr, "golden_runner: cannot create a temporary directory\n");
        return 2;
      }
      tmpDir = tmpl;
      inputName = tmpDir + "/input.mlir";
      std::ofstream(inputName, std::ios::binary) << caseText(c) << "\n";
      args.push_back(inputName);
    } else {
      args.push_back(caseText(c));
    }
    RunResult r = run(args);
    if (!tmpDir.empty()) {
      unlink(inputName.c_str());
      rmdir(tmpDir.c_str());
    }
    std::string failure = check(c, r, inputName);
    if (failure.empty()) {
      ++passed;
      continue;
    }
    ++failed;
    std::cout << path << ":" << c.line << ": FAILED\n";
    std::cout << "  input: " << caseText(c) << "\n" << failure << "\n";
  }
  std::cout << passed << " passed, " << failed << " failed\n";
  return failed == 0 && passed > 0 ? 0 : 1;
}
