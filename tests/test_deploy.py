"""The deployment files under deploy/ hold together: what can be checked without pulling
base images or running systemd. The compose file parses and describes two servers on
PostgreSQL and Redis behind nginx, migrated first; the Containerfile is multi-stage,
runs unprivileged, health-checked, from the build script CI runs in a clean venv
(.ci/packaging.sh's ci_container); the systemd unit runs the installed command on
SQLite. The nginx file itself runs in tests/server/test_proxy.py."""

from __future__ import annotations

import re
import shlex
from pathlib import Path
from typing import Any

import yaml

from dicehall.server.ops.settings import ServerSettings

ROOT = Path(__file__).parent.parent
DEPLOY = ROOT / "deploy"


def compose() -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load((DEPLOY / "compose" / "compose.yaml").read_text())
    return data


def variables(env: dict[str, str]) -> set[str]:
    return {k.removeprefix("DICEHALL_").lower() for k in env if k.startswith("DICEHALL_")}


def test_compose_runs_two_servers_on_postgres_and_redis_behind_nginx() -> None:
    services = compose()["services"]
    assert set(services) == {"db", "redis", "migrate", "app1", "app2", "nginx"}
    nginx_ip = services["nginx"]["networks"]["site"]["ipv4_address"]
    for app in ("app1", "app2"):
        s = services[app]
        assert s["build"]["dockerfile"] == "deploy/container/Containerfile"
        assert (ROOT / "deploy" / "compose" / s["build"]["context"]).resolve() == ROOT
        env = s["environment"]
        assert variables(env) <= set(ServerSettings.model_fields), "an unknown setting"
        assert env["DICEHALL_DB"].startswith("postgresql+psycopg://")
        assert re.search(r"@db/", env["DICEHALL_DB"])
        assert env["DICEHALL_REDIS"] == "redis://redis:6379/0"
        assert env["DICEHALL_TRUSTED_PROXIES"] == nginx_ip
        ServerSettings(trusted_proxies=env["DICEHALL_TRUSTED_PROXIES"])  # a valid value
        assert s["depends_on"]["migrate"] == {"condition": "service_completed_successfully"}
        assert s["depends_on"]["db"]["condition"] == "service_healthy"
        assert s["depends_on"]["redis"]["condition"] == "service_healthy"
        assert "ports" not in s, "the servers are reached through nginx only"
    assert services["migrate"]["command"] == ["dicehall", "migrate"]
    assert services["migrate"]["restart"] == "no"
    assert {"db", "redis"} <= {n for n in services if "healthcheck" in services[n]}


def test_compose_nginx_serves_the_tested_configuration_with_its_upstreams_renamed() -> None:
    nginx = compose()["services"]["nginx"]
    assert nginx["ports"] == ["80:80", "443:443"]
    mounts = {v.split(":")[1]: v.split(":")[0] for v in nginx["volumes"]}
    conf = (DEPLOY / "compose" / mounts["/etc/dicehall/dicehall.conf"]).resolve()
    assert conf == DEPLOY / "nginx" / "dicehall.conf"
    script = nginx["command"][-1]
    text = conf.read_text()
    for old, new in re.findall(r"s/([^/]+)/([^/]+)/", script):
        assert text.count(old.replace("\\", "")) == 1, old
        host = new.split(":")[0]
        assert host in compose()["services"], new
    assert "/etc/nginx/conf.d/default.conf" in script
    cert_folder = mounts["/etc/letsencrypt/live/dicehall.example.org"]
    assert "/etc/letsencrypt/live/dicehall.example.org/" in text and cert_folder == "./certs"


def containerfile() -> list[str]:
    """Its instructions, continuation lines joined."""
    text = (DEPLOY / "container" / "Containerfile").read_text().replace("\\\n", " ")
    return [line.strip() for line in text.splitlines() if line.strip() and line[0] != "#"]


def test_containerfile_is_multi_stage_unprivileged_and_health_checked() -> None:
    lines = containerfile()
    stages = [line for line in lines if line.startswith("FROM ")]
    assert len(stages) == 2 and stages[0].endswith(" AS build")
    final = lines[lines.index(stages[1]) :]
    assert any(line.startswith("COPY --from=build /opt/dicehall ") for line in final)
    assert not any(line.startswith("RUN apt-get") for line in final), "no compiler at run time"
    (user,) = [line.split()[1] for line in final if line.startswith("USER ")]
    assert user not in ("root", "0")
    assert any("useradd --system --uid 10001 " in line and user in line for line in final)
    (check,) = [line for line in final if line.startswith("HEALTHCHECK ")]
    assert "/opt/dicehall/healthcheck.py" in check
    assert (DEPLOY / "container" / "healthcheck.py").is_file()
    (cmd,) = [line for line in final if line.startswith("CMD ")]
    assert cmd == 'CMD ["dicehall", "serve"]'
    build = [line for line in lines[: lines.index(stages[1])] if line.startswith("RUN ")]
    assert any("deploy/container/install.sh /src /opt/dicehall" in line for line in build)
    env = dict(
        pair.split("=", 1)
        for line in final
        if line.startswith("ENV ")
        for pair in shlex.split(line[4:])
    )
    assert variables(env) <= set(ServerSettings.model_fields) | {"cache"}
    assert env["DICEHALL_HOST"] == "0.0.0.0"
    assert env["DICEHALL_DB"].startswith("sqlite:////var/lib/dicehall/")


def test_the_systemd_unit_runs_the_installed_command_on_sqlite() -> None:
    unit: dict[str, list[str]] = {}
    for line in (DEPLOY / "systemd" / "dicehall.service").read_text().splitlines():
        if "=" in line and not line.startswith(("#", "[")):
            key, value = line.split("=", 1)
            unit.setdefault(key, []).append(value)
    assert unit["ExecStart"] == ["/opt/dicehall/bin/dicehall serve"]
    assert unit["ExecStartPre"] == ["/opt/dicehall/bin/dicehall migrate"]
    assert unit["User"] == ["dicehall"] and unit["StateDirectory"] == ["dicehall"]
    env = dict(e.split("=", 1) for e in unit["Environment"])
    assert env["DICEHALL_DB"] == "sqlite:////var/lib/dicehall/dicehall.sqlite"
    assert variables(env) <= set(ServerSettings.model_fields) | {"cache"}
    ServerSettings(**{k.removeprefix("DICEHALL_").lower(): v for k, v in env.items()
                      if k != "DICEHALL_CACHE"})  # fmt: skip
