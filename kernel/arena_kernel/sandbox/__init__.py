"""The sandbox every bot the arena starts runs in: bubblewrap, configured by ``[sandbox]``.

See docs/sandbox.md for what it isolates and what it does not.
"""
