#!/bin/bash
# The rule that the pure rooms and the adapters raise no words meant for a user: under src/core,
# src/io, src/kube, src/otlp, src/render and src/stores, lists every line that mentions UsageError
# (a usage error is src/options' to raise) or raises an error (`new ...Error(`) whose message names a
# flag ('--kubeconfig') or is an English sentence (three words or more). An adapter raises typed
# errors that src/options/user-errors.ts words (KubeconfigError, PemFileError, SavedFileError, ...),
# and hands notices over as values (src/core/notices.ts, worded in src/render/adapter-notices.ts).
# A line that keeps kubectl's own wording on purpose (its client-go, apimachinery or Go runtime, as
# kubectl prints it) carries the marker `kubectl's wording` in a comment on that line.
# scripts/adapter-words.allowed lists the raised sentences written before the rule (file, then the
# line's text), each group with why it is still there; none may be added. Exit 1 on any other line.
# Usage: scripts/adapter-words.sh [repo]
cd "${1:-$(dirname "$0")/..}" || exit 2
allowed=scripts/adapter-words.allowed
found=$(git ls-files 'src/core/*.ts' 'src/io/*.ts' 'src/kube/*.ts' 'src/otlp/*.ts' 'src/render/*.ts' 'src/stores/*.ts' | xargs grep -nE \
  -e '\bUsageError\b' \
  -e "new [A-Z][A-Za-z]*Error\(.*['\`\"][^'\`\"]*(--[a-z][a-z0-9-]+|[A-Za-z]+ [A-Za-z]+ [A-Za-z]+)" \
  | grep -v "kubectl's wording" \
  | grep -vE '^[^:]+:[0-9]+: *(//|\*|/\*)' \
  | sed -E 's/^([^:]+):[0-9]+: */\1: /')
new=$(comm -23 <(echo "$found" | grep -v '^$' | sort -u) <(grep -v '^#' "$allowed" | sort -u))
owed=$(comm -12 <(echo "$found" | grep -v '^$' | sort -u) <(grep -v '^#' "$allowed" | sort -u) | grep -c .)
if [ -n "$new" ]; then
  echo "$new"
  echo "adapter-words: $(echo "$new" | wc -l) new lines below src/options and src/commands raise a flag or a sentence: raise a typed error and word it in src/options/user-errors.ts (mark kubectl's own wording with \"kubectl's wording\")" >&2
  exit 1
fi
echo "adapter-words: no new words raised below src/options and src/commands ($owed older sentences in $allowed still to become typed errors)"
