"""openapi/openapi.json passes Redocly's recommended rules and Spectral's spectral:oas.

0 errors and 0 warnings; the only problems ignored are listed, each with its
reason, in .redocly.lint-ignore.yaml beside this file.
"""

import json

from .conftest import SPEC, run


def test_redocly_recommended_reports_nothing(npm_tools):
    done = run([npm_tools / "redocly", "lint", SPEC, "--extends", "recommended", "--format", "json"])
    report = json.loads(done.stdout)
    problems = [
        (p["ruleId"], p["severity"], p["message"], p["location"][0]["pointer"])
        for p in report["problems"]
        if not p.get("ignored")
    ]
    assert problems == [], problems
    assert report["totals"]["errors"] == report["totals"]["warnings"] == 0
    assert done.returncode == 0, done.stderr


def test_spectral_oas_reports_nothing(npm_tools, tmp_path):
    report = tmp_path / "spectral.json"
    done = run(
        [
            npm_tools / "spectral",
            "lint",
            SPEC,
            "--ruleset",
            ".spectral.yaml",
            "--format",
            "json",
            "--output",
            report,
            "--fail-severity",
            "hint",
        ]
    )
    problems = [(p["code"], p["message"], ".".join(map(str, p["path"]))) for p in json.loads(report.read_text())]
    assert problems == [], problems
    assert done.returncode == 0, done.stderr
