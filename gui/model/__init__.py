"""The app's model, without Qt: the queue and each row's state (:mod:`.state`), a bundle run's progress
(:mod:`.runstate`), and the window's controller logic (:mod:`.session`: opening rows, job outcomes, batches).

Nothing here imports Qt or the widgets (an import-linter contract in pyproject.toml, run by
tests/test_architecture.py): the widgets render what this package decides.
"""
