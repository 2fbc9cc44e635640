"""dicehall: hidden-information dice games to play, study and learn."""

__version__ = "0.1.0"
