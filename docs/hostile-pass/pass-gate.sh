#!/bin/bash
# The hostile pass of the public gate (one admission step for every public
# lookup) and of search hits the bot cannot vouch for, against one build
# ($1: before|after), loopback only; every process started here is stopped
# on exit.
set -u
# Build first: go build -o /tmp/tp-tools/bin/recordsbot-after ./cmd/recordsbot (and -before from
# the older commit); cd docs/hostile-pass && go build -o /tmp/tp-tools/bin/ ./proxy ./flood
BIN=/tmp/tp-tools/bin/recordsbot-$1
T=/tmp/tp-tools/gate-$1; rm -rf $T; mkdir -p $T
pids=()
cleanup() { for p in "${pids[@]}"; do kill $p 2>/dev/null; done; wait 2>/dev/null; }
trap cleanup EXIT
KEY=sk_pass_key
SANDBOX_KEYS="$KEY=actions:read+actions:write+meetings:read" PORT=28180 $BIN sandbox > $T/sandbox.log 2>&1 & pids+=($!)
/tmp/tp-tools/bin/proxy -listen 127.0.0.1:28181 -target http://127.0.0.1:28180 > $T/proxy.log 2>&1 & pids+=($!)
sleep 1
export RECORDS_API_URL=http://127.0.0.1:28181/api/v1 RECORDS_API_KEY=$KEY SLACK_BOT_TOKEN=xoxb-pass SLACK_SIGNING_SECRET=pass-secret \
  SLACK_API_URL=http://127.0.0.1:9/api/ PUBLIC_MINUTES=true PUBLIC_CALENDAR=true PUBLIC_URL=http://127.0.0.1:23100 PORT=23100 \
  TRUSTED_PROXIES=127.0.0.1/32 DATABASE_URL=sqlite://$T/bot.db SEARCH_BACKFILL_RATE=20 LOG_LEVEL=warn
$BIN serve > $T/serve.log 2>&1 & pids+=($!)
for i in $(seq 50); do curl -fs -o /dev/null http://127.0.0.1:23100/healthz && break; sleep 0.2; done
B=http://127.0.0.1:23100
count() { curl -s http://127.0.0.1:28181/__count; echo; }
reset() { curl -s http://127.0.0.1:28181/__reset; }
ids() { grep -o 'entry-title"><a href="minutes/[^"]*"' | sed 's/.*minutes\///; s/"$//'; }

echo "== §1 one made-up committee, cold: records calls"
for path in "/minutes?committee=nope-1" "/minutes/feed.atom?committee=nope-2" "/calendar/nope-3.ics"; do
  sleep 2; reset
  st=$(curl -s -o /dev/null -w '%{http_code}' "$B$path")
  echo "$path -> $st; records calls: $(count)"
done
sleep 5
first=$(curl -s "$B/minutes")
real=($(echo "$first" | ids))
next=$(echo "$first" | grep -o 'rel="next" href="[^"]*"' | sed 's/.*href="//; s/"$//; s/&amp;/\&/g')
sleep 3
real+=($(curl -s "$B/minutes$next" | ids))
real=("${real[@]:0:38}")
echo "real pages: ${#real[@]}"
for clients in 1 2; do
  echo "== §1 $clients client(s) flood every kind of made-up lookup for 14 s; a reader asks for real pages"
  sleep 70 # budgets refill, the pages' caches expire: the reader's pages are read afresh
  reset
  /tmp/tp-tools/bin/flood -base $B -ids "$(IFS=,; echo "${real[*]}")" -for 14s -clients $clients -kinds all
  echo "records calls during the flood: $(count | head -c 400)"
done

echo "== §2 withdrawn approved minutes"
sleep 20 # the backfill has indexed the sandbox's minutes by now
w=${real[2]}
q=$(curl -s "$B/minutes/$w" | grep -o '<p>[^<]*</p>' | head -1 | sed 's/<[^>]*>//g' | tr -cs 'A-Za-z' '\n' | awk 'length>6' | head -1)
echo "withdrawing $w; searching for \"$q\""
echo "before withdrawal: $w in GET /minutes?q=: $(curl -s "$B/minutes?q=$q" | grep -c "minutes/$w\"")"
curl -s "http://127.0.0.1:28181/__withdraw?id=$w"
env -u PORT $BIN watch > $T/watch.log 2>&1; echo "one watch run: exit $?"
echo "at once after the run: $w in GET /minutes?q=: $(curl -s "$B/minutes?q=$q" | grep -c "minutes/$w\"")"
term() { curl -s "$B/minutes/$1" | grep -o '<p>[^<]*</p>' | head -1 | sed 's/<[^>]*>//g' | tr -cs 'A-Za-z' '\n' | awk 'length>6' | head -1; }
w2=${real[3]}; q2=$(term $w2)
echo "before withdrawal: $w2 in GET /minutes?q=$q2: $(curl -s "$B/minutes?q=$q2" | grep -c "minutes/$w2\"")"
curl -s "http://127.0.0.1:28181/__withdraw?id=$w2"
env -u PORT $BIN watch > $T/watch2.log 2>&1; echo "one watch run: exit $?"
/tmp/tp-tools/bin/flood -base $B -ids "${real[0]}" -for 8s -clients 2 -kinds all > $T/flood3.log &
sleep 4
echo "during a flood of made-up lookups: $w2 in GET /minutes?q=$q2: $(curl -s "$B/minutes?q=$q2" | grep -c "minutes/$w2\"")"
wait $!
w3=${real[4]}; q3=$(term $w3)
echo "before withdrawal: $w3 in GET /minutes?q=$q3: $(curl -s "$B/minutes?q=$q3" | grep -c "minutes/$w3\"")"
curl -s "http://127.0.0.1:28181/__withdraw?id=$w3"
env -u PORT $BIN watch > $T/watch3.log 2>&1; echo "one watch run: exit $?"
kill ${pids[1]} # the records host unreachable: no hit can be checked
sleep 1
echo "records unreachable: $w3 in GET /minutes?q=$q3: $(curl -s "$B/minutes?q=$q3" | grep -c "minutes/$w3\"")"
