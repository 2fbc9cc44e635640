"""People: player accounts, the games they finished, and how they are rated.

accounts.py       accounts (named, guests, bots), passwords and login sessions
results.py        finished games by seat, and OpenSkill ratings of rated tables
lobby_ratings.py  the ratings the lobby shows beside the names at its tables
profiles.py       players' pages, leaderboards, a finished game's record (queries)

Imports tables/ (the store, the chat's messages) and ops/; nothing of cluster/ or
http/. A table reaches it as a plain object (`Results.finished` is a hook of the
hall), so tables/ never imports this group.
"""
