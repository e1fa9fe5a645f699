"""The registry of codes: each finding and error code once, with its severity, English message and remedy.

A :class:`Code` is defined once, in the ``codes.py`` of the floor that produces it (``core/model/codes.py``,
``core/checks/codes.py``, ...; the basics' own codes are at the end of this module). Its ``text`` and ``hint`` are
templates in :meth:`str.format` syntax: ``{name}`` is a value the call site passes by name (``{name!r}`` quotes it
as Python does), and ``{opt:NAME}`` names an option of onnxpack as data (a structured remedy), which each front end
words its own way: the command line and JSON say the flag (:data:`OPTION_FLAGS`), the desktop app names its
control. Where the desktop app has a better way than a flag, a code also has the app's own remedy (:func:`app_remedy`,
in the floor's ``apphints.py``), which may name an action of the app with ``{act:NAME}`` (:data:`APP_ACTIONS`); the
command line and JSON never show it. Call sites do not write English::

    raise codes.NO_SUCH_THING.error(subject=path.name, file=path.name)
    findings.append(codes.DUPLICATE_INITIALIZER.finding(name, count=n, model=label))

From the registry the English is rendered (here), the desktop app's translations are extracted for Qt Linguist
(``resources/i18n/update_translations.py``), the list of codes in ``docs/codes.md`` is generated
(``python -m onnxpack.core.codes``), and the catalog tests are a loop over it. Adding a finding is one entry here
plus its Japanese translation.
"""

from __future__ import annotations

import string
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from .errors import OnnxpackError
from .findings import Finding, Severity

__all__ = ["APP_ACTIONS", "APP_HINTS", "CODES", "OPTION_FLAGS", "Code", "actions", "app_remedy", "define", "fields",
           "main", "markdown", "options", "render"]

class _OptionFlags(Mapping[str, str]):
    """An option of onnxpack (named after its flag) → its command-line flag: how a remedy's ``{opt:NAME}`` reads on
    the command line, in ``--json`` output and in manifests. Derived, on first use, from the flag groups every command
    is built from (core/release/flaggroups.py option_flags, a floor above this one: read through ``onnxpack.core``)."""

    def __init__(self) -> None:
        self._table: dict[str, str] | None = None

    def _flags(self) -> dict[str, str]:
        if self._table is None:
            from . import option_flags

            self._table = option_flags()
        return self._table

    def __getitem__(self, name: str) -> str:
        return self._flags()[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._flags())

    def __len__(self) -> int:
        return len(self._flags())


#: tests/test_codes.py checks every flag here is one the command line has.
OPTION_FLAGS: Mapping[str, str] = _OptionFlags()

#: The desktop app's actions an app remedy can name with ``{act:NAME}`` → the option that does the same on the command
#: line (so the command line and docs/codes.md word the action as that option's flag; the app words it as its menu
#: says, gui/catalog.py action_label).
APP_ACTIONS: Mapping[str, str] = MappingProxyType({"locate_data_file": "data_dir"})

#: Every code, by name (filled by :func:`define` as each floor's ``codes`` module is imported;
#: ``onnxpack.core.registry()`` imports them all).
CODES: dict[str, Code] = {}


class _Named:
    """The value of the ``opt`` and ``act`` fields: ``{opt:NAME}`` and ``{act:NAME}`` are rendered by the front end's
    wording of options and of the app's actions."""


_OPT, _ACT = _Named(), _Named()


class _Formatter(string.Formatter):
    """str.format with ``{opt:NAME}`` worded by ``option`` and ``{act:NAME}`` by ``action`` (NAME → text) instead of a
    format spec."""

    def __init__(self, option: Callable[[str], str], action: Callable[[str], str]) -> None:
        super().__init__()
        self.option = option
        self.action = action

    def get_value(self, key: int | str, args: Any, kwargs: Mapping[str, Any]) -> Any:
        if key in ("opt", "act"):
            return _OPT if key == "opt" else _ACT
        return super().get_value(key, args, kwargs)

    def format_field(self, value: Any, format_spec: str) -> Any:
        if value is _OPT:
            return self.option(format_spec)
        if value is _ACT:
            return self.action(format_spec)
        return super().format_field(value, format_spec)


def _flag(name: str) -> str:
    return OPTION_FLAGS[name]


def _action_flag(name: str) -> str:
    """An app action as the command line words it: the flag of the option that does the same."""
    return OPTION_FLAGS[APP_ACTIONS[name]]


_ENGLISH = _Formatter(_flag, _action_flag)


def render(template: str, params: Mapping[str, Any], option: Callable[[str], str] | None = None,
           action: Callable[[str], str] | None = None) -> str:
    """``template`` filled with ``params``; options are worded by ``option`` and the app's actions by ``action``
    (default: the command-line flag, of the option that does the action's job for an action)."""
    formatter = _ENGLISH if option is None and action is None else _Formatter(option or _flag, action or _action_flag)
    return formatter.vformat(template, (), params)


def fields(template: str) -> set[str]:
    """The names of the values ``template`` needs (``opt`` and ``act`` excluded)."""
    names = {f for _, f, _, _ in string.Formatter().parse(template) if f}
    return {n.split(".")[0].split("[")[0] for n in names} - {"opt", "act"}


def actions(template: str) -> set[str]:
    """The app actions a template names with ``{act:NAME}``."""
    return {spec for _, f, spec, _ in string.Formatter().parse(template) if f == "act" and spec}


def options(template: str) -> set[str]:
    """The options a template names with ``{opt:NAME}``."""
    return {spec for _, f, spec, _ in string.Formatter().parse(template) if f == "opt" and spec}


@dataclass(frozen=True)
class Code:
    """One finding or error code: what it means, in English templates, and how bad it is."""

    name: str
    #: A finding's severity; None for a code that is only an error (its class says how the command line exits). A
    #: code may be both: the same problem found while checking (a finding) and while working (an error).
    severity: Severity | None
    #: The message, a template over the values the call site passes (see the module's docstring).
    text: str
    #: The remedy: what to do, as a template; may name options with ``{opt:NAME}``.
    hint: str = ""
    #: Other wordings of the message by variant (a call site passes ``variant=...``).
    variants: Mapping[str, str] = field(default_factory=dict)
    #: The exception class an error code raises (None for a code that is only a finding).
    kind: type[OnnxpackError] | None = None
    #: For an error code: what went wrong in general words (the desktop app's title; the message has the detail).
    summary: str = ""
    #: Remedies of the variants whose remedy differs from ``hint``, by variant.
    variant_hints: Mapping[str, str] = field(default_factory=dict)

    @property
    def app_hint(self) -> str:
        """The desktop app's own remedy (a template, :func:`app_remedy`), or "" when the app words ``hint``."""
        return APP_HINTS.get(self.name, "")

    def template(self, variant: str | None = None) -> str:
        """The message template of ``variant`` (the main text when None or empty)."""
        return self.variants[variant] if variant else self.text

    def hint_template(self, variant: str | None = None) -> str:
        """The remedy template of ``variant`` (its own when it has one, else the code's)."""
        return self.variant_hints.get(variant or "", self.hint)

    def messages(self) -> tuple[str, ...]:
        """Every message template: the main one, then each variant's (empty ones left out)."""
        return tuple(t for t in (self.text, *self.variants.values()) if t)

    def remedies(self) -> tuple[str, ...]:
        """Every remedy template: the code's, then each variant's own (empty ones left out)."""
        return tuple(h for h in (self.hint, *self.variant_hints.values()) if h)

    def message(self, variant: str | None = None, **params: Any) -> str:
        """The English message with ``params`` filled in."""
        return render(self.template(variant), params)

    def remedy(self, variant: str | None = None, **params: Any) -> str:
        """The English hint of ``variant`` with ``params`` filled in (options as command-line flags)."""
        template = self.hint_template(variant)
        return render(template, params) if template else ""

    def finding(self, subject: str = "", *, variant: str | None = None, hint: str | None = None,
                hint_variant: str | None = None, **params: Any) -> Finding:
        """A Finding of this code; ``hint_variant`` picks a remedy of its own (a ``remedy_variants`` entry of
        :func:`define`) whatever the message's ``variant``; ``hint`` replaces the registered remedy when the call site
        words its own."""
        if self.severity is None:
            raise TypeError(f"{self.name} is an error code, not a finding")
        message = self.message(variant, subject=subject, **params)
        remedy = self.remedy(hint_variant or variant, subject=subject, **params) if hint is None else hint
        kept = {**params, **({"variant": variant} if variant else {}),
                **({"hint_variant": hint_variant} if hint_variant else {})}
        return Finding(self.severity, self.name, message, remedy, subject, kept)

    def error(self, subject: str = "", *, variant: str | None = None, hint: str | None = None,
              hint_variant: str | None = None, details: str | None = None, repeats: Finding | None = None,
              raised_as: type[OnnxpackError] | None = None, **params: Any) -> OnnxpackError:
        """An exception of this code (of its ``kind``), for the call site to raise. ``repeats``: the finding this
        error repeats (its message is one of the values): the error then carries that finding's code and values, so
        the desktop app words the finding in its language. ``raised_as``: the class to raise when this call site's
        problem is of another kind than the code's (a name given on the command line is a usage error).
        ``hint_variant``: a remedy of its own, as for :meth:`finding`."""
        if self.kind is None:
            raise TypeError(f"{self.name} is a finding code, not an error")
        message = self.message(variant, subject=subject, **params)
        remedy = ((self.remedy(hint_variant or variant, subject=subject, **params) or None) if hint is None
                  else hint)  # fmt: skip
        cls = raised_as or self.kind
        if repeats is not None:
            return cls(message, remedy, code=repeats.code, details=details, params=repeats.message_params())
        kept = {"subject": subject, **params, **({"variant": variant} if variant else {}),
                **({"hint_variant": hint_variant} if hint_variant else {})}
        return cls(message, remedy, code=self.name, details=details, params=kept)


def define(
    name: str,
    severity: Severity | None = None,
    text: str = "",
    hint: str = "",
    *,
    variants: Mapping[str, str] | None = None,
    kind: type[OnnxpackError] | None = None,
    summary: str = "",
    variant_hints: Mapping[str, str] | None = None,
) -> Code:
    """Register a code (once: a name defined twice is a bug) and return it. ``variant_hints``: the remedies of
    message variants whose remedy differs, and remedies chosen apart from the message (``finding(hint_variant=...)``;
    a name no message variant has)."""
    if name in CODES:
        raise ValueError(f"code {name} is defined twice")
    if severity is None and kind is None:
        raise ValueError(f"code {name}: give a severity (a finding), a kind (an error), or both")
    code = Code(name, severity, text, hint, MappingProxyType(dict(variants or {})), kind, summary,
                MappingProxyType(dict(variant_hints or {})))
    CODES[name] = code
    return code



#: The desktop app's own remedy of a code, by code name (filled by :func:`app_remedy` as each floor's ``apphints``
#: module is imported; ``onnxpack.core.registry()`` imports them all).
APP_HINTS: dict[str, str] = {}


def app_remedy(code: Code, template: str) -> Code:
    """Register the desktop app's remedy of ``code`` (once), for a problem the app has a better way to fix than a
    flag: a template like ``hint``, naming options (``{opt:NAME}``, which the app words as its control) and the app's
    actions (``{act:NAME}``, one of :data:`APP_ACTIONS`) as data. The command line and JSON show ``hint``."""
    if CODES.get(code.name) is not code:
        raise ValueError(f"code {code.name} is not registered")
    if code.name in APP_HINTS:
        raise ValueError(f"code {code.name} has two app remedies")
    if unknown := actions(template) - set(APP_ACTIONS):
        raise ValueError(f"code {code.name}: no such app action {sorted(unknown)}")
    APP_HINTS[code.name] = template
    return code


# The error classes' own codes (ERROR, INPUT, ...) and their variants: core/classcodes.py.


def markdown(codes: Mapping[str, Code]) -> str:
    """``docs/codes.md``: every code with its severity or exit status, message and remedy (generated: see main)."""
    def cell(text: str) -> str:
        return text.replace("|", "\\|").replace("\n", " ") or "—"

    findings = [c for c in codes.values() if c.severity is not None]
    errors = [c for c in codes.values() if c.kind is not None]
    out = [
        "# Finding and error codes",
        "",
        "Generated from the engine's registry (`core/codes.py` and each floor's `codes.py`) by",
        "`python -m onnxpack.core.codes > docs/codes.md`; `tests/test_codes.py` checks it is current. Codes are",
        "stable; the words may change. `{name}` stands for a value the message names; an option is written as its",
        "command-line flag (the desktop app names its own control instead).",
        "",
        f"## Findings ({len(findings)})",
        "",
        "| code | severity | message | remedy |",
        "|---|---|---|---|",
    ]
    for c in findings:
        out.append(f"| `{c.name}` | {c.severity.value if c.severity else ''} | {cell(_shown(c.messages()))} | "
                   f"{cell(_shown(c.remedies()))} |")  # fmt: skip
    out += ["", f"## Errors ({len(errors)})", "",
            "Exit status: 1 refused or failed, 2 unusable input or options, 3 a bug in onnxpack, 130 cancelled.", "",
            "| code | exit | what went wrong | message | remedy |", "|---|---|---|---|---|"]  # fmt: skip
    for c in errors:
        status = c.kind.exit_status if c.kind is not None else ""
        out.append(f"| `{c.name}` | {status} | {cell(c.summary)} | {cell(_shown(c.messages()))} | "
                   f"{cell(_shown(c.remedies()))} |")  # fmt: skip
    own = [c for c in codes.values() if c.app_hint]
    out += ["", f"## Remedies in the desktop app ({len(own)})", "",
            "Where the app has a better way than a flag it shows its own remedy instead (its controls and actions",
            "named as data; here an option or an action is written as the flag that does the same).", "",
            "| code | remedy in the app |", "|---|---|"]  # fmt: skip
    out += [f"| `{c.name}` | {cell(_shown((c.app_hint,)))} |" for c in own]
    return "\n".join(out) + "\n"


def _shown(templates: tuple[str, ...]) -> str:
    """Templates as the docs show them, joined by " / ": options (and the app's actions) as their flags, values as
    ``{name}`` (no conversion or format)."""
    parts = []
    for literal, name, spec, _conv in string.Formatter().parse(" / ".join(templates)):
        parts.append(literal)
        if name in ("opt", "act"):
            parts.append((_flag if name == "opt" else _action_flag)(spec or ""))
        elif name is not None:
            parts.append("{" + name + "}")
    return "".join(parts)


def main() -> int:
    """Print docs/codes.md."""
    from . import registry

    print(markdown(registry()), end="")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
