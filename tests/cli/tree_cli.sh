#!/usr/bin/env bash
# The source tree stands alone and its documentation stays true:
# - no comment or document cites notes outside the repository: comments cite
#   docs/ sections or upstream source paths (docs/upstream.md). The pattern
#   is spelled in pieces so that this file does not match it;
# - docs/ and README.md cite no issue numbers (the tracker is not in the tree);
# - README's "Use it from your project" shows examples/consumer/'s real files;
# - every function of include/shardbridge/c_api.h says what it allocates and
#   who owns it.
#   tree_cli.sh <shardbridge binary> <source dir>
set -u
bin="$1"
src="$2"
# shellcheck source=lib.bash
source "$(dirname "$0")/lib.bash"
cd "$src" || exit 1

f=facts
outside="$f §|$f \\(|the $f|design"' notes|\.\./'"shared|/shared""/"
hits=$(grep -rniE "$outside" src include tools tests proto bench fuzz docs cmake scripts README.md)
[[ -z "$hits" ]] || fail "citations of notes outside the repository: $(head -3 <<<"$hits")"

hits=$(grep -nE '\b[Ii]ssues? #?[0-9]+' docs/*.md README.md)
[[ -z "$hits" ]] || fail "documents cite issue numbers: $(head -3 <<<"$hits")"

python3 - <<'EOF' || fail "README's consumer code differs from examples/consumer/"
import re, sys
readme = open("README.md").read()
start = readme.index("## Use it from your project")
end = readme.index("\n## ", start + 1)
blocks = re.findall(r"```(\w+)\n(.*?)```", readme[start:end], re.S)
files = {"cmake": "examples/consumer/CMakeLists.txt", "cpp": "examples/consumer/main.cc",
         "c": "examples/consumer/c_api_example.c"}
shown = {lang: body for lang, body in blocks if lang in files}
bad = [lang for lang in files if shown.get(lang) != open(files[lang]).read()]
for lang in bad:
    print("  README's %s block is not %s" % (lang, files[lang]))
sys.exit(1 if bad else 0)
EOF

python3 - <<'EOF' || fail "c_api.h: functions without allocation and ownership rules"
import re, sys
text = open("include/shardbridge/c_api.h").read()
body = text[text.index("#define SB_ABI_VERSION"):]
words = ("Owns:", "orrowed", "static", "Frees", "Allocates nothing")
names, bad = [], []
for m in re.finditer(r"/\*((?:(?!\*/).)*)\*/\s*\n[a-z_][\w \*]*?\b(sb_\w+)\(", body, re.S):
    names.append(m.group(2))
    comment = " ".join(m.group(1).replace("\n *", " ").split())
    if not any(w in comment for w in words):
        bad.append(m.group(2))
declared = set(re.findall(r"\b(sb_\w+)\(", body))
missing = sorted(declared - set(names))
for name in bad:
    print("  %s: no Owns:/Borrowed/Frees/Allocates nothing" % name)
for name in missing:
    print("  %s: declared without a comment of its own" % name)
sys.exit(1 if bad or missing or len(names) < 40 else 0)
EOF

finish tree
