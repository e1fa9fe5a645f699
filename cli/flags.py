"""argparse from the engine's flag groups (core/flagspec.py, core/release/flaggroups.py): one loop, no per-flag code."""

from __future__ import annotations

import argparse
from typing import Any

from onnxpack.core.flagspec import Flag, FlagGroup, Kind, OptionSpec

from .env import Environment

__all__ = ["add_flag_group", "add_spec", "target_of"]


def add_spec(parser: argparse.ArgumentParser, spec: OptionSpec) -> None:
    """Add every flag of ``spec`` to ``parser``, group by group (a titled group becomes an argument group)."""
    for group in spec.groups:
        add_flag_group(parser, group)


def add_flag_group(parser: argparse.ArgumentParser, group: FlagGroup) -> None:
    """Add one flag group: among the command's options (no title), or as an argument group of its own."""
    target: Any = parser if group.title is None else parser.add_argument_group(group.title)
    exclusive: dict[str, Any] = {}
    for flag in group.flags:
        into = target
        if flag.exclusive is not None:
            if flag.exclusive not in exclusive:
                exclusive[flag.exclusive] = target.add_mutually_exclusive_group()
            into = exclusive[flag.exclusive]
        _add(into, flag)


def _add(parser: Any, flag: Flag) -> None:
    if flag.kind is Kind.POSITIONAL:
        optional: dict[str, Any] = {} if flag.required else {"nargs": "?"}
        parser.add_argument(flag.dest, metavar=flag.metavar, help=flag.help, **optional)
        return
    kw: dict[str, Any] = {"dest": flag.dest, "help": flag.help}
    if flag.required:
        kw["required"] = True
    if flag.kind is Kind.SWITCH:
        kw["action"] = "store_true"
    else:
        kw["metavar"] = flag.metavar
        if flag.kind is Kind.REPEAT:
            kw["action"] = "append"
            kw["default"] = list(flag.default or [])
        else:
            kw["default"] = flag.default
        if flag.kind is Kind.CHOICE:
            kw["choices"] = flag.choices
        if flag.type is not None:
            kw["type"] = flag.type
    parser.add_argument(*flag.names, **kw)


def target_of(args: argparse.Namespace, env: Environment) -> str | None:
    """The value of the target group (core/release/flaggroups.py TARGET_FLAGS) for `check` and `bundle` alike: the
    ONNX Runtime release to target, from --target-ort or read by --target-app (said on stderr)."""
    from onnxpack.core.checks.targetapp import target_from

    target_ort, app = target_from(args.target_ort, args.target_app)
    if app is not None:
        env.stderr.write(f"onnxpack: target {app.describe()}\n")
    return target_ort
