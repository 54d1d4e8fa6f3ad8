import asyncio, os, subprocess, sys, tempfile, time
from pathlib import Path
from bench.streams import Server, create_combats, run
from bench.redis_server import redis_url

with redis_url() as url:
    env = {"REDIS_URL": url, "RATE_LIMIT": "", "MAX_STREAMS_PER_ADDRESS": "2000", "COMBAT_TTL_SECONDS": "120", "WEB_CONCURRENCY": "1"}
    with Server("service.app:create_app()", env) as melee:
        combats = create_combats(melee, 200, 7000)
        workers = [p.name for p in Path("/proc").iterdir() if p.name.isdigit() and (p / "stat").exists() and (p/"stat").read_text().rsplit(")",1)[1].split()[1] == str(melee.process.pid)]
        print("worker", workers)
        import threading
        box = {}
        def later():
            time.sleep(9)
            box["spy"] = subprocess.Popen([".venv/bin/py-spy", "record", "-p", workers[0], "-d", "10", "-r", "200", "-f", "raw", "-o", "/tmp/prof.raw"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        threading.Thread(target=later).start()
        result = asyncio.run(run(melee, combats, 16, int(sys.argv[1]), 25))
        box["spy"].wait()
        print(result)
