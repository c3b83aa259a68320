"""The game record: JSON Lines parsed strictly, replayed through the engine, narrated."""
