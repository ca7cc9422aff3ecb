"""The engine's error types: one base with a title, one subclass per failure kind."""

from __future__ import annotations


class EngineError(Exception):
    """Base of every error the engine raises on purpose; its message is shown to players."""

    title = "Error"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    def __str__(self) -> str:
        return self.message


class ContentError(EngineError):
    """A content pack is broken: the message names the file, the key path and what was expected."""

    title = "Content error"

    def __init__(self, message: str, problems: list[str] | None = None) -> None:
        super().__init__(message)
        self.problems = problems or [message]


class SaveError(EngineError):
    """A save folder or file cannot be read, written or locked."""

    title = "Save error"


class CampaignNotFound(SaveError):
    """No campaign of that id in the save folder."""

    title = "No such campaign"


class IllegalAction(EngineError):
    """The player asked for something the rules or the current prompt do not allow."""

    title = "Not allowed"
