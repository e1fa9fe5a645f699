"""Work run in a thread beside the main one (the onnx checker, hashing, the equality proof), cancellable."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Generic, TypeVar

from .progress import CancelToken, check_cancel

__all__ = ["Background"]

T = TypeVar("T")


class Background(Generic[T]):
    """Run ``fn(stop_token)`` in a daemon thread; ``join`` returns its result (or raises its error) and
    stops it when the caller's ``cancel`` is set; ``stop`` asks it to end and waits."""

    def __init__(self, fn: Callable[[CancelToken], T], cancel: CancelToken | None, name: str) -> None:
        self._stop = CancelToken()
        self._cancel = cancel
        self._result: list[T] = []
        self._error: list[BaseException] = []

        def run() -> None:
            try:
                self._result.append(fn(self._stop))
            except BaseException as e:  # re-raised by join()
                self._error.append(e)

        self._thread = threading.Thread(target=run, name=name, daemon=True)
        self._thread.start()

    def join(self) -> T:
        while self._thread.is_alive():
            self._thread.join(0.1)
            if self._cancel is not None and self._cancel.cancelled:
                self.stop()
                check_cancel(self._cancel)
        if self._error:
            raise self._error[0]
        return self._result[0]

    @property
    def running(self) -> bool:
        return self._thread.is_alive()

    def stop(self) -> None:
        self._stop.cancel()
        self._thread.join()
