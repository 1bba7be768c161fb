# shellcheck shell=bash
# start_postgres starts a throw-away PostgreSQL cluster for the tests that
# take a database (sourced by .ci/run and .ci/test) and exports
# RECORDSBOT_TEST_POSTGRES, so they run against both engines; without it
# they skip PostgreSQL and say so once (store/storetest). Installed from
# Debian's packages when absent (as root); run as the postgres user (initdb
# refuses root), listening only on a unix socket in a private temp dir, so
# parallel runs on one machine never clash over a port; stopped and deleted
# on exit. A RECORDSBOT_TEST_POSTGRES already set is used as it is.
start_postgres() {
	if [[ -n "${RECORDSBOT_TEST_POSTGRES:-}" ]]; then
		echo "postgres: using RECORDSBOT_TEST_POSTGRES from the environment"
		return
	fi
	# The server's binaries (the client package alone has no initdb).
	local bindir
	bindir=$(ls /usr/lib/postgresql/*/bin/initdb 2>/dev/null | sort -V | tail -n 1 || true)
	if [[ -z "$bindir" ]]; then
		if [[ $(id -u) -ne 0 ]]; then
			echo "postgres: not installed and not root, so the store's PostgreSQL tests will be skipped"
			return
		fi
		echo "postgres: installing from Debian's packages"
		apt-get update -qq
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
		bindir=$(ls /usr/lib/postgresql/*/bin/initdb | sort -V | tail -n 1)
	fi
	bindir=$(dirname "$bindir")
	local as=()
	if [[ $(id -u) -eq 0 ]]; then
		id postgres >/dev/null 2>&1 || useradd --system --home-dir /nonexistent --shell /usr/sbin/nologin postgres
		as=(runuser -u postgres --)
	fi
	PG_DIR=$(mktemp -d /tmp/recordsbot-pg.XXXXXX)
	PG_CTL=("${as[@]}" "$bindir/pg_ctl" -D "$PG_DIR/data")
	trap stop_postgres EXIT
	[[ $(id -u) -ne 0 ]] || chown postgres "$PG_DIR"
	"${as[@]}" "$bindir/initdb" -D "$PG_DIR/data" -U recordsbot --auth=trust -E UTF8 --no-sync >"$PG_DIR/initdb.log" 2>&1 ||
		{ cat "$PG_DIR/initdb.log"; return 1; }
	"${PG_CTL[@]}" -l "$PG_DIR/server.log" -w -t 60 \
		-o "-c listen_addresses='' -k $PG_DIR -c fsync=off -c max_connections=200" start >/dev/null ||
		{ cat "$PG_DIR/server.log"; return 1; }
	export RECORDSBOT_TEST_POSTGRES="postgres://recordsbot@/postgres?host=$PG_DIR&sslmode=disable"
	echo "postgres: $("$bindir/postgres" --version) on $PG_DIR"
}

stop_postgres() {
	if [[ -f "$PG_DIR/data/postmaster.pid" ]]; then
		"${PG_CTL[@]}" -m immediate stop >/dev/null 2>&1 || true
	fi
	rm -rf "$PG_DIR"
}
