"""The rules core: what every game implements and every interface uses."""

from dicehall.core.bots import Bot, BotFactory, RandomBot
from dicehall.core.chance import D6, D12, CommittedDice, Die, Faces, RandomDice, ScriptedDice, Throw
from dicehall.core.errors import (
    ChanceError,
    DicehallError,
    IllegalActionError,
    OptionError,
    TranscriptError,
    UnknownGameError,
)
from dicehall.core.game import (
    Action,
    Event,
    Game,
    Result,
    State,
    ThrowShown,
    View,
    describe_action,
)
from dicehall.core.options import Option
from dicehall.core.table import Table, make_bots

__all__ = [
    "D6",
    "D12",
    "Action",
    "Bot",
    "BotFactory",
    "ChanceError",
    "CommittedDice",
    "DicehallError",
    "Die",
    "Event",
    "Faces",
    "Game",
    "IllegalActionError",
    "Option",
    "OptionError",
    "RandomBot",
    "RandomDice",
    "Result",
    "ScriptedDice",
    "State",
    "Table",
    "Throw",
    "ThrowShown",
    "TranscriptError",
    "UnknownGameError",
    "View",
    "describe_action",
    "make_bots",
]
