"""The Textual app: title, new campaign, play and help screens over the ``Game`` facade."""

import os

# Textual repaints at most MAX_FPS times a second, after the app goes idle; at its default
# (60) that wait is a third of the time between a keypress and its result on screen here.
os.environ.setdefault("TEXTUAL_FPS", "120")
