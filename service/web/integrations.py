"""The VTT modules, served by the deployment itself: installable from one URL.

- ``GET /integrations/foundry/module.json``: the Foundry VTT module's manifest
  (integrations/foundry-vtt, built and checked in under ``integrations/foundry-vtt/``
  here), its ``manifest`` and ``download`` made absolute URLs of this deployment,
  and ``flags.melee.url`` this deployment's address, which the module takes as the
  default of its "Melee URL" setting. Pasted in Foundry's *Install Module* dialog,
  it installs the module already pointed at this Melee.
- ``GET /integrations/foundry/melee.zip``: the archive that manifest downloads,
  made here with zipfile from the same files (the manifest in it is the one above).
- ``GET /integrations/owlbear-rodeo/<path>``: the Owlbear Rodeo extension's built
  files (integrations/owlbear-rodeo, checked in under ``integrations/owlbear-rodeo/``):
  its ``manifest.json``, page, script and icon.

Where those URLs point: ``PUBLIC_URL`` when it is set (whatever Host the request
carries). Without it, the request's own URL root (its Host header, and the scheme
``PROXY_FIX_HOPS`` lets a TLS proxy forward), which the client chose: such an answer
is sent with ``Cache-Control: no-store``, so that no cache or proxy keeps a manifest
made from a spoofed Host and serves it to anyone else. CORS headers are the app's
own, on every answer.
"""

from __future__ import annotations

import io
import json
import time
import zipfile
from pathlib import Path, PurePosixPath

from flask import Response, current_app, request, send_from_directory
from flask.views import MethodView
from flask_smorest import Blueprint, abort
from werkzeug.exceptions import NotFound

HERE = Path(__file__).parent / "integrations"
FOUNDRY = HERE / "foundry-vtt"
OWLBEAR = HERE / "owlbear-rodeo"
FOUNDRY_FILES = ("module.json", "dist/melee.mjs", "lang/en.json", "lang/fr.json", "lang/pt-BR.json", "README.md")
ZIP_NAME = "melee.zip"
EARLIEST_ZIP_DATE = time.mktime((1980, 1, 1, 0, 0, 0, 0, 0, -1))  # a zip entry's dates start there

# The types an extension's files are served with, whatever the host's /etc/mime.types says
# (some name .js application/javascript); anything else is guessed from its name.
TYPES = {
    ".html": "text/html",
    ".js": "text/javascript",
    ".mjs": "text/javascript",
    ".css": "text/css",
    ".json": "application/json",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".webp": "image/webp",
}

blp = Blueprint(
    "integrations",
    __name__,
    url_prefix="/integrations",
    description="The VTT modules, served by this deployment: installable by one URL.",
)


def _deployment() -> tuple[str, bool]:
    """This deployment's address, without a trailing slash, and whether it came from the request
    (its Host header: the answer must not be cached) rather than PUBLIC_URL."""
    public_url = current_app.extensions["melee.settings"].public_url
    return (public_url, False) if public_url else (request.url_root.rstrip("/"), True)


def _made_for(response: Response, from_request: bool) -> Response:
    if from_request:
        response.headers["Cache-Control"] = "no-store"
    return response


def foundry_manifest(deployment: str) -> dict:
    """The module's module.json, pointed at ``deployment``."""
    manifest = json.loads((FOUNDRY / "module.json").read_text(encoding="utf-8"))
    manifest["manifest"] = f"{deployment}/integrations/foundry/module.json"
    manifest["download"] = f"{deployment}/integrations/foundry/{ZIP_NAME}"
    flags = manifest.setdefault("flags", {})
    flags.setdefault("melee", {})["url"] = deployment
    return manifest


def foundry_zip(deployment: str) -> bytes:
    """The module's files under ``melee/``, its manifest pointed at ``deployment``; each entry dated
    by its file (a valid date: a zero one reads as 1980-00-00, which installers refuse)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name in FOUNDRY_FILES:
            path = FOUNDRY / name
            modified = time.localtime(max(path.stat().st_mtime, EARLIEST_ZIP_DATE))
            entry = zipfile.ZipInfo(f"melee/{name}", date_time=modified[:6])
            entry.compress_type = zipfile.ZIP_DEFLATED
            entry.external_attr = 0o644 << 16
            if name == "module.json":
                data = json.dumps(foundry_manifest(deployment), ensure_ascii=False, indent=2).encode()
            else:
                data = path.read_bytes()
            archive.writestr(entry, data)
    return buffer.getvalue()


@blp.route("/foundry/module.json")
class FoundryManifest(MethodView):
    @blp.doc(
        operationId="getFoundryModuleManifest",
        summary="The Foundry VTT module's manifest, pointed at this deployment",
        description=(
            "The Melee module's module.json for Foundry VTT v13: paste this URL in Foundry's Install Module dialog. "
            "Its manifest and download are URLs of this deployment, and flags.melee.url its address, the default of "
            "the module's Melee URL setting: PUBLIC_URL when the deployment sets it, else the address the request "
            "reached (then sent with Cache-Control: no-store). Public."
        ),
        responses={200: {"description": "The module's manifest.", "content": {"application/json": {}}}},
    )
    def get(self):
        deployment, from_request = _deployment()
        return _made_for(current_app.json.response(foundry_manifest(deployment)), from_request)


@blp.route(f"/foundry/{ZIP_NAME}")
class FoundryArchive(MethodView):
    @blp.doc(
        operationId="getFoundryModuleArchive",
        summary="The Foundry VTT module's archive, as its manifest downloads it",
        description="The module's files under melee/ (module.json, dist/melee.mjs, lang/, README.md). Public.",
        responses={200: {"description": "A zip archive.", "content": {"application/zip": {}}}},
    )
    def get(self):
        deployment, from_request = _deployment()
        archive = Response(
            foundry_zip(deployment),
            mimetype="application/zip",
            headers={"Content-Disposition": f'attachment; filename="{ZIP_NAME}"'},
        )
        return _made_for(archive, from_request)


@blp.route("/owlbear-rodeo/<path:filename>")
class OwlbearFiles(MethodView):
    @blp.doc(
        operationId="getOwlbearRodeoExtensionFile",
        summary="A file of the Owlbear Rodeo extension (its manifest.json, page, script, icon)",
        description=(
            "Add /integrations/owlbear-rodeo/manifest.json of this deployment as an extension in Owlbear Rodeo. "
            "A file the extension does not have is a 404 problem. Public."
        ),
        responses={200: {"description": "The file, with its content type."}},
    )
    def get(self, filename: str):
        # Only the kinds of file a built extension has: the folder's README.md (a note for developers)
        # is not served, however the path spells it ("x/../README.md", "./README.md").
        kind = TYPES.get(PurePosixPath(filename).suffix.lower())
        if kind is None:
            abort(404, message="The Owlbear Rodeo extension has no such file.")
        try:
            return send_from_directory(OWLBEAR, filename, mimetype=kind)
        except NotFound:
            abort(404, message="The Owlbear Rodeo extension has no such file.")
