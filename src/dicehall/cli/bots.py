"""`dicehall bot-token NAME`: a token for a bot that plays from outside the server."""

from __future__ import annotations

from typing import Annotated

import typer

from dicehall.cli.common import app, fail, guarded


@app.command("bot-token", rich_help_panel="Host")
def bot_token(
    name: Annotated[str, typer.Argument(help="The bot's name, shown at the table.")],
    db: Annotated[
        str | None,
        typer.Option(
            help="SQLAlchemy URL of the server's database (setting db).", show_default=False
        ),
    ] = None,
) -> None:
    """Issue a bot token: a bot sits at tables kept for bots from outside with it (docs/bots.md).

    Printed once and kept only as a hash; asking again for the same name replaces it."""
    from dicehall.server import missing_modules

    if missing := missing_modules():
        fail(f"dicehall bot-token needs the server extra (missing: {', '.join(missing)})")
    from sqlalchemy import create_engine

    from dicehall.server.ops.settings import database_url, load_settings
    from dicehall.server.tables.outside_bots import BotTokens

    settings = guarded(lambda: load_settings(db=db))
    engine = create_engine(database_url(settings.db))
    try:
        token = guarded(lambda: BotTokens(engine).issue(name))
    finally:
        engine.dispose()
    print(token)
