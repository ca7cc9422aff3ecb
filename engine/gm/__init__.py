"""The automated GM: GM moves, threats and clocks, the oracle, scene framing."""
