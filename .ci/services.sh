# Sourced by .ci/run: start the services the test suite can use, on loopback
# only, and export where they are. Each is installed from Debian's packages
# when missing; a service that cannot be had leaves its tests skipped with
# the reason pytest prints.

ci_apt_install() {
    [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null || return 1
    if [ -z "${CI_APT_UPDATED:-}" ]; then
        apt-get update -qq || return 1
        CI_APT_UPDATED=1
    fi
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@"
}

# Debian's Chromium, for the browser tests.
if [ ! -x /usr/bin/chromium ]; then
    ci_apt_install chromium || echo "chromium could not be installed: the browser tests will be skipped"
fi

# Debian's nginx, for tests/server/test_proxy.py (deploy/nginx/dicehall.conf in front of
# the servers); the test starts its own nginx on free ports, nothing listens until then.
if ! command -v nginx >/dev/null && [ ! -x /usr/sbin/nginx ]; then
    ci_apt_install nginx-light || echo "nginx could not be installed: the proxy test will be skipped"
fi

# A throwaway PostgreSQL cluster for tests/server/test_postgres.py and tests/server/cluster/.
ci_start_postgres() {
    local bin
    bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
    if [ -z "$bin" ]; then
        ci_apt_install postgresql || return 1
        bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)
    fi
    local dir port=55432
    dir=$(mktemp -d /tmp/dicehall-pg.XXXXXX)
    chown postgres: "$dir" 2>/dev/null || true
    local as=()
    [ "$(id -u)" = 0 ] && as=(runuser -u postgres --)
    "${as[@]}" "$bin/initdb" -D "$dir/data" -U dicehall --auth=trust -E UTF8 >/dev/null || return 1
    "${as[@]}" "$bin/pg_ctl" -D "$dir/data" -l "$dir/log" -w \
        -o "-c listen_addresses=127.0.0.1 -p $port -k $dir -c fsync=off" start >/dev/null || return 1
    "${as[@]}" "$bin/createdb" -h 127.0.0.1 -p "$port" -U dicehall dicehall_test || return 1
    export DICEHALL_TEST_PG_URL="postgresql+psycopg://dicehall@127.0.0.1:$port/dicehall_test"
    CI_PG_STOP=("${as[@]}" "$bin/pg_ctl" -D "$dir/data" -m fast stop)
}
if [ -z "${DICEHALL_TEST_PG_URL:-}" ]; then
    ci_start_postgres || echo "PostgreSQL could not be started: its tests will be skipped"
fi

# A throwaway Redis for tests/server/cluster/ (several server processes).
ci_start_redis() {
    command -v redis-server >/dev/null || ci_apt_install redis-server || return 1
    local dir port=56379
    dir=$(mktemp -d /tmp/dicehall-redis.XXXXXX)
    redis-server --port "$port" --bind 127.0.0.1 --save '' --appendonly no --dir "$dir" \
        --daemonize yes --pidfile "$dir/pid" >/dev/null || return 1
    export DICEHALL_TEST_REDIS_URL="redis://127.0.0.1:$port/0"
    CI_REDIS_PID="$dir/pid"
}
if [ -z "${DICEHALL_TEST_REDIS_URL:-}" ]; then
    ci_start_redis || echo "Redis could not be started: the several-process tests will be skipped"
fi

ci_stop_services() {
    if [ -n "${CI_PG_STOP:-}" ]; then "${CI_PG_STOP[@]}" >/dev/null 2>&1 || true; fi
    if [ -n "${CI_REDIS_PID:-}" ] && [ -f "$CI_REDIS_PID" ]; then
        kill "$(cat "$CI_REDIS_PID")" 2>/dev/null || true
    fi
}
trap ci_stop_services EXIT
