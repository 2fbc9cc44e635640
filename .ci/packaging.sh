# Sourced by .ci/run after `make test` (the lock, the oldest Python, everything):
# the suite once more against the lowest bounds, on the newest Python this
# machine has, and from an unpacked sdist against each wheel of the release
# (.ci/dists.sh: a manylinux wheel per CPython here, and the pure-Python one),
# plus the pure wheel alone without extras. These runs take the quick subset
# (QUICK below: no soak, no browser; the browser tests ran in `make test`).

QUICK=(-m "not slow and not browser" -p no:cacheprovider)
CI_TMP=$(mktemp -d /tmp/dicehall-ci.XXXXXX)

ci_step() { printf '\n=== %s ===\n' "$*"; }

# A venv from a Python, with a lock installed exactly (hashes, no resolving).
ci_venv() {
    local python=$1 dir=$2 lock=$3
    "$python" -m venv "$dir"
    "$dir/bin/pip" install --quiet --upgrade pip
    "$dir/bin/pip" install --quiet --require-hashes --no-deps -r "$lock"
}

ci_lowest_bounds() {
    ci_step "the quick suite against the lowest bounds (requirements-lowest.lock)"
    ci_venv python3 "$CI_TMP/lowest" requirements-lowest.lock
    "$CI_TMP/lowest/bin/pip" install --quiet --no-deps -e .
    "$CI_TMP/lowest/bin/pip" check
    "$CI_TMP/lowest/bin/pytest" "${QUICK[@]}"
}

# The newest CPython on this machine: on PATH, or installed by pyenv.
ci_newest_python() {
    local best="" best_v=0 py v
    for py in $(compgen -c python3. | sort -u) "${PYENV_ROOT:-$HOME/.pyenv}"/versions/3.*/bin/python3; do
        v=$("$py" -c 'import sys; print(sys.version_info[0] * 100 + sys.version_info[1])' 2>/dev/null) || continue
        if [ "$v" -gt "$best_v" ]; then best=$py best_v=$v; fi
    done
    echo "$best"
}

ci_newest() {
    local py
    py=$(ci_newest_python)
    if [ -z "$py" ] || [ "$("$py" -c 'import sys; print(sys.version_info >= (3, 12))')" != True ]; then
        ci_step "no Python newer than 3.11 on this machine: the newest-Python run is skipped"
        return 0
    fi
    ci_step "the quick suite on the newest Python here: $("$py" --version)"
    ci_venv "$py" "$CI_TMP/newest" requirements.lock
    "$CI_TMP/newest/bin/pip" install --quiet --no-deps -e .
    "$CI_TMP/newest/bin/pytest" "${QUICK[@]}"
}

# The interpreter a wheel was built for: cpXY's python3.Y (the one .ci/dists.sh found).
ci_wheel_python() {
    local tag minor py
    tag=$(basename "$1" | cut -d - -f 3)
    [ "$tag" = py3 ] && { echo python3; return; }
    minor="3.${tag#cp3}"
    for py in "python$minor" "${PYENV_ROOT:-$HOME/.pyenv}"/versions/"$minor".*/bin/python3; do
        "$py" -c pass 2>/dev/null && { command -v "$py"; return; }  # not a pyenv shim's refusal
    done
    return 1
}

ci_dist() {
    ci_step "sdist and wheels: build (.ci/dists.sh), auditwheel show, twine check --strict"
    VENV_BIN=.venv/bin .ci/dists.sh "$CI_TMP/dist" >"$CI_TMP/build.log" 2>&1 \
        || { cat "$CI_TMP/build.log"; return 1; }
    grep -E '^-' "$CI_TMP/build.log"
    local wheel sdist py name
    sdist=$(ls "$CI_TMP"/dist/*.tar.gz)
    mkdir "$CI_TMP/sdist"
    tar -xzf "$sdist" -C "$CI_TMP/sdist"

    # a wheel alone, no extras: the terminal commands work, serve says what to install
    wheel=$(ls "$CI_TMP"/dist/*-py3-none-any.whl)
    python3 -m venv "$CI_TMP/bare"
    "$CI_TMP/bare/bin/pip" install --quiet "$wheel"
    "$CI_TMP/bare/bin/dicehall" --version
    "$CI_TMP/bare/bin/dicehall" sim kariki --games 3 --seed 1 >/dev/null
    if "$CI_TMP/bare/bin/dicehall" serve 2>"$CI_TMP/serve.err"; then
        echo "dicehall serve ran without the server extra"; return 1
    fi
    grep -F "pip install 'dicehall[server]'" "$CI_TMP/serve.err"
    if "$CI_TMP/bare/bin/python" -c 'import fastapi' 2>/dev/null; then
        echo "the wheel without extras installed fastapi"; return 1
    fi

    # each wheel in a clean venv of its Python, with the locked set, and the sdist's own
    # tests run against it: the manylinux wheels' rules compiled (setup.py), the pure one's not
    for wheel in "$CI_TMP"/dist/*.whl; do
        name=$(basename "$wheel")
        py=$(ci_wheel_python "$wheel") || { echo "no Python for $name"; return 1; }
        ci_step "the quick suite on $name ($("$py" --version))"
        rm -rf "$CI_TMP/wheel"
        ci_venv "$py" "$CI_TMP/wheel" requirements.lock
        "$CI_TMP/wheel/bin/pip" install --quiet --no-deps "$wheel"
        (
            cd "$CI_TMP"/sdist/dicehall-*/
            "$CI_TMP/wheel/bin/python" -c \
                'import dicehall, sys; sys.exit("site-packages" not in dicehall.__file__)'
            local compiled=True
            case "$name" in *-py3-none-any.whl) compiled=False ;; esac
            "$CI_TMP/wheel/bin/python" -c "import dicehall.games.kariki.rules as r, sys
sys.exit(r.__file__.endswith('.so') != $compiled)"
            "$CI_TMP/wheel/bin/pytest" "${QUICK[@]}"
        )
    done
}

# The image's build and start commands (deploy/container/Containerfile), run here without
# the image: base images cannot be pulled on these machines. install.sh builds and installs
# into a clean venv; the server starts with the image's settings (its state in a temporary
# folder, on loopback) and the image's HEALTHCHECK passes against it.
ci_container() {
    ci_step "the container's build (deploy/container/install.sh) and start, in a clean venv"
    local prefix="$CI_TMP/container" state="$CI_TMP/container-state" port pid ok=0
    mkdir -p "$state"
    PATH="$PWD/.venv/bin:$PATH" deploy/container/install.sh "$PWD" "$prefix"  # .venv's uv
    port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    (
        cd "$state"
        export DICEHALL_HOST=127.0.0.1 DICEHALL_PORT="$port" DICEHALL_CACHE="$state/cache" \
            DICEHALL_DB="sqlite:///$state/dicehall.sqlite"
        exec "$prefix/bin/dicehall" serve
    ) >"$state/serve.log" 2>&1 &
    pid=$!
    for _ in $(seq 120); do
        if DICEHALL_PORT="$port" "$prefix/bin/python" deploy/container/healthcheck.py 2>/dev/null; then
            ok=1; break
        fi
        sleep 0.5
    done
    kill "$pid"; wait "$pid" || true
    [ "$ok" = 1 ] || { cat "$state/serve.log"; echo "the container's server never passed its health check"; return 1; }
    echo "healthy on port $port"
}
