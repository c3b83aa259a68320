"""Bundled edition files: one TOML per edition plus its board map (docs/editions.md)."""
