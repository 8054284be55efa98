"""Errors a person can act on.

Every error raised by an engine for bad input subclasses :class:`PalioError` and also
``ValueError``, so callers that only know the standard library still catch it. A rejected
action never changes the state it was offered to.
"""


class PalioError(Exception):
    """Base class of every Palio error.

    ``str(error)`` is an English sentence for programs and logs. ``error.words``, when set, is
    the same as a message (:class:`palio.core.words.Msg`) that clients show in the reader's
    language.
    """

    def __init__(self, *args: object, words: object = None) -> None:
        super().__init__(*args)
        self.words = words


class IllegalAction(PalioError, ValueError):
    """An action the rules do not allow in this position (or text that is not an action)."""


class NotationError(IllegalAction):
    """Text that does not parse as an action of this game at all."""


class OptionError(PalioError, ValueError):
    """Unknown or invalid game options, or an unsupported player count."""


class ComponentsError(PalioError, ValueError):
    """A components data file that is malformed or inconsistent."""


class RecordError(PalioError, ValueError):
    """A game record that is malformed, or that does not replay to its stated result."""
