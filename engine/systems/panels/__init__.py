"""The panels game's pure rules (RULES.md C, seed 003): checks, damage, responses, crits."""
