"""A fake OpenAI-compatible chat endpoint on loopback, scripted per request (for tests)."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

GOOD = {
    "object_identified": "a red mug",
    "intent": "catch it with both hands",
    "confidence": 0.8,
    "walking_cmd": [0.2, 0.0, 0.0],
    "walking_duration": 0.5,
    "keyframes": [
        {"t": 0.4, "left_hand": [0.4, 0.1, -0.2], "right_hand": [0.4, -0.1, -0.2], "knee_bend": 0.0}
    ],
}


class Script:
    """What the fake endpoint answers, request by request, and what it was sent."""

    def __init__(self) -> None:
        self.responses: list[tuple] = []
        self.requests: list[dict] = []
        self.lock = threading.Lock()
        self.default: tuple = ("reply", "")  # once the scripted responses run out
        self.delay = 0.0  # seconds before every answer (a model's latency)
        self.url = ""  # the endpoint's base URL once served (``serve``)


class Waits(list):
    """The model client's waits between tries, recorded instead of slept: ``ModelClient(...,
    sleep=Waits())`` (no test then waits, or depends on how busy the machine is)."""

    async def __call__(self, seconds: float) -> None:
        self.append(seconds)


USAGE = {"prompt_tokens": 100, "completion_tokens": 20, "total_tokens": 120, "cost": 0.0005}


def completion(content: Any, usage: Any = None) -> bytes:
    """A chat completion whose message content and usage are given as they are: a string,
    or what a sloppy or hostile server sends (a list of parts, NaN counts)."""
    return json.dumps(
        {
            "id": "chatcmpl-1",
            "object": "chat.completion",
            "created": 0,
            "model": "fake",
            "choices": [
                {
                    "index": 0,
                    "finish_reason": "stop",
                    "message": {"role": "assistant", "content": content},
                }
            ],
            "usage": USAGE if usage is None else usage,
        }
    ).encode()


def make_handler(script: Script):
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *_args):
            pass

        def do_POST(self):
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            with script.lock:
                script.requests.append({"auth": self.headers.get("Authorization"), "body": body})
                kind, *args = script.responses.pop(0) if script.responses else script.default
            time.sleep(script.delay)
            if kind == "drop":
                self.close_connection = True
                self.connection.close()
                return
            if kind == "sleep":
                time.sleep(args[0])
                kind, args = "reply", [json.dumps(GOOD)]
            if kind == "together":  # ("together", barrier): answered once all are in flight
                try:
                    args[0].wait(timeout=60)
                    kind, args = "reply", [json.dumps(GOOD)]
                except threading.BrokenBarrierError:
                    kind, args = "status", [500, {}, '{"error": {"message": "alone"}}']
            if kind == "drip":  # ("drip", interval, count): a byte at a time, count bytes
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(args[1]))
                self.end_headers()
                try:
                    for _ in range(args[1]):
                        self.wfile.write(b" ")
                        self.wfile.flush()
                        time.sleep(args[0])
                except OSError:  # the client gave up
                    pass
                return
            if kind == "reply":
                data, status, headers = completion(args[0]), 200, {}
            elif kind == "body":  # ("body", text): the whole response body as given
                data, status, headers = args[0].encode(), 200, {}
            elif kind == "bytes":  # ("bytes", status, headers, data): any bytes, any headers
                status, headers, data = args
            else:  # ("status", code, headers, body)
                status, headers, data = args[0], args[1], args[2].encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            for name, value in headers.items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(data)

    return Handler


class Endpoint(ThreadingHTTPServer):
    # http.server listens with a backlog of 5: with 16 clients connecting at once, the
    # connections beyond it wait on the kernel's SYN retries (1 s, 3 s, 7 s ...), which on a
    # loaded machine can pass a client's timeout before the server sees the request.
    request_queue_size = 128


def serve(script: Script) -> Endpoint:
    """Serve ``script`` on 127.0.0.1 from a daemon thread; sets ``script.url`` (the /v1 base
    URL). ``shutdown()`` the returned server when done."""
    httpd = Endpoint(("127.0.0.1", 0), make_handler(script))
    # Polling at 0.5 s (the default) made every shutdown wait half a second.
    threading.Thread(target=httpd.serve_forever, args=(0.05,), daemon=True).start()
    script.url = f"http://127.0.0.1:{httpd.server_address[1]}/v1"
    return httpd


# The client's retries as a loopback endpoint needs them: 0.01 s backoff (not 1 s, doubling)
# and a 30 s deadline, so a CLI run whose every reply is unusable takes seconds, not minutes.
QUICK_RETRIES = (
    "import sys; from reacthuman.brain.client import ModelClient; "
    "ModelClient.__init__.__kwdefaults__.update(backoff=0.01, max_backoff=0.05, deadline=30.0); "
    "from reacthuman.cli import main; sys.exit(main(sys.argv[1:]))"
)


def run_cli_quick(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    """``reacthuman ARGS`` in a fresh process, as a user runs it, but with the model client's
    backoff and deadline shortened (``QUICK_RETRIES``)."""
    return subprocess.run(
        [sys.executable, "-c", QUICK_RETRIES, *args],
        capture_output=True, text=True, env=env, timeout=300,
    )  # fmt: skip
