"""Drive the explorer's page in headless Chromium: shared by ``tests/test_explorer_page.py`` and ``bench.py``.

:class:`Server` starts ``deckstat explore`` in a process of its own, as a player does; :func:`launch` starts
Chromium (Debian's, or ``$DECKSTAT_CHROMIUM``) through Playwright; :func:`timed_change` changes an input in the page
and times, in the page itself, how long the page takes to show other numbers.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: Chromium as root in a container, with no network beyond this machine (its background fetches fail loudly).
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-sync",
                 "--disable-background-networking", "--disable-component-update"]
#: Sets an input's value, fires an event on it, and waits (frame by frame) until the odds table of the page shows
#: other numbers; returns the milliseconds it took, -1 after the time allowed. Panel draws each view in a shadow
#: root of its own, so the table is looked for through them.
CHANGE_AND_WAIT = """
async ([input, value, kind, patience]) => {
  const find = (root, selector) => {
    const found = root.querySelector(selector);
    if (found) return found;
    for (const element of root.querySelectorAll('*')) {
      if (element.shadowRoot) { const inner = find(element.shadowRoot, selector); if (inner) return inner; }
    }
    return null;
  };
  const read = () => {
    const table = find(document, 'table.deckstat-odds-table');
    return table ? Array.from(table.querySelectorAll('td[data-p]'), cell => cell.dataset.p).join() : '';
  };
  const before = read();
  const start = performance.now();
  input.value = value;
  input.dispatchEvent(new Event(kind, {bubbles: true}));
  while (read() === before) {
    await new Promise(resolve => requestAnimationFrame(resolve));
    if (performance.now() - start > patience) return -1;
  }
  return performance.now() - start;
}
"""


def chromium() -> str | None:
    """The Chromium to drive: ``$DECKSTAT_CHROMIUM``, else ``chromium`` on the PATH."""
    return os.environ.get("DECKSTAT_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")


def launch(playwright):
    """Headless Chromium, started by Playwright from the machine's own binary (Playwright downloads none here)."""
    return playwright.chromium.launch(executable_path=chromium(), args=CHROMIUM_ARGS)


class Server:
    """``deckstat explore DECK --game GAME`` in a process of its own, on a free port of 127.0.0.1.

    ``deck=None`` serves the echo page of this module instead (:func:`serve_echo`): the same round trip through
    Panel with nothing computed, the page's floor.
    """

    def __init__(self, deck: Path | None, *args: str, game: str = "wankul"):
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        command = ([sys.executable, "-m", "deckstat", "explore", str(deck), "--game", game, "--no-browser", *args]
                   if deck is not None else [sys.executable, __file__, "--echo"])
        self.process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                        text=True, env=env)
        self.said: list[str] = []
        self._reader: threading.Thread | None = None
        for line in self.process.stdout:
            self.said.append(line)
            found = re.search(r"http://127\.0\.0\.1:\d+/", line)
            if found:
                self.url = found.group(0)
                # What it says later is kept (a full pipe would stop the server).
                self._reader = threading.Thread(target=lambda: self.said.extend(self.process.stdout), daemon=True)
                self._reader.start()
                return
        self.stop()
        raise RuntimeError("the explorer did not start: " + "".join(self.said))

    def stop(self) -> None:
        """End the server and wait for it."""
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        if self._reader is not None:
            self._reader.join(timeout=10)
        # Closing the pipe while the reader still reads it would wait for that read, which ends only when every
        # process holding the other end (the server's helper, say) has ended: left to the daemon reader instead.
        if self._reader is None or not self._reader.is_alive():
            self.process.stdout.close()

    def __enter__(self) -> Server:
        return self

    def __exit__(self, *exc) -> None:
        self.stop()


def timed_change(page, element, value: str, event: str, patience: float) -> float:
    """Set ``element``'s value and fire ``event`` in ``page``; the seconds until its odds table changes.

    Timed in the page itself (``performance.now``, polled each frame), so the figure is what a player waits,
    without the driver's own round trips.

    Raises
    ------
    TimeoutError
        When the table has not changed within ``patience`` seconds.
    """
    milliseconds = page.evaluate(CHANGE_AND_WAIT, [element.element_handle(), value, event, patience * 1000])
    if milliseconds < 0:
        raise TimeoutError(f"the page's table did not change within {patience} s")
    return milliseconds / 1000


def serve_echo() -> None:
    """Serve a page whose event box is echoed into a table as the explorer's odds table is (nothing computed)."""
    import panel as pn

    from deckstat.explorer.app import listening_port

    def page():
        box = pn.widgets.TextInput(label="event", css_classes=["deckstat-event"])
        box._debounce = 0  # as the explorer's widgets
        table = pn.pane.HTML("<table class='deckstat-odds-table'><tr><td data-p='0'>0</td></tr></table>")

        def echo(event) -> None:
            table.object = (f"<table class='deckstat-odds-table'><tr><td data-p='{len(event.new)}'>"
                            f"{len(event.new)}</td></tr></table>")

        box.param.watch(echo, "value_input")
        return pn.Column(box, table)

    port = listening_port("127.0.0.1", 0)
    server = pn.serve({"/": page}, port=port, address="127.0.0.1", show=False, start=False, verbose=False,
                      websocket_origin=[f"127.0.0.1:{port}"])
    server.start()
    print(f"echo page at http://127.0.0.1:{port}/", flush=True)
    server.io_loop.start()


if __name__ == "__main__" and sys.argv[1:] == ["--echo"]:
    serve_echo()
