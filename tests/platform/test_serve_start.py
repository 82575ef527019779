"""A production process (`python -m cargosite.serve`) loads the URLconf and the API before
uvicorn takes its first request (cargosite/serve.py, `warm_up`; docs/api.md, "The export's
figures"), so that request does not pay for the import."""

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# Run in a fresh interpreter: this test process has long since imported everything.
PROBE = """
import json, sys
import uvicorn
from cargosite import serve

LOADED = ("cargosite.urls", "api.site", "api.endpoints.export", "api.endpoints.play",
          "api.endpoints.streams", "ninja")

def loaded():
    return {name: name in sys.modules for name in LOADED}

seen = {}
import cargosite.asgi  # what the process had before serve.main's start-up
seen["after_asgi"] = loaded()

def run(app, **options):  # uvicorn's serving loop: the first request would come now
    seen["at_run"] = loaded()
    seen["app"] = app is cargosite.asgi.application

uvicorn.run = run
serve.main(["--port", "1"])
print(json.dumps(seen))
"""


def test_the_urlconf_and_the_api_are_loaded_before_the_first_request():
    env = {**os.environ, "UVICORN_LOG_LEVEL": "warning"}
    out = subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, env=env, check=True,
                         capture_output=True, text=True, timeout=120).stdout
    seen = json.loads(out.strip().splitlines()[-1])
    assert seen["app"]
    # The ASGI application alone does not load them: a request would, on its own time.
    assert not any(seen["after_asgi"][name] for name in ("cargosite.urls", "api.site"))
    assert all(seen["at_run"].values()), seen["at_run"]
