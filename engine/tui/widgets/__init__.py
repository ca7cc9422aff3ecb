"""Widgets of the play screen: the journal, the character sheet, the action menu, the roll panel."""
