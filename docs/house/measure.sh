#!/usr/bin/env bash
# Issue 29's figures for a commit (default HEAD): the import graph's upward
# edges, bot's records reads around the domain services, functions over 80
# lines, bool parameters, ignored errors (tools/measure, from this
# checkout, run on a temporary worktree of the commit) and the duplicates
# pairs with no test file on either side (the duplicates tool).
#   docs/house/measure.sh f7c536c      # the "before" of issue 29
#   docs/house/measure.sh main -v      # -v lists what each figure counts
set -euo pipefail
cd "$(dirname "$0")/../.."
rev=${1:-HEAD}
shift || true
tree=$(mktemp -d /tmp/measure.XXXXXX)
trap 'git worktree remove --force "$tree" >/dev/null 2>&1 || rm -rf "$tree"' EXIT
git worktree add --detach "$tree" "$rev" >/dev/null 2>&1
echo "commit $(git rev-parse --short "$rev")"
GOTOOLCHAIN=${GOTOOLCHAIN:-local} go run ./tools/measure -dir "$tree" "$@"
# A row is "D1 a.go:10-24 ~ b.go:40-54 ..."; pairs where neither side is a
# test file. --most 200 is the tool's ceiling; "(+N more pairs)" says when
# it cut the list.
dups=$(duplicates --repo "$tree" --most 200 --seconds 300)
echo "$dups" | awk '$1 ~ /^D[0-9]+$/ && $2 !~ /_test\.go:/ && $4 !~ /_test\.go:/ {n++} END {printf "%4d  duplicates pairs with no test file\n", n}'
echo "$dups" | grep -E '^\(\+[0-9]+ more pairs\)|^(incomplete|left out):' || true
if [[ " $* " == *" -v "* ]]; then
	echo "$dups" | awk '$1 ~ /^D[0-9]+$/ && $2 !~ /_test\.go:/ && $4 !~ /_test\.go:/ {print "        " $0}'
fi
