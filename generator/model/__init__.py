"""The spec stage: takes a game folder's YAML (with line numbers) and hands on validated typed
models (a ``Game`` of ``Component``s), their designs and counts, or every mistake at its line."""
