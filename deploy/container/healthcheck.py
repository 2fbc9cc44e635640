"""The image's HEALTHCHECK: the server answers /healthz on its own port (DICEHALL_PORT).

Liveness, not readiness: a process handing its tables over on SIGTERM answers /readyz
503 but is healthy (docs/operators/deploy.md)."""

import os
import sys
import urllib.request

port = os.environ.get("DICEHALL_PORT", "8000")
try:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=3) as answer:
        sys.exit(0 if answer.status == 200 else 1)
except OSError as e:
    print(f"unhealthy: {e}", file=sys.stderr)
    sys.exit(1)
