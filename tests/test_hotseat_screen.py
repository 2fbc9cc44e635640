"""Hotseat play in a real terminal (tmux): after every handover, nothing of the previous
player's secrets is left anywhere in the terminal, scrollback included."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from dicehall.games import game_ids

TMUX = shutil.which("tmux")

pytestmark = [
    pytest.mark.skipif(TMUX is None, reason="tmux is not installed: the terminal test is skipped"),
    pytest.mark.skipif("kariki" not in game_ids(), reason="Kariki is not installed"),
]

SECRETS = ("you threw", "(yours)")
"""What only the seat under the mug may read in Kariki: its own throw."""


class Terminal:
    """A tmux server of our own (its own socket), one pane running one command."""

    def __init__(self, folder: Path, command: list[str]) -> None:
        config = folder / "tmux.conf"
        config.write_text("set -g history-limit 100000\nset -g remain-on-exit on\n")
        self.base = [str(TMUX), "-L", f"dicehall-test-{os.getpid()}", "-f", str(config)]
        subprocess.run(
            [*self.base, "new-session", "-d", "-s", "t", "-x", "100", "-y", "40", *command],
            check=True,
            env={**os.environ, "TERM": "xterm-256color"},
        )

    def capture(self, *flags: str) -> str:
        done = subprocess.run(
            [*self.base, "capture-pane", "-p", "-t", "t", *flags],
            capture_output=True,
            text=True,
            check=False,
        )
        return done.stdout

    def everything(self) -> str:
        """The whole pane: its history and screen, and the other screen (normal or alternate)."""
        return self.capture("-S", "-", "-E", "-") + self.capture("-a", "-q", "-S", "-", "-E", "-")

    def dead(self) -> bool:
        """The command has ended (tmux writes "Pane is dead" only for a normal exit)."""
        done = subprocess.run(
            [*self.base, "list-panes", "-t", "t", "-F", "#{pane_dead}"],
            capture_output=True,
            text=True,
            check=False,
        )
        return done.stdout.strip() == "1"

    def send(self, *keys: str) -> None:
        subprocess.run([*self.base, "send-keys", "-t", "t", *keys], check=True)

    def close(self) -> None:
        subprocess.run([*self.base, "kill-server"], check=False, capture_output=True)


def last_line(screen: str) -> str:
    lines = [line for line in screen.splitlines() if line.strip()]
    return lines[-1] if lines else ""


def test_no_secret_is_left_in_the_scrollback_after_a_handover(tmp_path: Path) -> None:
    dicehall = str(Path(sys.executable).with_name("dicehall"))
    command = [dicehall, "play", "kariki", "--hotseat", "--seats", "2", "--seed", "4"]
    terminal = Terminal(tmp_path, command)
    handovers = choices = 0
    try:
        deadline = time.monotonic() + 240
        answered = ""
        while time.monotonic() < deadline:
            screen = terminal.capture()
            line = last_line(screen)
            if "Winner" in screen and terminal.dead():
                break
            if screen == answered or not line.endswith((":", ".")):  # no fresh prompt yet
                time.sleep(0.05)
                continue
            if line.startswith("Nickname for seat"):
                terminal.send("Enter")
            elif line.startswith("Pass the terminal to"):
                handovers += 1
                whole = terminal.everything()
                assert not any(s in whole for s in SECRETS), f"handover {handovers}: {whole}"
                assert [x for x in screen.splitlines() if x.strip()] == [line]
                terminal.send("Enter")
            elif line.startswith("Press Enter to hide"):
                terminal.send("Enter")
            elif "your choice [1-" in line:
                choices += 1
                terminal.send("1", "Enter")
            else:
                time.sleep(0.05)
                continue
            answered = screen
            time.sleep(0.05)
        else:
            raise AssertionError(f"the game did not end: {terminal.capture()}")
        end = terminal.everything()
        assert "Winner" in end
        assert not any(s in end for s in SECRETS), end
    finally:
        terminal.close()
    assert handovers >= 2 and choices >= handovers
