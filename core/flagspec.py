"""What a command-line flag is, as data (no argparse, no Qt): its spelling and help, the options field it sets, how its
value is read and written back, and the app's control for it.

A :class:`FlagGroup` is a concern's flags, declared once and shared by every command that takes them (Polygraphy's
argument groups, without argparse: ``core/release/flaggroups.py`` declares them, ``cli/flags.py`` builds the parser
from them, the desktop app its form table, ``core/codes.py`` the flag names a remedy's ``{opt:NAME}`` reads as).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Any

__all__ = [
    "LABELS",
    "NOT",
    "PATH",
    "PATHS",
    "SAME",
    "TRISTATE",
    "Codec",
    "Control",
    "Flag",
    "FlagGroup",
    "Kind",
    "OptionSpec",
    "pairs",
]


class Kind(Enum):
    """How a flag appears on the command line."""

    POSITIONAL = "positional"  # a positional argument: VALUE (optional unless the flag is required)
    VALUE = "value"  # --flag VALUE
    SWITCH = "switch"  # --flag (on) or absent (off)
    REPEAT = "repeat"  # --flag VALUE, as often as there are values
    CHOICE = "choice"  # --flag ONE-OF-CHOICES


def _same(value: Any) -> Any:
    return value


def _not(value: Any) -> Any:
    return not value


@dataclass(frozen=True)
class Codec:
    """How a flag's parsed value (a str, list of str, bool, int or float) becomes its field's value (``load``) and
    back (``dump``). A flag that fills several fields loads into, and dumps from, a tuple of their values.
    ``load`` None: the front end reads the value itself, once (``-o`` looks at the disk), and only ``dump`` is used."""

    load: Callable[[Any], Any] | None = _same
    dump: Callable[[Any], Any] = _same


SAME = Codec()
NOT = Codec(_not, _not)  # --no-smoke sets run_smoke=False
PATH = Codec(lambda v: Path(v) if v else None, lambda p: None if p is None else str(p))
PATHS = Codec(lambda vs: [Path(v) for v in vs], lambda ps: [str(p) for p in ps])
LABELS = Codec(lambda v: None if v is None else v.split(","), lambda ls: None if ls is None else ",".join(ls))
#: auto/always/never <-> None/True/False
TRISTATE = Codec(lambda v: {"auto": None, "always": True, "never": False}[v],
                 lambda b: {None: "auto", True: "always", False: "never"}[b])  # fmt: skip


def pairs(parse: Callable[[str], tuple[str, Any]], text: Callable[[str, Any], str]) -> Codec:
    """Repeated NAME=VALUE flags <-> a dict (written sorted by name)."""
    return Codec(lambda items: dict(parse(x) for x in items),
                 lambda d: [text(k, v) for k, v in sorted(d.items())])  # fmt: skip


# -- the app's controls ---------------------------------------------------------------------------------------------


def text_or_none(value: str | None) -> str | None:
    """A line edit: empty is None."""
    return value or None


def stripped(value: str) -> str | None:
    """A line edit, surrounding blanks dropped; empty is None."""
    return value.strip() or None


def path_or_none(value: str | Path | None) -> Path | None:
    """A file field: its text as a path; empty is None."""
    if value is None or isinstance(value, Path):
        return value
    return Path(value.strip()) if value.strip() else None


def separated(sep: str) -> Callable[[str], list[str] | None]:
    """A line edit of ``sep``-separated entries (blanks around each dropped)."""

    def read(value: str) -> list[str] | None:
        return [v.strip() for v in value.split(sep)] if value.strip() else None

    return read


def authors_list(value: str) -> list[str]:
    """The authors' line edit: separated by ';', empty entries dropped."""
    return [a.strip() for a in value.split(";") if a.strip()]


@dataclass(frozen=True)
class Control:
    """The desktop app's control for a flag: the form entry ``key`` it sends, and how the control's value becomes the
    options field's (``read``). ``field``: the field it fills when it is not the flag's (``-o`` sets the output folder
    and the .zip name; the app's folder picker only the folder)."""

    key: str
    read: Callable[[Any], Any] = _same
    field: str | None = None


# -- flags, groups, a command's spec --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Flag:
    """One command-line flag: its spelling and help (the parser), the field it sets and how (args -> options), how a
    value is written back (options -> argv), and the app's control (form -> options)."""

    names: tuple[str, ...]  # the option strings, argv writes the first; () for a positional argument
    dest: str  # the parsed value's name (argparse's dest)
    help: str
    #: The options field(s) it sets ("about.license": a field of the nested ReleaseInfo); None: a flag the
    #: front end resolves itself (it reads a file: --target-app, --labels-file), never written back.
    field: str | tuple[str, ...] | None = None
    kind: Kind = Kind.VALUE
    codec: Codec = SAME
    metavar: str | None = None
    default: Any = None  # the parsed value when absent; a value equal to it is not written back
    choices: tuple[str, ...] = ()
    type: Callable[[str], Any] | None = None  # int, float: what the parser converts the text with
    required: bool = False
    exclusive: str | None = None  # flags with the same name here exclude each other
    when: str | None = None  # the bool field that must be on for this flag to count (the smoke flags: run_smoke)
    text: Callable[[Any], str] = str  # how one value is written in argv
    #: The option's name where a remedy names it (``{opt:NAME}``, core/codes.py OPTION_FLAGS); None: ``dest``.
    option: str | None = None
    control: Control | None = None  # the desktop app's control; None: the app has none

    @property
    def fields(self) -> tuple[str, ...]:
        return () if self.field is None else (self.field,) if isinstance(self.field, str) else self.field

    @property
    def option_name(self) -> str:
        return self.option or self.dest

    @property
    def long_name(self) -> str | None:
        """The spelling a message uses: the first ``--long`` name (``--output``, not ``-o``); None for a positional."""
        return next((n for n in self.names if n.startswith("--")), None)

    def argv(self, value: Any) -> list[str]:
        """The command-line words for a parsed value (none for the default)."""
        if value is None or value == self.default or (self.kind is Kind.REPEAT and not value):
            return []
        if self.kind is Kind.POSITIONAL:
            return [self.text(value)]
        if self.kind is Kind.SWITCH:
            return [self.names[0]]
        if self.kind is Kind.REPEAT:
            return [w for item in value for w in (self.names[0], self.text(item))]
        return [self.names[0], self.text(value)]


@dataclass(frozen=True)
class FlagGroup:
    """A concern's flags, shown together in ``--help`` (``title`` None: among the command's own options), whose fields
    are those of one object (the smoke inputs': SmokeOptions'; see :meth:`at`). A command takes a group as declared,
    or adapted: :meth:`only` some of its flags, :meth:`adapted` where its meaning differs (what ``-o`` writes)."""

    title: str | None
    flags: tuple[Flag, ...]

    def at(self, prefix: str, when: str | None = None) -> FlagGroup:
        """The group inside a larger object: its fields as ``PREFIX.NAME`` (``smoke.dims``), and counted only when
        the field ``when`` is on."""
        def inside(flag: Flag) -> Flag:
            names = tuple(f"{prefix}.{name}" for name in flag.fields)
            nested = names if len(names) > 1 else names[0] if names else None
            return dataclasses.replace(flag, field=nested, when=when or flag.when)

        return dataclasses.replace(self, flags=tuple(inside(f) for f in self.flags))

    def only(self, *dests: str) -> FlagGroup:
        """The group with only these flags (by dest), in the group's order."""
        unknown = set(dests) - {f.dest for f in self.flags}
        if unknown:
            raise KeyError(f"no flag {sorted(unknown)} in this group")
        return dataclasses.replace(self, flags=tuple(f for f in self.flags if f.dest in dests))

    def adapted(self, **changes: Mapping[str, Any]) -> FlagGroup:
        """The group with some flags changed for one command (by dest: the attributes to change, e.g. its help)."""
        unknown = set(changes) - {f.dest for f in self.flags}
        if unknown:
            raise KeyError(f"no flag {sorted(unknown)} in this group")
        return dataclasses.replace(self, flags=tuple(dataclasses.replace(f, **changes.get(f.dest, {}))
                                                     for f in self.flags))  # fmt: skip


@dataclass(frozen=True)
class OptionSpec:
    """A command's flags, group by group in ``--help`` order."""

    groups: tuple[FlagGroup, ...]

    @property
    def flags(self) -> tuple[Flag, ...]:
        return tuple(f for g in self.groups for f in g.flags)

    def fields_from_values(self, values: Mapping[str, Any]) -> dict[str, Any]:
        """The fields set by parsed values (by dest); a flag whose ``when`` field is off sets nothing, nor one the
        front end reads itself (its codec has no ``load``)."""
        fields: dict[str, Any] = {}
        # the flags that depend on another's field after the others (--no-smoke comes after the smoke inputs)
        for flag in sorted(self.flags, key=lambda f: f.when is not None):
            load = flag.codec.load
            if flag.fields and load is not None and (flag.when is None or fields.get(flag.when, True)):
                value = load(values[flag.dest])
                fields.update(zip(flag.fields, value if len(flag.fields) > 1 else (value,), strict=True))
        return fields

    def values_from_fields(self, fields: Mapping[str, Any]) -> dict[str, Any]:
        """The inverse: each written-back flag's parsed value (by dest) for these fields."""
        values: dict[str, Any] = {}
        for flag in self.flags:
            if not flag.fields or not all(f in fields for f in flag.fields):
                continue
            if flag.when is not None and not fields.get(flag.when, True):
                continue
            value = tuple(fields[f] for f in flag.fields) if len(flag.fields) > 1 else fields[flag.fields[0]]
            values[flag.dest] = flag.codec.dump(value)
        return values

    def argv(self, fields: Mapping[str, Any]) -> list[str]:
        """The command-line words for these fields, in ``--help`` order."""
        values = self.values_from_fields(fields)
        return [w for flag in self.flags if flag.dest in values for w in flag.argv(values[flag.dest])]

    def controls(self) -> dict[str, tuple[str, Callable[[Any], Any]]]:
        """The app's form table: each control's key -> (the field it fills, how its value becomes the field's)."""
        table: dict[str, tuple[str, Callable[[Any], Any]]] = {}
        for flag in self.flags:
            c = flag.control
            if c is not None:
                table[c.key] = (c.field or flag.fields[0], c.read)
        return table
