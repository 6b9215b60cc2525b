"""The documentation site holds (issue 42): ``make site`` (what ``make docs`` runs) fails on a
broken link or a broken anchor, tried on a tiny docs tree built with the project's own
``mkdocs.yml``; and the built site works opened from disk (``file://``: pages, not folder
listings, and search) as well as served, in headless Chromium (acceptance tier)."""

from __future__ import annotations

import functools
import os
import subprocess
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
import test_serve_browser
import yaml
from test_serve_browser import wait

REPO = Path(__file__).resolve().parent.parent
browser = test_serve_browser.browser  # the fixtures of the serve page's browser tests
screenshots = test_serve_browser.screenshots
PAGES = {
    "index.md": "# Home\n\nSee [the other page](other.md#far-below).\n",
    "other.md": "# Other\n\nSome words.\n\n## Far below\n\nMore words.\n",
}


def _tree(folder: Path, pages: dict[str, str]) -> Path:
    """A docs tree of ``pages`` with the project's mkdocs config (its theme, markdown and
    validation) but none of its hooks or pages; the config file."""
    config = yaml.safe_load((REPO / "mkdocs.yml").read_text(encoding="utf-8"))
    for key in ("hooks", "nav", "exclude_docs", "extra_css"):
        config.pop(key, None)
    docs = folder / "docs"
    docs.mkdir(parents=True)
    for name, text in pages.items():
        (docs / name).write_text(text, encoding="utf-8")
    config |= {"docs_dir": str(docs), "site_dir": str(folder / "site")}
    config["plugins"] = [p for p in config.get("plugins", []) if p != "offline"]
    path = folder / "mkdocs.yml"
    path.write_text(yaml.safe_dump(config), encoding="utf-8")
    return path


def _make_site(config: Path) -> subprocess.CompletedProcess:
    """``make site`` with ``config``: the very command ``make docs`` builds the site with."""
    return subprocess.run(
        ["make", "-s", "-C", str(REPO), "site", f"SITE_CONFIG={config}"],
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_a_sound_tree_builds(tmp_path):
    built = _make_site(_tree(tmp_path, PAGES))
    assert built.returncode == 0, built.stdout + built.stderr
    assert (tmp_path / "site" / "other.html").is_file()  # use_directory_urls: false


@pytest.mark.parametrize(
    ("page", "said"),
    [
        ("See [the other page](other.md#far-away).\n", "does not contain an anchor '#far-away'"),
        ("See [a page](gone.md).\n", "'gone.md', but the target is not found"),
    ],
    ids=["anchor", "link"],
)
def test_a_broken_anchor_or_link_fails_the_build(tmp_path, page, said):
    built = _make_site(_tree(tmp_path, {**PAGES, "index.md": "# Home\n\n" + page}))
    assert built.returncode != 0, built.stdout + built.stderr
    assert said in built.stdout + built.stderr
    assert "Aborted with 1 warnings in strict mode" in built.stdout + built.stderr


# --- the real site in a browser (acceptance) ----------------------------------------------


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The project's site, built as make docs builds it, into a folder of the test's."""
    folder = tmp_path_factory.mktemp("site") / "site"
    built = subprocess.run(
        [str(REPO / ".venv" / "bin" / "mkdocs"), "build", "--strict", "--site-dir", str(folder)],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=900,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
    )
    assert built.returncode == 0, built.stdout[-3000:] + built.stderr[-3000:]
    return folder


@pytest.fixture(scope="module")
def served(site: Path):
    """The built site served over HTTP on the loopback, as a web host would serve it."""
    handler = functools.partial(_Quiet, directory=str(site))
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:  # noqa: A002
        """No line per request on the test's output."""


def _open_and_search(browser, start: str, shots: Path, name: str) -> None:  # noqa: ANN001
    """From ``start`` (the home page): every link of the navigation is a page that is there,
    a click on one opens it with its pictures, and searching finds the calibration sheet
    and opens its page."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    browser.get(start)
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "nav.md-nav a.md-nav__link"))
    links = browser.execute_script(
        "return [...document.querySelectorAll('nav.md-nav a.md-nav__link[href]')]"
        ".map(a => a.href).filter(h => !h.includes('#'))"
    )
    assert len(links) >= 20, links
    assert all(link.split("?")[0].endswith(".html") for link in links), links
    browser.find_element(By.LINK_TEXT, "Printing").click()
    wait(browser, lambda d: d.current_url.endswith("printing.html"))
    heading = browser.find_element(By.CSS_SELECTOR, "article h1").text
    assert heading.startswith("Printing"), heading
    images = "return [...document.querySelectorAll('article img')]"
    wait(browser, lambda d: d.execute_script(images + ".every(i => i.complete)"))
    sizes = browser.execute_script(images + ".map(i => [i.getAttribute('src'), i.naturalWidth])")
    assert sizes and all(width > 0 for _, width in sizes), sizes
    field = browser.find_element(By.CSS_SELECTOR, "input.md-search__input")
    field.click()  # in the header, on a laptop's screen
    field.send_keys("calibration")
    found = "return [...document.querySelectorAll('.md-search-result__link')].map(a => a.href)"
    results = wait(browser, lambda d: d.execute_script(found))
    assert any("printing.html" in r for r in results), results
    browser.save_screenshot(str(shots / f"docs-search-{name}.png"))
    field.send_keys(Keys.ENTER)  # the first result
    wait(browser, lambda d: "printing.html" in d.current_url or "calibration" in d.current_url)


@pytest.mark.acceptance
def test_the_site_works_opened_from_disk(site, browser, screenshots):
    assert (site / "search" / "search_index.js").is_file()  # the offline plugin's index
    _open_and_search(browser, (site / "index.html").as_uri(), screenshots, "file")


@pytest.mark.acceptance
def test_the_site_works_served(served, browser, screenshots):
    _open_and_search(browser, served + "/index.html", screenshots, "served")
