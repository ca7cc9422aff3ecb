"""The store's own errors, each a SaveError."""

from __future__ import annotations

from engine.errors import SaveError


class CampaignExists(SaveError):
    """A campaign of that id is already in the save folder."""

    title = "Campaign exists"


class CampaignInUse(SaveError):
    """The campaign is open in a Sidekick process: nothing failed, it is just busy."""

    title = "Campaign in use"


class _TooNew(SaveError):
    """campaign.json was written by a newer Sidekick: not damage, nothing to recover."""
