# Sourced by the other scripts: make .venv and install the project into it,
# at the versions pinned in constraints/ (pip-compile, see constraints/README.md),
# when pyproject.toml or the pins changed since the last install.
# MELEE_EXTRAS picks what: "" (serve: the runtime only) or "dev" (test).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
python="${PYTHON:-python3}"
extras="${MELEE_EXTRAS:-}"
pins="constraints/${extras:-runtime}.txt"
if [ ! -x .venv/bin/python ]; then
  "$python" -m venv .venv
fi
stamp=".venv/.install-stamp-${extras:-runtime}"
want="$(cat pyproject.toml "$pins" | sha256sum | cut -d' ' -f1)"
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
  .venv/bin/python -m pip install --quiet --disable-pip-version-check --upgrade pip
  .venv/bin/python -m pip install --quiet --disable-pip-version-check --constraint "$pins" -e ".${extras:+[$extras]}"
  echo "$want" > "$stamp"
fi
export PATH="$root/.venv/bin:$PATH"
