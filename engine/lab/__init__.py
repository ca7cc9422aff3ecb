"""The design lab: many campaigns played headless through ``Game`` by policy bots, and the
numbers a designer asks for (``sidekick lab``)."""
