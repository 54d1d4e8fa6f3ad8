"""The generated server secret of the embedded default, kept in a local file.

Without ``REDIS_URL`` the store lives in the process: a secret kept there
would be new at each start, and every snapshot saved before a restart would
be refused. When ``SECRET_KEY`` is not set either, the app keeps the secret it
generates in ``<data folder>/server-secret`` (the folder: ``MELEE_DATA_DIR``,
else ``$XDG_DATA_HOME/melee``, else ``~/.local/share/melee``;
service/settings.py), and reads it back at the next start.

- The file holds 64 hexadecimal digits (256 random bits from ``secrets``) and
  a newline; those digits are the secret, used as ``SECRET_KEY``'s text is,
  so that ``SECRET_KEY`` (or ``SECRET_KEY_FALLBACKS``) set to the file's
  content opens what was sealed under it. It is written to a temporary file of mode 0600 in the folder,
  then linked to its name, which fails if another process created it first:
  a reader never sees half a key, and two processes starting together end
  with the same one.
- A folder created here has mode 0700 (an existing one is left as it is).
- A file that cannot be read, or that does not hold such a key, stops the
  start with a ``SecretFileError`` naming the file and what to do: a new key
  would silently leave every saved snapshot unopenable.
- A folder that cannot hold the file (not creatable, read-only: a container
  image whose home is not writable) is said in the log as a warning, and the
  secret is then generated in the process, as before: nothing was ever
  sealed under a file that never existed.

``FileSecret`` is the ``SecretStore`` of ``Sealing`` (sealing.py) for that
secret: read once at start, the same for the whole life of the process.
"""

from __future__ import annotations

import logging
import os
import re
import secrets
from pathlib import Path

log = logging.getLogger(__name__)

FILE_NAME = "server-secret"
_KEY = re.compile(r"[0-9a-f]{64}")


class SecretFileError(RuntimeError):
    """The server-secret file is there but cannot be read, or does not hold a key."""


class FileSecret:
    """The secret read from (or written to) ``path`` at start; ``created``: written now."""

    def __init__(self, path: Path, secret: bytes, created: bool):
        self.path = path
        self.secret = secret
        self.created = created

    def server_secret(self, held: bytes | None = None) -> bytes:
        """The ``SecretStore`` port: the file's secret, whatever the caller holds."""
        return self.secret


def _problem(path: Path, what: str, fix: str) -> SecretFileError:
    return SecretFileError(
        f"The server secret file {path} {what}. Without it, the snapshots saved from this server cannot be "
        f"resumed. {fix}, or delete it to generate a new key (snapshots saved before then will no longer open); "
        "or set SECRET_KEY, which is then used instead (docs/operations.md)."
    )


def _read(path: Path) -> bytes:
    """The key in ``path``; FileNotFoundError (or NotADirectoryError) when there is no file."""
    try:
        text = path.read_text(encoding="ascii")
    except (FileNotFoundError, NotADirectoryError):
        raise
    except (OSError, UnicodeDecodeError) as error:
        reason = error.strerror if isinstance(error, OSError) and error.strerror else "holds bytes that are not text"
        fix = "Let the user running Melee read it" if isinstance(error, PermissionError) else "Restore it from a backup"
        raise _problem(path, f"cannot be read ({reason})", fix) from None
    key = text.strip()
    if not _KEY.fullmatch(key):
        raise _problem(path, "does not hold a key (64 hexadecimal digits)", "Restore it from a backup")
    # The digits themselves are the secret, as SECRET_KEY's text is: SECRET_KEY (or SECRET_KEY_FALLBACKS)
    # set to the file's content opens what the file's key sealed.
    return key.encode()


class _Unwritable(Exception):
    """The folder cannot hold a new file (not creatable, read-only, no hard links): ``reason`` says why."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


def _create(folder: Path, path: Path) -> bool:
    """Write a new key to ``path`` unless another process did first; True when this one did."""
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        descriptor, temporary = _temporary(folder)
    except OSError as error:
        raise _Unwritable(error.strerror or type(error).__name__) from None
    try:
        with os.fdopen(descriptor, "w", encoding="ascii") as file:
            file.write(secrets.token_hex(32) + "\n")
            file.flush()
            os.fsync(file.fileno())
        try:
            os.link(temporary, path)  # fails if the name exists: the first writer's key is kept
        except FileExistsError:
            return False
        except OSError as error:
            raise _Unwritable(error.strerror or type(error).__name__) from None
        return True
    finally:
        os.unlink(temporary)


def _temporary(folder: Path) -> tuple[int, str]:
    while True:
        temporary = folder / f".{FILE_NAME}.{secrets.token_hex(8)}"
        try:
            return os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600), str(temporary)
        except FileExistsError:
            continue


def load_or_create(folder: str | os.PathLike[str]) -> FileSecret | None:
    """The secret of ``folder/server-secret``, generated and written there if the file is missing.

    Raises ``SecretFileError`` when the file is there but unreadable or corrupt. None, with a
    warning in the log, when there is no file and the folder cannot hold one (not creatable,
    read-only): the secret is then generated in the process, as it was before this file."""
    folder = Path(folder).expanduser()
    path = folder / FILE_NAME
    created = False
    try:
        secret = _read(path)
    except (FileNotFoundError, NotADirectoryError):
        try:
            created = _create(folder, path)
        except _Unwritable as unwritable:
            log.warning(
                "SECRET_KEY is not set and the server secret cannot be kept in %s (%s): this process generates "
                "its own, so the snapshots saved from it will not open after a restart. Set MELEE_DATA_DIR to "
                "a folder the user running Melee can write, or set SECRET_KEY.",
                folder,
                unwritable.reason,
            )
            return None
        secret = _read(path)
    log.info(
        "SECRET_KEY is not set: the generated server secret is %s %s; snapshots saved from this server "
        "open after a restart as long as that file is kept. Set SECRET_KEY to use a secret of your own.",
        "kept in a new file," if created else "read from",
        path,
    )
    return FileSecret(path, secret, created)
