"""The rules engine: editions, boards, movement and every rule, as a pure
``apply(state, action) -> (state, events)``. It imports nothing else of the project."""
