#!/usr/bin/env bash
# Issue 29's figures for a commit (default HEAD): the import graph's upward
# edges, bot's records reads around the domain services, functions over 80
# lines, bool parameters, ignored errors (tools/measure, from this
# checkout, run on a temporary worktree of the commit) and the duplicates
# pairs with no test file on either side (the duplicates tool).
#   docs/house/measure.sh f7c536c      # the "before" of issue 29
#   docs/house/measure.sh main -v      # -v lists what each figure counts
#   docs/house/measure.sh main --paths # and the files /actions, a status
#                                      # click and a digest poll run, and
#                                      # their returns to a package already
#                                      # left (builds with -cover: minutes)
# --paths instruments the temporary worktree with tools/pathtrace (each
# function of the module's own packages, fakes left out, reports its entry
# to tools/pathtrace/hook, which walks the goroutine's stack): a return to
# a package already left is a call entering package P from another package
# while P is further down the same goroutine's stack (P -> Q -> P). A
# goroutine started on the path begins with an empty stack. -v lists the
# (P <- Q) pairs with their counts and a first chain of functions.
set -euo pipefail
cd "$(dirname "$0")/../.."
rev=${1:-HEAD}
shift || true
tree=$(mktemp -d /tmp/measure.XXXXXX)
trap 'git worktree remove --force "$tree" >/dev/null 2>&1 || rm -rf "$tree"' EXIT
git worktree add --detach "$tree" "$rev" >/dev/null 2>&1
echo "commit $(git rev-parse --short "$rev")"
verbose=()
[[ " $* " == *" -v "* ]] && verbose=(-v)
GOTOOLCHAIN=${GOTOOLCHAIN:-local} go run ./tools/measure -dir "$tree" "${verbose[@]}"
# A row is "D1 a.go:10-24 ~ b.go:40-54 ..."; pairs where neither side is a
# test file. --most 200 is the tool's ceiling; "(+N more pairs)" says when
# it cut the list.
dups=$(duplicates --repo "$tree" --most 200 --seconds 300)
echo "$dups" | awk '$1 ~ /^D[0-9]+$/ && $2 !~ /_test\.go:/ && $4 !~ /_test\.go:/ {n++} END {printf "%4d  duplicates pairs with no test file\n", n}'
echo "$dups" | grep -E '^\(\+[0-9]+ more pairs\)|^(incomplete|left out):' || true
if [[ " $* " == *" -v "* ]]; then
	echo "$dups" | awk '$1 ~ /^D[0-9]+$/ && $2 !~ /_test\.go:/ && $4 !~ /_test\.go:/ {print "        " $0}'
fi

# --paths: the files one /actions, one status click and one digest poll
# run (the module's own, fakes left out), from coverage counters
# (pathtrace_test.go.txt, pathtrace_digest_test.go.txt or, for commits
# whose bot and watcher each took the digest's default,
# pathtrace_digest_weekly_test.go.txt, or, for commits whose watcher read
# the records itself, pathtrace_digest_records_test.go.txt; the digest rig
# needs the typed schedules, so before those it is left out).
if [[ " $* " == *" --paths "* ]]; then
	GOTOOLCHAIN=${GOTOOLCHAIN:-local} go run ./tools/pathtrace -dir "$tree"
	cp docs/house/pathtrace_test.go.txt "$tree/bot/pathtrace_test.go"
	# The digest rig of today, else the older ones; none builds before the
	# typed schedules.
	digest=0
	for rig in pathtrace_digest_test.go.txt pathtrace_digest_weekly_test.go.txt pathtrace_digest_records_test.go.txt; do
		cp "docs/house/$rig" "$tree/bot/pathtrace_digest_test.go"
		if (cd "$tree" && GOTOOLCHAIN=${GOTOOLCHAIN:-local} go vet -tags pathtrace ./bot >/dev/null 2>&1); then
			digest=1
			break
		fi
		rm "$tree/bot/pathtrace_digest_test.go"
	done
	(cd "$tree" && GOTOOLCHAIN=${GOTOOLCHAIN:-local} go test -c -tags pathtrace -cover -covermode=count -coverpkg=./... -o "$tree/trace.test" ./bot >/dev/null)
	# The click run counts the returns of the /actions and of the click,
	# the digest run those of the digest poll (steps of the same names).
	for step in base actions click; do
		(cd "$tree/bot" && RECORDSBOT_PATH_STEP=$step RECORDSBOT_PATHTRACE_OUT="$tree/$step.trace" "$tree/trace.test" -test.run '^TestPathTrace$' -test.coverprofile="$tree/$step.cov" >/dev/null)
	done
	pairs=("base actions /actions click.trace" "actions click status-click click.trace")
	if ((digest)); then
		for step in digest-base digest; do
			(cd "$tree/bot" && RECORDSBOT_PATH_STEP=$step RECORDSBOT_PATHTRACE_OUT="$tree/$step.trace" "$tree/trace.test" -test.run '^TestPathTraceDigest$' -test.coverprofile="$tree/$step.cov" >/dev/null)
		done
		pairs+=("digest-base digest digest-poll digest.trace")
	else
		echo "   -  files run by digest-poll: the rig does not build at this commit"
	fi
	for pair in "${pairs[@]}"; do
		set -- $pair
		files=$(awk -f docs/house/pathdiff.awk "$tree/$1.cov" "$tree/$2.cov" | sort)
		pkgs=$(echo "$files" | sed 's#/[^/]*$##' | sort -u)
		printf '%4d  files in %d packages run by %s: %s\n' "$(echo "$files" | grep -c .)" "$(echo "$pkgs" | grep -c .)" "$3" "$(echo "$files" | tr '\n' ' ')"
		# The hook's report: "step NAME CALLS RETURNS" and
		# "pair NAME P Q COUNT CHAIN" (tab-separated).
		[[ -f "$tree/$4" ]] || : >"$tree/$4"
		awk -F'\t' -v step="$2" -v path="$3" '
			$1 == "step" && $2 == step { returns = $4; calls = $3; found = 1 }
			$1 == "pair" && $2 == step { pairs++ }
			END {
				if (!found) printf "   -  returns to a package already left by %s: not counted\n", path
				else printf "%4d  returns to a package already left by %s, %d distinct (P <- Q) pairs (in %d calls of the module'"'"'s functions; goroutines started on the path begin with an empty stack)\n", returns, path, pairs, calls
			}' "$tree/$4"
		if ((${#verbose[@]})); then
			awk -F'\t' -v step="$2" '$1 == "pair" && $2 == step {
				p = $3; q = $4; sub(/^github.com\/recordsbot\/recordsbot\//, "", p); sub(/^github.com\/recordsbot\/recordsbot\//, "", q)
				printf "        %5d  %s <- %s    e.g. %s\n", $5, p, q, $6 }' "$tree/$4"
		fi
	done
fi
