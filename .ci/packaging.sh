# Sourced by .ci/run after `make test` (the lock, the oldest Python, everything):
# the suite once more against the lowest bounds, on the newest Python this
# machine has, and from an unpacked sdist with the built wheel installed, plus
# the wheel alone without extras. These runs take the quick subset
# (QUICK below: no soak, no browser; the browser tests ran in `make test`),
# so the whole of .ci/run stays well inside its time on two cores.

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

ci_dist() {
    ci_step "sdist and wheel: build, twine check, tests from the unpacked sdist"
    .venv/bin/python -m build --outdir "$CI_TMP/dist" >"$CI_TMP/build.log" 2>&1 \
        || { cat "$CI_TMP/build.log"; return 1; }
    .venv/bin/twine check --strict "$CI_TMP"/dist/*
    local wheel sdist
    wheel=$(ls "$CI_TMP"/dist/*.whl)
    sdist=$(ls "$CI_TMP"/dist/*.tar.gz)

    # the wheel alone, no extras: the terminal commands work, serve says what to install
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

    # the wheel with the locked set, and the sdist's own tests run against it
    ci_venv python3 "$CI_TMP/wheel" requirements.lock
    "$CI_TMP/wheel/bin/pip" install --quiet --no-deps "$wheel"
    mkdir "$CI_TMP/sdist"
    tar -xzf "$sdist" -C "$CI_TMP/sdist"
    (
        cd "$CI_TMP"/sdist/dicehall-*/
        "$CI_TMP/wheel/bin/python" -c \
            'import dicehall, sys; sys.exit("site-packages" not in dicehall.__file__)'
        # the wheel's rules are the compiled ones (setup.py), so the suite tests them
        "$CI_TMP/wheel/bin/python" -c \
            'import dicehall.games.kariki.rules as r, sys; sys.exit(not r.__file__.endswith(".so"))'
        "$CI_TMP/wheel/bin/pytest" "${QUICK[@]}"
    )
}
