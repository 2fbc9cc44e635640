#!/bin/sh
# The image's build stage (deploy/container/Containerfile), also run as it is in a clean
# venv by CI (.ci/packaging.sh, ci_container): the compiled wheel built from the source at
# SRC, then installed with the postgres extra into a venv at PREFIX, at the versions of
# requirements.lock. Usage: install.sh SRC PREFIX
set -eu
src=$1
prefix=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

command -v uv >/dev/null 2>&1 || python3 -m pip install --quiet "uv>=0.13,<0.14"
export UV_PYTHON_DOWNLOADS=never
# the rules compiled with mypyc (setup.py); a wheel without them is refused, not shipped
uv build --quiet --wheel --out-dir "$work" "$src"
wheel=$(ls "$work"/dicehall-*.whl)
case "$wheel" in
    *-linux_*.whl) ;;
    *) echo "install.sh: the wheel has no compiled rules: $wheel" >&2; exit 1 ;;
esac
uv venv --quiet --python python3 "$prefix"
uv pip install --quiet --compile-bytecode --python "$prefix/bin/python" \
    --constraint "$src/requirements.lock" "dicehall[postgres] @ file://$wheel"
"$prefix/bin/python" -c 'import dicehall.games.kariki.rules as r; assert r.__file__.endswith(".so")'
"$prefix/bin/dicehall" --version
