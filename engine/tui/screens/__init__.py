"""Screens of the app: title, new campaign, play, help, and the dialogs."""
