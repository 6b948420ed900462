#!/usr/bin/env bash
# Every `$ shardbridge ...` example in the console blocks of README.md and
# docs/*.md, run from the source dir: its stdout and stderr together must be
# the output the document shows (examples whose output elides lines with
# `...` are skipped). Keeps the documents from drifting from the command.
#   readme_cli.sh <shardbridge binary> <source dir>
set -u
bin="$1"
src="$2"
# shellcheck source=lib.bash
source "$(dirname "$0")/lib.bash"
mkdir -p "$tmp/bin"
ln -s "$(realpath "$bin")" "$tmp/bin/shardbridge"

python3 - "$src" "$tmp/bin" <<'PY' || fail "documented examples differ from the command's output"
import difflib, glob, os, re, subprocess, sys
src, bindir = sys.argv[1], sys.argv[2]
env = dict(os.environ, PATH=bindir + ":" + os.environ["PATH"], LC_ALL="C.UTF-8")
run = differ = 0
for doc in ["README.md"] + sorted(glob.glob("docs/*.md", root_dir=src)):
    text = open(os.path.join(src, doc), encoding="utf-8").read()
    for block in re.findall(r"```console\n(.*?)```", text, re.S):
        lines = block.split("\n")
        i = 0
        while i < len(lines):
            if not lines[i].startswith("$ "):
                i += 1
                continue
            cmd = lines[i][2:]
            while cmd.endswith("\\") and i + 1 < len(lines):
                i += 1
                cmd = cmd[:-1] + "\n" + lines[i]
            i += 1
            shown = []
            while i < len(lines) and not lines[i].startswith("$ "):
                shown.append(lines[i])
                i += 1
            while shown and shown[-1] == "":
                shown.pop()
            if not cmd.startswith("shardbridge ") or any(l.strip() == "..." for l in shown):
                continue
            run += 1
            r = subprocess.run(["bash", "-c", cmd], cwd=src, env=env, capture_output=True,
                               text=True, errors="replace", timeout=60)
            got = (r.stdout + r.stderr).rstrip("\n").split("\n")
            if got != shown:
                differ += 1
                print("%s: $ %s" % (doc, cmd))
                for l in difflib.unified_diff(shown, got, "shown", "actual", lineterm="", n=1):
                    print("    " + l)
print("%d documented examples run, %d differ" % (run, differ))
sys.exit(1 if differ or run < 20 else 0)
PY

# Every option of COMMAND --help appears in the README synopsis of COMMAND
# (by its short or long name, or as the option it is an alias of), except
# --help and --max-input-bytes, which README says every command takes.
python3 - "$src" "$tmp/bin" <<'PY' || fail "README synopses lack options"
import os, re, subprocess, sys
src, bindir = sys.argv[1], sys.argv[2]
env = dict(os.environ, PATH=bindir + ":" + os.environ["PATH"])
readme = open(os.path.join(src, "README.md"), encoding="utf-8").read()
bad = 0
for c in "convert list explain show export import sdy hlo equal".split():
    h = subprocess.run(["shardbridge", c, "--help"], env=env, capture_output=True, text=True).stdout
    at = readme.find("### `%s`" % c)
    m = re.compile(r"```\n(shardbridge %s .*?)```" % c, re.S).search(readme, at) if at >= 0 else None
    if not m or readme.find("\n### ", at + 1, m.start()) >= 0:
        print("  %s: no synopsis in its README section" % c)
        bad += 1
        continue
    synopsis = set(re.findall(r"-[-\w]+", m.group(1)))
    aliases = dict((b, a) for a, b in re.findall(r"^\s+(--[\w-]+)[^\n]*\n?[^\n]*\(alias of (--[\w-]+)\)", h, re.M))
    for names in re.findall(r"^  (-[-\w]+(?:,-[-\w]+)*)", h, re.M):
        names = names.split(",")
        if any(n in ("--help", "--max-input-bytes") for n in names):
            continue
        if any(n in synopsis or aliases.get(n) in synopsis for n in names):
            continue
        print("  %s: %s is not in the README synopsis" % (c, "/".join(names)))
        bad += 1
sys.exit(1 if bad else 0)
PY

finish readme
