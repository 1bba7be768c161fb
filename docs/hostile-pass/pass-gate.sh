#!/bin/bash
# The hostile pass of the public gate (one admission step for every public
# lookup) and of search hits the bot cannot vouch for, against one build
# ($1: before|after; $2 the parts, default "1 2": 1 the floods, 2 the
# withdrawn minutes), loopback only; every process started here is stopped
# on exit.
set -u
# Build first: go build -o /tmp/tp-tools/bin/recordsbot-after ./cmd/recordsbot (and -before from
# the older commit); cd docs/hostile-pass && go build -o /tmp/tp-tools/bin/ ./proxy ./flood
BIN=/tmp/tp-tools/bin/recordsbot-$1
T=/tmp/tp-tools/gate-$1; rm -rf $T; mkdir -p $T
PARTS=${2:-1 2}
pids=()
cleanup() { for p in "${pids[@]}"; do kill $p 2>/dev/null; done; wait 2>/dev/null; }
trap cleanup EXIT
KEY=sk_pass_key
SANDBOX_KEYS="$KEY=actions:read+actions:write+meetings:read" PORT=28180 $BIN sandbox > $T/sandbox.log 2>&1 & pids+=($!)
/tmp/tp-tools/bin/proxy -listen 127.0.0.1:28181 -target http://127.0.0.1:28180 > $T/proxy.log 2>&1 & pids+=($!)
sleep 1
export RECORDS_API_URL=http://127.0.0.1:28181/api/v1 RECORDS_API_KEY=$KEY SLACK_BOT_TOKEN=xoxb-pass SLACK_SIGNING_SECRET=pass-secret \
  SLACK_API_URL=http://127.0.0.1:9/api/ PUBLIC_MINUTES=true PUBLIC_CALENDAR=true PUBLIC_URL=http://127.0.0.1:23100 PORT=23100 \
  TRUSTED_PROXIES=127.0.0.1/32 DATABASE_URL=sqlite://$T/bot.db SEARCH_BACKFILL_RATE=20 LOG_LEVEL=warn \
  AUDIT_KEY=pass-audit-key-0123456789abcdef0123456789abcdef
$BIN serve > $T/serve.log 2>&1 & pids+=($!)
for i in $(seq 50); do curl -fs -o /dev/null http://127.0.0.1:23100/healthz && break; sleep 0.2; done
B=http://127.0.0.1:23100
count() { curl -s http://127.0.0.1:28181/__count | grep -o '"total":[0-9]*'; }
reset() { curl -s http://127.0.0.1:28181/__reset; }
ids() { grep -o 'entry-title"><a href="minutes/[^"]*"' | sed 's/.*minutes\///; s/"$//'; }

if [[ " $PARTS " == *" 1 "* ]]; then
echo "== §1 one made-up committee, cold: records calls"
for path in "/minutes?committee=nope-1" "/minutes/feed.atom?committee=nope-2" "/calendar/nope-3.ics"; do
  sleep 2; reset
  st=$(curl -s -o /dev/null -w '%{http_code}' "$B$path")
  echo "$path -> $st; records calls: $(count)"
done
fi
sleep 5
first=$(curl -s "$B/minutes")
real=($(echo "$first" | ids))
next=$(echo "$first" | grep -o 'rel="next" href="[^"]*"' | sed 's/.*href="//; s/"$//; s/&amp;/\&/g')
sleep 3
real+=($(curl -s "$B/minutes$next" | ids))
real=("${real[@]:0:38}")
echo "real pages: ${#real[@]}"
if [[ " $PARTS " == *" 1 "* ]]; then
eval "runs=(${RUNS:-\"1 all\" \"2 all\" \"1 committees\"})"
for run in "${runs[@]}"; do
  set -- $run; clients=$1; kinds=$2
  echo "== §1 $clients client(s) flood made-up lookups ($kinds) for 14 s; a reader asks for real pages"
  sleep 70 # budgets refill, the pages' caches expire: the reader's pages are read afresh
  reset
  /tmp/tp-tools/bin/flood -base $B -ids "$(IFS=,; echo "${real[*]}")" -for 14s -clients $clients -kinds $kinds
  echo "records calls during the flood: $(count)"
done

fi
if [[ " $PARTS " == *" 2 "* ]]; then
echo "== §2 withdrawn approved minutes (meetings older than the watcher reads again)"
sleep 25 # the backfill has indexed the sandbox's minutes by now
# search by the meeting's title, as a phrase: it finds that meeting
title() { curl -s "$B/minutes/$1" | sed -n 's/.*<h1[^>]*>\([^<]*\)<.*/\1/p' | head -1 | sed 's/&#39;/'"'"'/g; s/&amp;/\&/g'; }
found() { curl -s --get --data-urlencode "q=\"$2\"" "$B/minutes" | grep -c "minutes/$1\""; }
w=${real[30]}; q=$(title $w)
echo "withdrawing $w; searching for \"$q\""
echo "before withdrawal: $w in GET /minutes?q=: $(found $w "$q")"
curl -s "http://127.0.0.1:28181/__withdraw?id=$w"
env -u PORT $BIN watch > $T/watch.log 2>&1; echo "one watch run: exit $?"
echo "at once after the run: $w in GET /minutes?q=: $(found $w "$q")"
w2=${real[32]}; q2=$(title $w2)
echo "before withdrawal: $w2 in GET /minutes?q=\"$q2\": $(found $w2 "$q2")"; curl -s --get --data-urlencode "q=\"$q2\"" "$B/minutes" > $T/q2.html
curl -s "http://127.0.0.1:28181/__withdraw?id=$w2"
env -u PORT $BIN watch > $T/watch2.log 2>&1; echo "one watch run: exit $?"
/tmp/tp-tools/bin/flood -base $B -ids "${real[0]}" -for 8s -clients 2 -kinds committees > $T/flood3.log &
sleep 4
echo "during a flood of made-up committees: $w2 in GET /minutes?q=: $(found $w2 "$q2")"
wait $!
w3=${real[34]}; q3=$(title $w3)
echo "before withdrawal: $w3 in GET /minutes?q=\"$q3\": $(found $w3 "$q3")"
curl -s "http://127.0.0.1:28181/__withdraw?id=$w3"
env -u PORT $BIN watch > $T/watch3.log 2>&1; echo "one watch run: exit $?"
kill ${pids[1]} # the records host unreachable: no hit can be checked
sleep 1
echo "records unreachable: $w3 in GET /minutes?q=: $(found $w3 "$q3")"
fi
