"""The bundle's last stage: the release diff against the previous bundle, then the manifest (built once), the
receiver's README, SHA256SUMS, manifest.json and the signature, written into the ZIP."""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .. import classcodes
from ..findings import Finding
from . import codes
from .checksums import CHECKSUMS_NAME, sha256sums
from .manifest import MANIFEST_NAME, dumps_manifest, schema_errors
from .manifest_build import ManifestParts, ModelFacts
from .manifest_build import assemble_manifest as assemble_model_manifest
from .members import Member, Role
from .plan import BundlePlan
from .readme import receiver_readme
from .versions import check_new_version, diff_manifests
from .zipwriter import DeterministicZip, EntryRecord

__all__ = ["Release", "Written", "release_of", "write_manifest"]


@dataclass(frozen=True)
class Release:
    """The manifest's ``release`` record (None without --previous) and its findings."""

    doc: dict[str, Any] | None = None
    findings: tuple[Finding, ...] = ()


def release_of(plan: BundlePlan, previous: dict[str, Any] | None, facts: ModelFacts) -> Release:
    """The release diff of this bundle against ``previous`` (--previous's manifest); refuses a version not above
    the previous one unless allowed."""
    if previous is None:
        return Release()
    opts = plan.opts
    diff = diff_manifests(previous, facts.sections(), source=Path(opts.previous or "").name)
    findings = check_new_version(plan.version, diff, force=opts.allow_version_not_greater)
    was = previous["model"]["name"]
    if was != plan.name:
        findings.append(codes.RELEASE_NAME_CHANGED.finding("name", previous=was, name=plan.name))
    return Release(diff.to_dict(), tuple(findings))


@dataclass(frozen=True)
class Written:
    """The manifest written and every member of the bundle, in the order written (manifest and signature last)."""

    manifest: dict[str, Any]
    members: tuple[Member, ...]


def write_manifest(plan: BundlePlan, parts: ManifestParts | Callable[[Sequence[Member]], dict[str, Any]],
                   payload: Sequence[Member], z: DeterministicZip) -> Written:
    """Write README.txt (it describes the payload), SHA256SUMS, manifest.json (listing every member but itself) and,
    when signing, model.sig (it signs every other member, manifest too). ``parts``: the manifest's sections but its
    files, or (a release of several files) the function that assembles the manifest listing the members given."""
    assemble_manifest: Callable[[Sequence[Member]], dict[str, Any]] = (
        functools.partial(assemble_model_manifest, parts) if isinstance(parts, ManifestParts) else parts)
    readme = receiver_readme(assemble_manifest(payload)).encode("utf-8")
    readme_member = Member(Role.README, z.write_bytes("README.txt", readme))
    listed = [*payload, readme_member]
    sums = z.write_bytes(CHECKSUMS_NAME, sha256sums(m.to_dict() for m in listed))  # `sha256sum -c`, without onnxpack
    listed.append(Member(Role.CHECKSUMS, sums))
    manifest = assemble_manifest(listed)
    problems = schema_errors(manifest)
    if problems:  # a bug in onnxpack, never the user's fault
        raise classcodes.INTERNAL.error(variant="manifest_schema", problems="; ".join(problems[:3]))
    manifest_member = Member(Role.MANIFEST, z.write_bytes(MANIFEST_NAME, dumps_manifest(manifest)))
    written = [*sorted(listed, key=lambda m: m.path), manifest_member]
    if plan.signed:  # last member: it signs every other one, manifest too
        written.append(Member(Role.SIGNATURE, _sign(plan, written, z)))
    return Written(manifest, tuple(written))


def _sign(plan: BundlePlan, members: Sequence[Member], z: DeterministicZip) -> EntryRecord:
    from .signing import SIGNATURE_NAME, sign_digests, sign_digests_sigstore

    digests = {m.path: m.record.sha256 for m in members}
    if plan.key is not None:
        signature = sign_digests(plan.name, digests, plan.key, plan.opts.sign_key_password_env)
    else:
        assert plan.sigstore is not None
        signature = sign_digests_sigstore(plan.name, digests, plan.sigstore)
    return z.write_bytes(SIGNATURE_NAME, signature)
