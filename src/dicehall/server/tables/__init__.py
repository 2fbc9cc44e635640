"""The tables: one table in play, the hall that holds them all, and their database.

store.py         the database: a row per table, a row per step, the writer thread
loop_writes.py   group commits made on the event loop where they cannot wait
house_rules.py   a table's house rules: listed, grace period, time bank, chat, ...
catalog.py       the games a server offers
fairness.py      fair dice (sealed and seed tables) and the verify report
tracking.py      whom each sealed throw has been shown to, worked out off the loop
live.py          one table in play: steps, persistence, bots, timers, broadcasts
presence.py      who is at a table, and the table's bot standing in for the absent
chat.py          a table's chat
timebank.py      each player's time bank
hall.py          every table the server holds: create, join, rematch, resume
expiry.py        tables nobody joined are closed
quickmatch.py    the tables a quick match may join, and the lobby's facts about them
outside_bots.py  bots from outside: their tokens, the seats kept for them
ladder.py        the standing bot ladder's tables
replay.py        a finished game told again, frame by frame, as a seat saw it

Imports ops/ only (and store.py the migrations' `upgrade`); nothing of people/,
cluster/ or http/. What the others need to hear from a table comes out through the
hall's hooks (`finish_hooks`, `on_open`, `on_end`, `on_move`), and the ratings the
lobby shows come in as a callback (quickmatch.py's `SeatRatings`). fairness.py and
tracking.py import nothing of the server extra: `dicehall verify` needs them alone.
"""
