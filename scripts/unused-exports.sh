#!/bin/bash
# Lists `export`ed names under src/ that no other file (src/, test/, scripts/, build.mjs) names: make them module-private.
# Usage: scripts/unused-exports.sh [repo]. A word match elsewhere counts as a use, so it errs towards keeping an export.
cd "${1:-$(dirname "$0")/..}"
for f in $(git ls-files 'src/*.ts'); do
  grep -oE '^export (async )?(function|const|class|interface|type|enum|let) [A-Za-z0-9_]+' "$f" | awk '{print $NF}' | while read -r name; do
    users=$(grep -rlw --include=*.ts --include=*.mjs "$name" src test scripts build.mjs 2>/dev/null | grep -v "^$f$" | wc -l)
    if [ "$users" = 0 ]; then echo "$f $name"; fi
  done
done
