"""``GET /version``: the package version and the git commit being run.

The commit comes from the environment (``GIT_COMMIT``, or the platforms'
``SOURCE_VERSION`` on Heroku and ``RENDER_GIT_COMMIT`` on Render), else from
``git rev-parse HEAD`` run once at startup when the code sits in a git
checkout, else "unknown". ``VERSION_COMMIT`` says how much of it is shown:
the first 7 characters (the default: enough to find it, not the full id
for anyone who scans), all of it, or nothing ("hidden"). The OpenAPI document carries the version only, so
that the checked-in document does not change with every commit.
"""

from __future__ import annotations

import functools
import shutil
import subprocess
from importlib import metadata
from pathlib import Path

from flask import current_app
from flask.views import MethodView
from flask_smorest import Blueprint
from marshmallow import Schema, fields

from .. import __version__

blp = Blueprint("version", __name__, description="What is running.")

UNKNOWN = "unknown"
HIDDEN = "hidden"
SHORT_COMMIT = 7


class Version(Schema):
    version = fields.String(
        required=True, metadata={"description": "The package version (semantic versioning).", "example": __version__}
    )
    commit = fields.String(
        required=True,
        metadata={
            "description": "The git commit of the running code (its first 7 characters unless the deployment shows it "
            'all), "unknown", or "hidden".',
            "example": UNKNOWN,
        },
    )


def package_version() -> str:
    try:
        return metadata.version("melee")
    except metadata.PackageNotFoundError:
        return __version__


@functools.cache
def git_commit(from_env: str | None) -> str:
    if from_env:
        return from_env.strip()
    git = shutil.which("git")
    if git is None:
        return UNKNOWN
    try:
        result = subprocess.run(
            [git, "rev-parse", "HEAD"],
            cwd=Path(__file__).resolve().parent,
            capture_output=True,
            text=True,
            timeout=2,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return UNKNOWN
    commit = result.stdout.strip()
    return commit if result.returncode == 0 and commit else UNKNOWN


def shown_commit(commit: str, how: str) -> str:
    if commit == UNKNOWN or how == "full":
        return commit
    return HIDDEN if how == "none" else commit[:SHORT_COMMIT]


@blp.route("/version")
class VersionView(MethodView):
    @blp.doc(
        operationId="getVersion",
        summary="The package version and the git commit being run",
        description="What this process runs, to tell deployments apart. Public.",
    )
    @blp.response(200, Version)
    def get(self):
        return current_app.extensions["melee.version"]
