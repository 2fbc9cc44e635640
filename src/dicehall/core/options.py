"""Table options: what a game lets a host change, and their validation.

A game lists its options once; the CLI, the server and transcripts all check
values through `Option.check`, so a bad value is rejected the same way
everywhere, with a message that names the option and what it allows.
"""

from __future__ import annotations

import operator
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from dicehall.core.errors import OptionError

OptionValue = bool | int | str


@dataclass(frozen=True)
class Option:
    """One option of a game. The type is the default's type (bool, int or str)."""

    name: str
    default: OptionValue
    help: str
    choices: tuple[str, ...] | None = None  # allowed values of a str option
    minimum: int | None = None  # bounds of an int option
    maximum: int | None = None
    allowed_words: str | None = None  # the allowed values where the choices alone mislead
    label: str = ""  # the option's name in words, for the lobby ("Pull catches")
    choice_words: tuple[str, ...] | None = None  # each choice in words, in the choices' order
    advanced: bool = False  # a research variant: the lobby keeps it under "Advanced"
    seat_choice: str | None = None  # the choice that is no seat ("roll-off"): the others are
    # seat numbers, which the lobby shows by the seat's name

    def allowed(self) -> str:
        """The allowed values, in words, for messages and `dicehall games`."""
        if self.allowed_words is not None:
            return self.allowed_words
        if isinstance(self.default, bool):
            return "true or false"
        if isinstance(self.default, int):
            low = "" if self.minimum is None else f"{self.minimum}"
            high = "" if self.maximum is None else f"{self.maximum}"
            return f"a whole number from {low or '-inf'} to {high or 'inf'}"
        if self.choices is not None:
            return "one of " + ", ".join(self.choices)
        return "any text"

    def check(self, value: object) -> OptionValue:
        """Return the value if allowed, else raise OptionError naming the option."""
        bad = OptionError(f"option {self.name!r} must be {self.allowed()}; got {value!r}")
        if isinstance(self.default, bool):
            if not isinstance(value, bool):
                raise bad
            return value
        if isinstance(self.default, int):
            if isinstance(value, bool) or not hasattr(value, "__index__"):
                raise bad
            value = operator.index(value)  # numpy.int64 and friends
            if (self.minimum is not None and value < self.minimum) or (
                self.maximum is not None and value > self.maximum
            ):
                raise bad
            return value
        if self.choices is not None and isinstance(value, int) and not isinstance(value, bool):
            # a seat given as a number, as a client's JSON sends it: the choice that names it
            value = str(value) if str(value) in self.choices else value
        if not isinstance(value, str) or (self.choices is not None and value not in self.choices):
            raise bad
        return value

    def parse(self, text: str) -> OptionValue:
        """Read a value typed on a command line, then check it."""
        if isinstance(self.default, bool):
            lowered = text.strip().lower()
            if lowered in ("true", "yes", "on", "1"):
                return True
            if lowered in ("false", "no", "off", "0"):
                return False
            return self.check(text)
        if isinstance(self.default, int):
            try:
                return self.check(int(text))
            except ValueError as e:
                if isinstance(e, OptionError):
                    raise
                return self.check(text)
        return self.check(text)


def resolve_options(
    game_id: str, declared: tuple[Option, ...], given: Mapping[str, object] | None
) -> dict[str, OptionValue]:
    """Defaults overlaid with the given values; unknown names and bad values raise."""
    by_name = {o.name: o for o in declared}
    values: dict[str, OptionValue] = {o.name: o.default for o in declared}
    for name, value in (given or {}).items():
        option = by_name.get(name)
        if option is None:
            known = ", ".join(by_name) or "none"
            raise OptionError(f"unknown option {name!r} for {game_id}; its options are: {known}")
        values[name] = option.check(value)
    return values


def parse_option_args(
    game_id: str, declared: tuple[Option, ...], args: list[str]
) -> dict[str, OptionValue]:
    """Parse NAME=VALUE strings from a command line."""
    by_name = {o.name: o for o in declared}
    out: dict[str, OptionValue] = {}
    for arg in args:
        name, sep, text = arg.partition("=")
        if not sep:
            raise OptionError(f"options are written NAME=VALUE; got {arg!r}")
        option = by_name.get(name.strip())
        if option is None:
            known = ", ".join(by_name) or "none"
            raise OptionError(f"unknown option {name!r} for {game_id}; its options are: {known}")
        out[option.name] = option.parse(text.strip())
    return out


def options_json(declared: tuple[Option, ...]) -> list[dict[str, Any]]:
    """The options as JSON, for the server's game list and `dicehall games --json`."""
    out = []
    for o in declared:
        kind = "bool" if isinstance(o.default, bool) else type(o.default).__name__
        entry: dict[str, Any] = {
            "name": o.name,
            "type": kind,
            "default": o.default,
            "help": o.help,
            "label": o.label or o.name,
            "advanced": o.advanced,
        }
        if o.choices is not None:
            entry["choices"] = list(o.choices)
        if o.choice_words is not None:
            entry["choice_words"] = dict(zip(o.choices or (), o.choice_words, strict=True))
        if o.seat_choice is not None:
            entry["seats_from"] = o.seat_choice
        if o.minimum is not None:
            entry["minimum"] = o.minimum
        if o.maximum is not None:
            entry["maximum"] = o.maximum
        out.append(entry)
    return out
