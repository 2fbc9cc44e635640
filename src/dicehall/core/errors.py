"""Exceptions raised by the rules core.

Every error is a ValueError (as in python-chess), so callers that only care
that input was bad can catch one type, while interfaces can tell the kinds
apart to give a precise message.
"""

from __future__ import annotations


class DicehallError(ValueError):
    """Base of every error the rules core raises on bad input."""


class UnknownGameError(DicehallError):
    """A game id that no registered game has."""


class OptionError(DicehallError):
    """An unknown option, a value outside its allowed values, or a bad seat count."""


class IllegalActionError(DicehallError):
    """An action that the rules do not allow now; the state is left unchanged."""


class ChanceError(DicehallError):
    """A chance outcome applied when no throw is due, or faces the dice do not have."""


class TranscriptError(DicehallError):
    """A transcript that is malformed or breaks the rules at some step."""

    def __init__(self, message: str, step: int | None = None) -> None:
        self.step = step
        super().__init__(message if step is None else f"step {step}: {message}")
