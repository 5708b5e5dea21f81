"""A hostile client for the flood test (test_web_limits.py), run as its own process:

    python tests/web/flooder.py WS_URL SOURCE_ADDRESS SECONDS MAX_MESSAGES

Sends MAX_MESSAGES messages spread over SECONDS (pings, garbage, messages just under and
over the size limit: hundreds a second, far over any rate limit), never reading what comes back, and reconnects whenever the
server closes it; stops by itself after SECONDS or MAX_MESSAGES. Prints "ready" once
connected, then one JSON line: messages sent, connections, close codes seen.
Loopback only.
"""

from __future__ import annotations

import json
import sys
import time
from collections import Counter

from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidStatus
from websockets.sync.client import connect


def main() -> None:
    url, source, seconds, limit = sys.argv[1], sys.argv[2], float(sys.argv[3]), int(sys.argv[4])
    assert url.startswith("ws://127.") and source.startswith("127."), "loopback only"
    payloads = [
        json.dumps({"type": "ping", "id": 1}),
        "{not json",
        json.dumps({"type": "move", "move": "7", "version": 3}),
        json.dumps({"type": "hello", "lang": "xx"}),
        "x" * 3000,
        "y" * 9000,  # over the 4 KiB message limit
    ]
    sent = 0
    conns = 0
    codes: Counter[str] = Counter()
    start = time.monotonic()
    deadline = start + seconds
    rate = limit / seconds  # spread over the whole time: a steady flood
    ready = False
    while sent < limit and time.monotonic() < deadline:
        try:
            with connect(
                url, source_address=(source, 0), open_timeout=5, close_timeout=1, max_queue=None
            ) as ws:
                conns += 1
                if not ready:
                    print("ready", flush=True)
                    ready = True
                while sent < limit and time.monotonic() < deadline:
                    ws.send(payloads[sent % len(payloads)])
                    sent += 1
                    ahead = start + sent / rate - time.monotonic()
                    if ahead > 0.002:
                        time.sleep(ahead)
        except (InvalidHandshake, InvalidStatus, TimeoutError):
            codes["refused"] += 1
            time.sleep(0.05)
            continue
        except ConnectionClosed as e:
            rcvd = e.rcvd
            codes[str(rcvd.code if rcvd is not None else "none")] += 1
        except OSError:
            codes["reset"] += 1
        time.sleep(0.01)
    if not ready:
        print("ready", flush=True)
    print(json.dumps({"sent": sent, "connections": conns, "closes": dict(codes)}), flush=True)


if __name__ == "__main__":
    main()
