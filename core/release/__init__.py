"""The release: bundle, manifest, receiver README, checksums, ZIP writer and checks, verify, signing, versions."""

__all__: list[str] = []
