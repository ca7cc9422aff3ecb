"""The Textual app: title, new campaign, play and help screens over the ``Game`` facade."""
