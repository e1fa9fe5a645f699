"""Child processes started ahead of their job, and the process handles they run under."""

__all__: list[str] = []
