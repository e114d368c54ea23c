"""`bash scripts/demo.sh --check`: start the demo's JupyterLab command on a free port, check that it serves
the pt2e-lens extension and the course notebooks, then stop it. Usage: check_lab.py jupyter lab ARGS..."""

from __future__ import annotations

import secrets
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

NOTEBOOKS = ("m00_3_decomposition.ipynb", "m03_6_partial_composable_order.ipynb", "quickstart.ipynb")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def get(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=10) as r:
            return r.status, r.read().decode("utf-8", "replace")
    except OSError as e:
        return getattr(e, "code", 0) or 0, str(e)


def main(lab: list[str]) -> int:
    port, token = free_port(), secrets.token_hex(16)
    cmd = [*lab, f"--port={port}", "--ServerApp.port_retries=0", f"--IdentityProvider.token={token}"]
    log = tempfile.TemporaryFile("w+")  # a pipe nobody reads would fill up and stall the server
    server = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, text=True)
    base = f"http://127.0.0.1:{port}"
    try:
        status, page = 0, ""
        for _ in range(240):
            status, page = get(f"{base}/lab?token={token}")
            if status == 200 or server.poll() is not None:
                break
            time.sleep(0.5)
        if status != 200:
            log.seek(0)
            print(f"pt2e-lens demo check: JupyterLab did not start ({status}):\n{log.read()[-2000:]}", file=sys.stderr)
            return 1
        print(f"pt2e-lens demo check: JupyterLab answered at {base}/lab")
        problems = (
            [] if '"name": "pt2e-lens"' in page else ["the pt2e-lens labextension is not in JupyterLab's page config"]
        )
        for nb in NOTEBOOKS:
            if get(f"{base}/api/contents/{nb}?token={token}&content=0")[0] != 200:
                problems.append(f"notebook {nb} is not served")
        for p in problems:
            print(f"pt2e-lens demo check: {p}", file=sys.stderr)
        if not problems:
            print(f"pt2e-lens demo check: the extension and {len(NOTEBOOKS)} course notebooks are served")
        return 1 if problems else 0
    finally:
        server.terminate()
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()
        log.close()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
