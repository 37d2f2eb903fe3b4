#!/bin/bash
# Lists `export`ed names under src/ that no other file (src/, test/, scripts/, build.mjs) names: make them
# module-private. Then, marked `(tests only)`, the exports only tests and scripts name: part of the API for
# a test's sake, which is worth a look (a test of a private step, or code production no longer uses).
# Usage: scripts/unused-exports.sh [repo]. A word match elsewhere counts as a use, so it errs towards keeping an export.
cd "${1:-$(dirname "$0")/..}"
for f in $(git ls-files 'src/*.ts'); do
  grep -oE '^export (async )?(function|const|class|interface|type|enum|let) [A-Za-z0-9_]+' "$f" | awk '{print $NF}' | while read -r name; do
    users=$(grep -rlw --include=*.ts --include=*.mjs "$name" src test scripts build.mjs 2>/dev/null | grep -v "^$f$" | wc -l)
    if [ "$users" = 0 ]; then echo "$f $name"; continue; fi
    in_src=$(grep -rlw --include=*.ts "$name" src 2>/dev/null | grep -v "^$f$" | wc -l)
    if [ "$in_src" = 0 ]; then echo "$f $name (tests only)"; fi
  done
done
