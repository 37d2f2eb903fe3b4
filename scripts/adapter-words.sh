#!/bin/bash
# The rule that the pure rooms and the adapters raise no words meant for a user: under src/core,
# src/io, src/kube, src/otlp, src/render and src/stores, lists every line that mentions UsageError
# (a usage error is src/options' to raise) or raises an error (`new ...Error(`) whose message names a
# flag ('--kubeconfig') or is an English sentence (three words or more). An adapter raises typed
# errors: src/options/user-errors.ts words those only main prints (KubeconfigError, PemFileError,
# SavedFileError, ...); src/render/cluster-words.ts words the cluster's (kube/cluster-error.ts), which
# other places print too (the several-contexts warning, retry notices, lookup details). Notices are
# handed over as values (src/core/notices.ts, worded in src/render/adapter-notices.ts).
# A line that keeps kubectl's own wording on purpose (its client-go, apimachinery or Go runtime, as
# kubectl prints it) carries the marker `kubectl's wording` in a comment on that line, with the file
# and line it comes from. Exit 1 on any other line.
# Usage: scripts/adapter-words.sh [repo]
cd "${1:-$(dirname "$0")/..}" || exit 2
found=$(git ls-files 'src/core/*.ts' 'src/io/*.ts' 'src/kube/*.ts' 'src/otlp/*.ts' 'src/render/*.ts' 'src/stores/*.ts' | xargs grep -HnE \
  -e '\bUsageError\b' \
  -e "new [A-Z][A-Za-z]*Error\(.*['\`\"][^'\`\"]*(--[a-z][a-z0-9-]+|[A-Za-z]+ [A-Za-z]+ [A-Za-z]+)" \
  | grep -v "kubectl's wording" \
  | grep -vE '^[^:]+:[0-9]+: *(//|\*|/\*)')
if [ -n "$found" ]; then
  echo "$found"
  echo "adapter-words: $(echo "$found" | wc -l) lines below src/options and src/commands raise a flag or a sentence: raise a typed error and word it in src/options/user-errors.ts or src/render (mark kubectl's own wording with \"kubectl's wording\" and its source)" >&2
  exit 1
fi
echo "adapter-words: no words raised below src/options and src/commands"
