#!/bin/bash
# The hostile pass of the public routes (forged cursors, withdrawn
# minutes, floods) against one build ($1: the binary's suffix, such as
# after, or before for an older commit to compare with), loopback only;
# every process started here is stopped on exit.
set -u
# Build first: go build -o /tmp/tp-tools/bin/recordsbot-after ./cmd/recordsbot (and -before from
# the older commit); cd docs/hostile-pass && go build -o /tmp/tp-tools/bin/ ./proxy ./flood
BIN=/tmp/tp-tools/bin/recordsbot-$1
T=/tmp/tp-tools/run-$1; rm -rf $T; mkdir -p $T
pids=()
cleanup() { for p in "${pids[@]}"; do kill $p 2>/dev/null; done; wait 2>/dev/null; }
trap cleanup EXIT
KEY=sk_pass_key
SANDBOX_KEYS="$KEY=actions:read+actions:write+meetings:read" PORT=18080 $BIN sandbox > $T/sandbox.log 2>&1 & pids+=($!)
/tmp/tp-tools/bin/proxy -listen 127.0.0.1:18081 -target http://127.0.0.1:18080 > $T/proxy.log 2>&1 & pids+=($!)
sleep 1
export RECORDS_API_URL=http://127.0.0.1:18081/api/v1 RECORDS_API_KEY=$KEY SLACK_BOT_TOKEN=xoxb-pass SLACK_SIGNING_SECRET=pass-secret AUDIT_KEY=hostile-pass-audit-key-0123456789abcdef \
  SLACK_API_URL=http://127.0.0.1:9/api/ PUBLIC_MINUTES=true PUBLIC_URL=http://127.0.0.1:13000 PORT=13000 TRUSTED_PROXIES=127.0.0.1/32 \
  DATABASE_URL=sqlite://$T/bot.db SEARCH_BACKFILL_RATE=0 LOG_LEVEL=warn
$BIN serve > $T/serve.log 2>&1 & pids+=($!); SERVE=$!
for i in $(seq 50); do curl -fs -o /dev/null http://127.0.0.1:13000/healthz && break; sleep 0.2; done
B=http://127.0.0.1:13000
count() { curl -s http://127.0.0.1:18081/__count; echo; }
reset() { curl -s http://127.0.0.1:18081/__reset; }
b64() { printf '%s' "$1" | base64 -w0 | tr '+/' '-_' | tr -d '='; }

echo "== §1 forged cursors"
for c in '{"n":"/api/v1/../../admin/secret?x=1"}' '{"n":"/api/v1/actions?limit=500"}'; do
  reset
  st=$(curl -s -o /dev/null -w '%{http_code}' "$B/minutes?after=$(b64 "$c")")
  echo "cursor $c -> $st; records calls: $(count)"
done
sleep 5 # the public budget refills
reset
first=$(curl -s "$B/minutes" | grep -o 'rel="next" href="[^"]*"' | sed 's/.*href="//; s/"$//; s/&amp;/\&/g')
cur=${first#?after=}; cur=${cur%%&*}
alt="${cur:0:10}$( [ "${cur:10:1}" = A ] && echo B || echo A )${cur:11}"
reset
echo "altered own cursor -> $(curl -s -o /dev/null -w '%{http_code}' "$B/minutes?after=$alt"); records calls: $(count)"
reset
echo "over-long cursor -> $(curl -s -o /dev/null -w '%{http_code}' "$B/minutes?after=$(head -c 3000 /dev/zero | tr '\0' A)"); records calls: $(count)"

echo "own cursor: ${cur:0:40}…"
echo "== §3 flood"
sleep 5
real=($(curl -s "$B/minutes" | grep -o 'entry-title"><a href="minutes/[^"]*"' | sed 's/.*minutes\///; s/"$//' | head -20))
echo "real pages: ${#real[@]}"
sleep 5 # budgets refill; pages uncached (ids checked on the records directly)
reset
/tmp/tp-tools/bin/flood -base $B -ids "$(IFS=,; echo "${real[*]}")" -for 12s
echo "records calls during the flood: $(count | head -c 300)"
echo "Accept-Ranges on a page: [$(curl -sI "$B/minutes/${real[0]}" | grep -i accept-ranges | tr -d '\r')]"
sleep 3
echo "1,000 requests for one id, 200 at a time:"

seq 1000 | awk '{print "198.18." int($1/250) "." $1%250}' | xargs -P 200 -I{} curl -s -o /dev/null -w '%{http_code}\n' -H "X-Forwarded-For: {}" "$B/minutes/${real[1]}" 2>/dev/null | sort | uniq -c | tr '\n' ' ' ; echo

echo "== §2 withdrawn minutes"
kill $SERVE; wait $SERVE 2>/dev/null
SEARCH_BACKFILL_RATE=20 $BIN serve > $T/serve2.log 2>&1 & pids+=($!)
for i in $(seq 50); do curl -fs -o /dev/null http://127.0.0.1:13000/healthz && break; sleep 0.2; done
sleep 25 # the backfill indexes the sandbox's minutes
w=${real[2]}
word=$(curl -s "$B/minutes/$w" | sed -n 's/.*<h1[^>]*>\([^<]*\)<.*/\1/p' | head -1 | awk '{print $NF}')
q=$(curl -s "$B/minutes/$w" | grep -o '<p>[^<]*</p>' | head -1 | sed 's/<[^>]*>//g' | tr -cs 'A-Za-z' '\n' | awk 'length>6' | head -1)
echo "withdrawing $w; searching for \"$q\""
echo "before withdrawal: $w in GET /minutes?q=: $(curl -s "$B/minutes?q=$q" | grep -c "minutes/$w\"")"
curl -s "http://127.0.0.1:18081/__withdraw?id=$w"
env -u PORT $BIN watch > $T/watch.log 2>&1; echo "one watch run: exit $?"
echo "page: $(curl -s -o /dev/null -w '%{http_code}' "$B/minutes/$w")"
sleep 61 # past the pages' one-minute cache
echo "after one watch run (+1 min): $w in GET /minutes?q=: $(curl -s "$B/minutes?q=$q" | grep -c "minutes/$w\""), page $(curl -s -o /dev/null -w '%{http_code}' "$B/minutes/$w")"
