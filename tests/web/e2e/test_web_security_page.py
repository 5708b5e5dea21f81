"""The pages under the security headers of issue 22, in a real Chromium: they run with the
Content-Security-Policy (no violation), their websockets pass the Origin check, and the
invitation link the server now sends relative (``/t/CODE``) is shown absolute."""

from __future__ import annotations

from typing import Any

from server_helpers import Server


def _page(chromium: Any, url: str, problems: list[str]) -> Any:
    page = chromium.new_context().new_page()
    page.on("pageerror", lambda e: problems.append(f"pageerror: {e}"))

    def console(msg: Any) -> None:
        text = msg.text
        if msg.type == "error" or "Content Security Policy" in text or "Refused to" in text:
            problems.append(f"console {msg.type}: {text}")

    page.on("console", console)
    page.goto(url)
    return page


def test_the_table_page_runs_under_the_csp_and_shows_an_absolute_link(
    server: Server, chromium: Any
) -> None:
    problems: list[str] = []
    page = _page(chromium, server.url + "/", problems)
    page.wait_for_selector("#lobby:not([hidden])")
    page.fill("#create-name", "Ana")
    page.click("#create-form button[type=submit]")
    page.wait_for_selector("#waiting:not([hidden])")  # over the websocket: Origin accepted
    code = page.text_content("#wait-code")
    assert code and len(code) == 6
    page.wait_for_timeout(1000)  # the websocket's state (its link is "/t/CODE") has come
    assert page.input_value("#wait-link") == f"{server.url}/t/{code}"
    # someone else, by the link: the same absolute link in that waiting room too
    other = _page(chromium, f"{server.url}/t/{code}", problems)
    other.wait_for_selector("#lobby:not([hidden]), #waiting:not([hidden])")
    if other.is_visible("#join-name"):
        other.fill("#join-name", "Bo")
        other.click("#join-button")
    other.wait_for_selector("#waiting:not([hidden])")
    other.wait_for_timeout(1000)
    assert other.input_value("#wait-link") == f"{server.url}/t/{code}"
    assert problems == [], problems


def test_the_companion_page_runs_under_the_csp(server: Server, chromium: Any) -> None:
    problems: list[str] = []
    page = _page(
        chromium, server.url + "/companion?rules=mattel2022&players=Ana,Bo&first=0", problems
    )
    page.wait_for_selector("[data-card]", timeout=15_000)
    page.wait_for_function("() => document.querySelector('main').dataset.state", timeout=15_000)
    assert problems == [], problems
