"""What a seat can know: exact notebooks from its record, notes, the assistant, and computer players."""
