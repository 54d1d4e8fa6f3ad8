"""Every deployment manifest agrees with what the service really reads and serves.

Environment variable names, ports and probe paths in deploy/docker-compose.yml,
deploy/nginx.conf, deploy/k8s/, app.json, render.yaml and the Dockerfile are
checked against Settings.ENVIRONMENT, deploy/gunicorn.conf.py and the app's
URL map; the Kubernetes manifests are validated against the Kubernetes
schemas by kubernetes-validate (offline; kubeconform is not packaged on PyPI,
npm or Debian).
"""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path
from urllib.parse import urlparse

import fakeredis
import pytest
import yaml

from service.app import create_app
from service.settings import Settings
from service.store import CombatStore

from .platform import ROOT, dockerfile_stages, image_environment, procfile

GUNICORN_CONF = ROOT / "deploy" / "gunicorn.conf.py"
K8S = ROOT / "deploy" / "k8s"


def _names(pattern: str, path: Path) -> set[str]:
    return set(re.findall(pattern, path.read_text()))


GUNICORN_ENV = _names(r"os\.environ\.get\(\s*[\"']([A-Z0-9_]+)[\"']", GUNICORN_CONF)
KNOWN_ENV = set(Settings.ENVIRONMENT) | GUNICORN_ENV
DEFAULT_PORT = re.search(r"get\('PORT', '(\d+)'\)", GUNICORN_CONF.read_text()).group(1)
DEFAULT_GRACEFUL = int(re.search(r"GUNICORN_GRACEFUL_TIMEOUT\", \"(\d+)\"", GUNICORN_CONF.read_text()).group(1))


@pytest.fixture(scope="module")
def routes() -> set[str]:
    app = create_app(Settings(), store=CombatStore(fakeredis.FakeRedis(server=fakeredis.FakeServer()), 60))
    return {rule.rule for rule in app.url_map.iter_rules() if "GET" in rule.methods}


def seconds(value: str) -> float:
    match = re.fullmatch(r"(\d+)(ms|s|m)?", str(value))
    number, unit = int(match.group(1)), match.group(2) or "s"
    return number / 1000 if unit == "ms" else number * 60 if unit == "m" else number


# --- the list of variables itself --------------------------------------------


def test_settings_lists_every_variable_it_reads():
    source = ROOT / "service" / "settings.py"
    read = _names(r"env\.get\(\s*\"([A-Z0-9_]+)\"", source) | _names(r"\(env, \"([A-Z0-9_]+)\"", source)
    assert read == set(Settings.ENVIRONMENT)
    assert {
        "PORT",
        "WEB_CONCURRENCY",
        "GUNICORN_GRACEFUL_TIMEOUT",
        "REDIS_URL",
        "PROMETHEUS_MULTIPROC_DIR",
    } <= GUNICORN_ENV


def test_every_variable_is_documented():
    readme = (ROOT / "README.md").read_text()
    operations = (ROOT / "docs" / "operations.md").read_text()
    for name in sorted(KNOWN_ENV):
        assert f"`{name}`" in readme, f"{name} is missing from the README's configuration table"
        assert f"`{name}`" in operations, f"{name} is missing from docs/operations.md"


# --- Dockerfile --------------------------------------------------------------


def test_dockerfile_is_multi_stage_small_non_root_with_a_healthcheck(routes):
    global_args, stages = dockerfile_stages()
    assert len(stages) >= 2, "multi-stage: build, then a runtime stage"
    final = stages[-1]
    assert final.base == stages[0].base, "the runtime stage starts from the same slim Python image"
    assert "slim" in global_args.get("PYTHON_IMAGE", final.base)
    text = " ".join(rest for _, rest in final.instructions)
    for tool in ("apt-get install", "gcc", "build-essential", "make "):
        assert tool not in text, f"{tool!r} in the runtime image"
    assert any("--from=build" in rest for rest in final.all("COPY"))
    user = final.one("USER").split(":")[0]
    assert user.isdigit() and int(user) != 0, "a numeric non-root user (Kubernetes runAsNonRoot can check it)"
    env = image_environment(final)
    assert final.one("EXPOSE") == env["PORT"] == DEFAULT_PORT
    assert set(env) - {"PATH", "PYTHONUNBUFFERED", "PYTHONDONTWRITEBYTECODE"} <= KNOWN_ENV
    path = re.search(r"/(\w+)'", final.one("HEALTHCHECK")).group(0).strip("'")
    assert path in routes
    assert final.one("CMD").startswith("["), "exec form: gunicorn is PID 1"


def test_dockerignore_keeps_the_context_small():
    ignored = (ROOT / ".dockerignore").read_text().split()
    for entry in (".git", ".venv", "tests", "docs"):
        assert entry in ignored
    _, stages = dockerfile_stages()
    for stage in stages:
        for rest in stage.all("COPY"):
            if "--from" in rest:
                continue
            for source in rest.split()[:-1]:
                assert source.split("/")[0] not in ignored, f"COPY {source} is excluded by .dockerignore"


# --- Compose and nginx ---------------------------------------------------------


def test_compose_runs_redis_with_aof_and_several_replicas_behind_a_proxy():
    compose = yaml.safe_load((ROOT / "deploy" / "docker-compose.yml").read_text())
    services = compose["services"]
    redis_service = services["redis"]
    command = redis_service["command"]
    assert command[command.index("--appendonly") + 1] == "yes", "Redis persistence: AOF"
    assert any(volume.endswith(":/data") for volume in redis_service["volumes"])

    api = services["api"]
    env = api["environment"]
    assert set(env) <= KNOWN_ENV, set(env) - KNOWN_ENV
    redis_url = urlparse(env["REDIS_URL"])
    assert redis_url.scheme == "redis" and redis_url.hostname in services
    assert api["deploy"]["replicas"] >= 2
    assert "ports" not in api, "replicas are reached through the proxy, not on a host port"
    port = env.get("PORT", DEFAULT_PORT)
    assert [str(p) for p in api["expose"]] == [port]
    assert int(env["PROXY_FIX_HOPS"]) == 1, "one proxy in front"
    if api.get("read_only"):
        assert "/tmp" in api["tmpfs"] and env["PROMETHEUS_MULTIPROC_DIR"].startswith("/tmp/")
    assert seconds(api["stop_grace_period"]) > DEFAULT_GRACEFUL

    proxy = services["proxy"]
    [mount] = [v for v in proxy["volumes"] if "nginx.conf" in v]
    nginx = (ROOT / "deploy" / mount.split(":")[0]).read_text()
    assert f"http://api:{port}" in nginx
    assert "X-Forwarded-For" in nginx and "X-Request-ID" in nginx
    assert "proxy_buffering off;" in nginx, "event streams (/stream) must not be buffered"
    [body_size] = re.findall(r"client_max_body_size (\d+)m;", nginx)
    assert int(body_size) * 1024 * 1024 > Settings().max_snapshot_bytes, "a snapshot to restore reaches the API"
    assert proxy["ports"]


def test_compose_has_a_tls_front_for_a_real_domain():
    compose = yaml.safe_load((ROOT / "deploy" / "docker-compose.yml").read_text())
    services = compose["services"]
    tls = services["tls"]
    assert tls["image"] == "caddy:2"
    assert tls["profiles"] == ["tls"], "opt-in: the plain compose keeps serving http on 8000"
    assert "MELEE_DOMAIN" in tls["environment"]
    assert {"80:80", "443:443"} <= set(tls["ports"]), "ports 80 and 443: the ACME challenge and https"
    assert any(volume.endswith(":/data") for volume in tls["volumes"]), "certificates kept across restarts"
    assert set(tls["depends_on"]) == {"api"}
    [mount] = [v for v in tls["volumes"] if "Caddyfile" in v]
    source, target = mount.split(":")[:2]
    assert target == "/etc/caddy/Caddyfile"
    caddyfile = (ROOT / "deploy" / source).read_text()
    lines = [line.strip() for line in caddyfile.splitlines()]
    assert "{$MELEE_DOMAIN} {" in lines, "the site is the domain the operator names"
    assert "# tls internal" in lines, "the local alternative is there, commented"
    assert "tls internal" not in lines, "automatic HTTPS (a real certificate) by default"
    port = services["api"]["environment"].get("PORT", DEFAULT_PORT)
    assert "name api" in lines and f"port {port}" in lines, "every API replica, on the API's port"
    assert "flush_interval -1" in lines, "event streams must not be buffered"
    assert int(services["api"]["environment"]["PROXY_FIX_HOPS"]) == 1, "Caddy is one proxy in front, as nginx"
    assert set(compose["volumes"]) >= {v.split(":")[0] for v in tls["volumes"] if not v.startswith(".")}


# --- Kubernetes ----------------------------------------------------------------


def k8s_documents() -> list[dict]:
    kustomization = yaml.safe_load((K8S / "kustomization.yaml").read_text())
    documents = []
    for resource in kustomization["resources"]:
        documents.extend(d for d in yaml.safe_load_all((K8S / resource).read_text()) if d)
    return documents


def by_kind(documents: list[dict]) -> dict[str, dict]:
    """The API's documents by kind (the worker's and Redis's have names of their own)."""
    kinds: dict[str, dict] = {}
    for document in documents:
        if document["metadata"]["name"] != "melee" and document["kind"] in (
            "Deployment",
            "HorizontalPodAutoscaler",
            "Service",
        ):
            continue
        assert document["kind"] not in kinds, f"two {document['kind']}s"
        kinds[document["kind"]] = document
    return kinds


def named(documents: list[dict], kind: str, name: str) -> dict:
    [document] = [d for d in documents if d["kind"] == kind and d["metadata"]["name"] == name]
    return document


def test_kustomization_lists_every_manifest():
    kustomization = yaml.safe_load((K8S / "kustomization.yaml").read_text())
    assert kustomization["kind"] == "Kustomization"
    on_disk = {p.name for p in K8S.glob("*.yaml")} - {"kustomization.yaml"}
    assert set(kustomization["resources"]) == on_disk
    kinds = {(d["kind"], d["metadata"]["name"]) for d in k8s_documents()}
    assert kinds == {
        ("ConfigMap", "melee-config"),
        ("Secret", "melee-secrets"),
        ("Deployment", "melee"),
        ("Service", "melee"),
        ("HorizontalPodAutoscaler", "melee"),
        ("PodDisruptionBudget", "melee"),
        ("Ingress", "melee"),
        ("Service", "melee-redis"),
        ("StatefulSet", "melee-redis"),
        ("Deployment", "melee-worker"),
        ("HorizontalPodAutoscaler", "melee-worker"),
    }


def test_k8s_deployment_matches_the_service(routes):
    kinds = by_kind(k8s_documents())
    config, secret, deployment = kinds["ConfigMap"], kinds["Secret"], kinds["Deployment"]
    pod = deployment["spec"]["template"]
    [container] = pod["spec"]["containers"]

    # Configuration: only variables the service reads, from this ConfigMap and Secret.
    refs = {next(iter(ref)): ref[next(iter(ref))]["name"] for ref in container["envFrom"]}
    assert refs == {"configMapRef": config["metadata"]["name"], "secretRef": secret["metadata"]["name"]}
    names = set(config["data"]) | set(secret.get("stringData", {})) | {e["name"] for e in container.get("env", [])}
    assert names <= KNOWN_ENV, names - KNOWN_ENV
    assert "REDIS_URL" in secret["stringData"], "the Redis URL (a credential) comes from the Secret"

    # Ports and probes.
    [port] = container["ports"]
    assert str(port["containerPort"]) == config["data"].get("PORT", DEFAULT_PORT)
    probes = {kind: container[kind]["httpGet"] for kind in ("readinessProbe", "livenessProbe", "startupProbe")}
    assert probes["readinessProbe"]["path"] == "/readyz"
    assert probes["livenessProbe"]["path"] == "/healthz"
    for probe in probes.values():
        assert probe["path"] in routes and probe["port"] == port["name"]
    annotations = pod["metadata"]["annotations"]
    assert annotations["prometheus.io/path"] in routes | {"/metrics"}
    assert annotations["prometheus.io/port"] == str(port["containerPort"])

    # Resources and security.
    for kind in ("requests", "limits"):
        assert {"cpu", "memory"} <= set(container["resources"][kind])
    security = container["securityContext"]
    assert security["readOnlyRootFilesystem"] is True and security["allowPrivilegeEscalation"] is False
    assert security["runAsNonRoot"] is True and pod["spec"]["securityContext"]["runAsNonRoot"] is True
    _, stages = dockerfile_stages()
    assert str(pod["spec"]["securityContext"]["runAsUser"]) == stages[-1].one("USER").split(":")[0]

    # Read-only root: the metrics directory lives on a mounted emptyDir.
    volumes = {v["name"]: v for v in pod["spec"]["volumes"]}
    metrics_dir = config["data"]["PROMETHEUS_MULTIPROC_DIR"]
    mounts = [m for m in container["volumeMounts"] if metrics_dir.startswith(m["mountPath"].rstrip("/") + "/")]
    assert mounts and "emptyDir" in volumes[mounts[0]["name"]]

    # Shutdown: the pod is given longer than preStop + gunicorn's graceful timeout.
    pre_stop = container["lifecycle"]["preStop"]["exec"]["command"]
    assert pre_stop[0] == "sleep"
    graceful = int(config["data"].get("GUNICORN_GRACEFUL_TIMEOUT", DEFAULT_GRACEFUL))
    assert pod["spec"]["terminationGracePeriodSeconds"] > int(pre_stop[1]) + graceful


def test_k8s_service_hpa_and_pdb_point_at_the_deployment():
    kinds = by_kind(k8s_documents())
    deployment = kinds["Deployment"]
    labels = deployment["spec"]["template"]["metadata"]["labels"]
    assert deployment["spec"]["selector"]["matchLabels"].items() <= labels.items()
    [container] = deployment["spec"]["template"]["spec"]["containers"]
    port_names = {p["name"] for p in container["ports"]}

    service = kinds["Service"]
    assert service["spec"]["selector"].items() <= labels.items()
    assert all(p["targetPort"] in port_names for p in service["spec"]["ports"])

    hpa = kinds["HorizontalPodAutoscaler"]
    target = hpa["spec"]["scaleTargetRef"]
    assert (target["kind"], target["name"]) == ("Deployment", deployment["metadata"]["name"])
    assert 2 <= hpa["spec"]["minReplicas"] <= hpa["spec"]["maxReplicas"]

    pdb = kinds["PodDisruptionBudget"]
    assert pdb["spec"]["selector"]["matchLabels"].items() <= labels.items()
    assert pdb["spec"]["minAvailable"] < hpa["spec"]["minReplicas"], "a drain must be able to evict a pod"


def test_k8s_worker_runs_the_worker_with_the_api_configuration():
    documents = k8s_documents()
    api = named(documents, "Deployment", "melee")["spec"]["template"]["spec"]
    worker = named(documents, "Deployment", "melee-worker")
    pod = worker["spec"]["template"]
    [container] = pod["spec"]["containers"]
    assert container["command"] == ["python", "-m", "service.jobs.worker"] == procfile()["worker"].split()
    assert container["image"] == api["containers"][0]["image"]
    assert container["envFrom"] == api["containers"][0]["envFrom"]
    assert "ports" not in container
    assert worker["spec"]["selector"]["matchLabels"].items() <= pod["metadata"]["labels"].items()
    assert pod["metadata"]["labels"]["app.kubernetes.io/component"] == "worker", "not behind the API's Service"
    assert container["securityContext"]["readOnlyRootFilesystem"] is True
    assert pod["spec"]["securityContext"]["runAsNonRoot"] is True
    target = named(documents, "HorizontalPodAutoscaler", "melee-worker")["spec"]["scaleTargetRef"]
    assert (target["kind"], target["name"]) == ("Deployment", "melee-worker")


def test_k8s_redis_keeps_an_append_only_file_on_a_claim_behind_the_secret_url():
    documents = k8s_documents()
    statefulset = named(documents, "StatefulSet", "melee-redis")
    [container] = statefulset["spec"]["template"]["spec"]["containers"]
    args = container["args"]
    assert args[args.index("--appendonly") + 1] == "yes"
    assert args[args.index("--maxmemory-policy") + 1] == "noeviction", "combats must not be evicted"
    [claim] = statefulset["spec"]["volumeClaimTemplates"]
    [mount] = container["volumeMounts"]
    assert mount["name"] == claim["metadata"]["name"] and mount["mountPath"] == args[args.index("--dir") + 1]
    service = named(documents, "Service", "melee-redis")
    assert statefulset["spec"]["serviceName"] == service["metadata"]["name"]
    assert service["spec"]["selector"].items() <= statefulset["spec"]["template"]["metadata"]["labels"].items()
    url = urlparse(by_kind(documents)["Secret"]["stringData"]["REDIS_URL"])
    assert (url.hostname, url.port) == (service["metadata"]["name"], service["spec"]["ports"][0]["port"])


def test_k8s_ingress_lets_event_streams_through():
    documents = k8s_documents()
    ingress = named(documents, "Ingress", "melee")
    annotations = ingress["metadata"]["annotations"]
    assert annotations["nginx.ingress.kubernetes.io/proxy-buffering"] == "off"
    assert int(annotations["nginx.ingress.kubernetes.io/proxy-read-timeout"]) >= 3600
    assert int(annotations["nginx.ingress.kubernetes.io/proxy-send-timeout"]) >= 3600
    body_size = annotations["nginx.ingress.kubernetes.io/proxy-body-size"]
    assert int(body_size.removesuffix("m")) * 1024 * 1024 > Settings().max_snapshot_bytes, "a snapshot reaches the API"
    [rule] = ingress["spec"]["rules"]
    service = by_kind(documents)["Service"]
    for path in rule["http"]["paths"]:
        assert path["backend"]["service"]["name"] == service["metadata"]["name"]
        assert path["backend"]["service"]["port"]["name"] in {p["name"] for p in service["spec"]["ports"]}


# The app's paths that stay inside the cluster: the scrape and the probes.
INTERNAL_PATHS = {"/metrics", "/healthz", "/readyz"}


def ingress_routes(ingress: dict, path: str) -> bool:
    """Whether one of the Ingress's paths routes ``path`` (Exact, or Prefix by path elements)."""
    [rule] = ingress["spec"]["rules"]
    for entry in rule["http"]["paths"]:
        if entry["pathType"] == "Exact" and path == entry["path"]:
            return True
        prefix = entry["path"].rstrip("/")
        if entry["pathType"] == "Prefix" and (path == prefix or path.startswith(prefix + "/")):
            return True
    return False


def test_k8s_ingress_routes_the_public_paths_only():
    app = create_app(Settings(), store=CombatStore(fakeredis.FakeRedis(server=fakeredis.FakeServer()), 60))
    # Every path the app serves, its variables filled in (/combats/<combat_id> -> /combats/x).
    served = {re.sub(r"<[^>]+>", "x", rule.rule) for rule in app.url_map.iter_rules()}
    ingress = named(k8s_documents(), "Ingress", "melee")
    assert INTERNAL_PATHS <= served
    # "/" is the landing page (public, Exact): a path below it is not routed.
    for path in sorted(INTERNAL_PATHS | {"/metrics/x", "/combatsx", "/.env", "/x"}):
        assert not ingress_routes(ingress, path), f"the Ingress routes {path}"
    # Flask's default /static/<path> serves nothing of Melee's (/play and /docs serve their own files).
    public = served - INTERNAL_PATHS - {"/static/x"}
    assert {p for p in public if not ingress_routes(ingress, p)} == set(), "public paths the Ingress drops"
    assert all(ingress_routes(ingress, p) for p in ("/combats/x/stream", "/play/x", "/docs/static/x", "/openapi.json"))


def test_k8s_ingress_has_a_host_and_tls_placeholders():
    ingress = named(k8s_documents(), "Ingress", "melee")
    [rule] = ingress["spec"]["rules"]
    assert rule["host"].endswith(".example.com"), "a placeholder an overlay replaces"
    [tls] = ingress["spec"]["tls"]
    assert tls["hosts"] == [rule["host"]] and tls["secretName"]
    operations = (ROOT / "docs" / "operations.md").read_text()
    assert rule["host"] in operations and tls["secretName"] in operations


def test_k8s_image_is_one_kustomize_setting_and_its_build_is_documented():
    documents = k8s_documents()
    containers = [
        named(documents, "Deployment", name)["spec"]["template"]["spec"]["containers"][0]
        for name in ("melee", "melee-worker")
    ]
    assert {c["image"] for c in containers} == {"melee"}, "the bare name kustomize's images: replaces"
    kustomization = yaml.safe_load((K8S / "kustomization.yaml").read_text())
    [image] = kustomization["images"]
    assert image["name"] == "melee"
    registry, _, repository = image["newName"].rpartition("/")
    assert "." in registry and repository == "melee", "a registry path, not a local name"
    version = re.search(r'^version = "([^"]+)"', (ROOT / "pyproject.toml").read_text(), re.M).group(1)
    assert image["newTag"] == version
    operations = (ROOT / "docs" / "operations.md").read_text()
    assert f"docker push {image['newName']}:{version}" in operations
    assert f"kustomize edit set image melee={image['newName']}:{version}" in operations.replace("<tag>", version)


def test_k8s_manifests_validate_against_the_kubernetes_schemas():
    kubernetes_validate = pytest.importorskip("kubernetes_validate")
    for document in k8s_documents():
        kubernetes_validate.validate(document, kubernetes_validate.latest_version(), strict=True)


def test_the_validator_rejects_a_broken_manifest():
    kubernetes_validate = pytest.importorskip("kubernetes_validate")
    deployment = copy.deepcopy(by_kind(k8s_documents())["Deployment"])
    deployment["spec"]["template"]["spec"]["containers"][0]["readinessProbe"]["httpGet"]["port"] = {"not": "a port"}
    deployment["spec"]["replicas"] = "two"
    with pytest.raises(kubernetes_validate.ValidationError):
        kubernetes_validate.validate(deployment, kubernetes_validate.latest_version(), strict=True)


# --- PaaS ------------------------------------------------------------------------


def test_procfile_runs_gunicorn_with_the_config_that_reads_port():
    web = procfile()["web"]
    assert web.startswith("gunicorn ") and "--config deploy/gunicorn.conf.py" in web
    assert {"PORT", "WEB_CONCURRENCY"} <= GUNICORN_ENV


def test_procfile_and_compose_run_the_simulation_worker():
    assert procfile()["worker"] == "python -m service.jobs.worker"
    services = yaml.safe_load((ROOT / "deploy" / "docker-compose.yml").read_text())["services"]
    worker = services["worker"]
    assert worker["command"] == procfile()["worker"].split()
    assert worker["build"] == services["api"]["build"], "the API's image"
    assert set(worker["environment"]) <= KNOWN_ENV
    assert worker["environment"]["REDIS_URL"] == services["api"]["environment"]["REDIS_URL"]
    assert "ports" not in worker and "expose" not in worker
    assert worker["healthcheck"] == {"disable": True}, "the image's HEALTHCHECK is the web's"


def test_app_json_provisions_redis_and_sets_only_known_variables():
    manifest = json.loads((ROOT / "app.json").read_text())
    assert "web" in manifest["formation"] and "web" in procfile()
    assert "worker" in manifest["formation"] and "worker" in procfile()
    assert any(addon["plan"].startswith("heroku-redis") for addon in manifest["addons"]), (
        "a Redis add-on sets REDIS_URL"
    )
    assert set(manifest["env"]) <= KNOWN_ENV, set(manifest["env"]) - KNOWN_ENV
    assert manifest["env"]["REDIS_SSL_CERT_REQS"]["value"] in ("required", "optional", "none")
    assert Settings.from_env({k: v.get("value", "") for k, v in manifest["env"].items()})
    # One server secret for every dyno, not one generated in Redis (lost with it: docs/security.md).
    assert manifest["env"]["SECRET_KEY"] == {**manifest["env"]["SECRET_KEY"], "generator": "secret"}
    assert (ROOT / "requirements.txt").exists() and (ROOT / ".python-version").exists()


def test_render_yaml_runs_the_procfile_command_with_a_key_value_as_redis_url(routes):
    blueprint = yaml.safe_load((ROOT / "render.yaml").read_text())
    services = {s["name"]: s for s in blueprint["services"]}
    [web] = [s for s in services.values() if s["type"] == "web"]
    assert web["startCommand"] == procfile()["web"]
    assert web["healthCheckPath"] in routes
    env = {e["key"]: e for e in web["envVars"]}
    assert set(env) <= KNOWN_ENV, set(env) - KNOWN_ENV
    source = env["REDIS_URL"]["fromService"]
    assert services[source["name"]]["type"] == source["type"] == "keyvalue"
    assert source["property"] == "connectionString"
    assert services[source["name"]]["maxmemoryPolicy"] == "noeviction", "combats must not be evicted"
    assert "ipAllowList" in services[source["name"]]
    assert Settings.from_env({k: str(v["value"]) for k, v in env.items() if "value" in v})
    assert env["SECRET_KEY"].get("generateValue") is True, "one server secret for every worker, out of Redis"
    [worker] = [s for s in services.values() if s["type"] == "worker"]
    assert worker["startCommand"] == procfile()["worker"]
    assert worker["buildCommand"] == web["buildCommand"]
    worker_env = {e["key"]: e for e in worker["envVars"]}
    assert set(worker_env) <= KNOWN_ENV and worker_env["REDIS_URL"] == env["REDIS_URL"]
