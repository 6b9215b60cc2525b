"""The preview's state: one ``Session`` per way of seeing a game (its settings), planned
again whenever a file of the game changes, its state published to every page that watches.

All the engine's work (loading, planning, drawing pictures, writing the pack's PDF) happens
in one thread, the one that calls ``Preview.run`` (the main thread: the templates' time
budget is a signal there, and Ctrl-C reaches it); the server's threads only read published
state and pictures, or hand that thread a job and wait for it.
"""

from __future__ import annotations

import contextlib
import functools
import json
import queue
import sys
import threading
import time
import traceback
from collections import OrderedDict
from collections.abc import Callable, Iterator
from concurrent.futures import Future
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

from generator.art import clock
from generator.check.printing import check_printing
from generator.check.verdict import judge, translation_problems
from generator.errors import SpecError, SpecFailure
from generator.layout.pack import Pack
from generator.model.gamefolders import MAX_WATCHED
from generator.model.loader import Game
from generator.model.sizes import paper_sizes
from generator.output.pdf import write as write_pdf
from generator.output.shop import ShopPage
from generator.plan.games import load_games
from generator.plan.pipeline import plan_pack
from generator.serve.memo import MAX_SERVED_FILES, Folder, Memo, MemoRenderer
from generator.serve.pictures import Pictures, piece_pngs, sheet_png
from generator.serve.settings import Settings
from generator.serve.view import describe, error_record

T = TypeVar("T")
MAX_SESSIONS = 8  # ways of seeing a game kept at once (languages, papers...)
KEPT_PLANS = 2  # plans of a session whose pictures can still be drawn on request
WAIT_SECONDS = 120  # how long a request waits for the engine (a large game's first plan)
IDLE_SECONDS = 0.2  # how often the engine's thread looks up from an empty queue
CUT_MESSAGE = (
    f"the game folder holds more than {MAX_WATCHED:,} folders or {MAX_SERVED_FILES:,} files: "
    "the preview follows the first of them only"
)
PICTURES_PER_JOB = 24  # pictures drawn in one go: the page's own requests get in between


def failure_record(exc: Exception, root: Path) -> dict:
    """A plan that failed outside the game's own errors, as the page shows it: a file that
    could not be read is named with the system's reason (a message, not a crash); anything
    else is the preview's own failure, told on standard error with its traceback."""
    if isinstance(exc, OSError):
        where = Path(exc.filename) if exc.filename else None
        shown = where.relative_to(root).as_posix() if where and where.is_relative_to(root) else ""
        reason = exc.strerror or str(exc)
        return {"file": shown, "line": None, "message": f"cannot be read: {reason}"}
    traceback.print_exc(file=sys.stderr)
    message = f"internal error of the preview: {type(exc).__name__}: {exc}"
    return {"file": "", "line": None, "message": message}


@dataclass
class Planned:
    """One plan of a game: the game and pack (None where it failed), the renderer that drew
    it and every spec error found."""

    game: Game | None
    pack: Pack | None = None
    renderer: MemoRenderer | None = None
    errors: list[SpecError] = field(default_factory=list)


class Session:
    """One way of seeing one game: its last published state (JSON), its last good view, and
    the plans whose pictures can still be drawn."""

    def __init__(self, number: int, settings: Settings, root: Path):
        self.number = number
        self.settings = settings
        self.root = root
        self.version = 0
        self.state = b""
        self.busy = False
        self.good: dict | None = None  # the view of the last plan without errors
        self.languages: list[str] = []
        self.stamp = ""  # the game's files as last planned (Folder.everything)
        self.queued = False
        self.begun = 0  # plans begun: each reads the game's files after it begins
        self.finished = 0  # the last plan looked at (one whose files had not changed counts)
        self.watchers = 0
        self.plans: OrderedDict[int, Pack] = OrderedDict()
        self.pdfs: dict[int, Path] = {}
        self.pages: dict[str, tuple[int, int]] = {}  # sheet picture -> (plan, page number)
        self.sides: dict[str, tuple[int, ShopPage]] = {}  # piece picture -> (plan, side)
        self.changed = threading.Condition()

    def publish(self, state: dict) -> None:
        """Make ``state`` the session's, as the next version, and wake every page's stream."""
        with self.changed:
            self.version += 1
            self.state = json.dumps({**state, "version": self.version}).encode()
            self.busy = False
            self.changed.notify_all()

    def set_busy(self) -> None:
        """Say that a plan has begun (the pages show it)."""
        with self.changed:
            self.busy = True
            self.changed.notify_all()

    def wait(self, seen: tuple[int, bool], timeout: float, closing: threading.Event) -> None:
        """Until the state or its busyness is not ``seen`` any more (or ``timeout``)."""
        with self.changed:
            self.changed.wait_for(
                lambda: (self.version, self.busy) != seen or closing.is_set(), timeout
            )

    def keep(self, serial: int, pack: Pack, pages: dict[str, int], sides: dict) -> None:
        """Keep plan ``serial`` to draw its pictures on request; forget the oldest."""
        self.plans[serial] = pack
        self.pages.update({key: (serial, number) for key, number in pages.items()})
        self.sides.update({key: (serial, side) for key, side in sides.items()})
        while len(self.plans) > KEPT_PLANS:
            old, _ = self.plans.popitem(last=False)
            self.forget(old)

    def forget(self, serial: int) -> None:
        """Drop what plan ``serial`` left: its PDF and the pictures only it could draw."""
        self.plans.pop(serial, None)
        pdf = self.pdfs.pop(serial, None)
        if pdf is not None:
            pdf.unlink(missing_ok=True)
        self.pages = {k: v for k, v in self.pages.items() if v[0] != serial}
        self.sides = {k: v for k, v in self.sides.items() if v[0] != serial}


class Preview:
    """The games served, their sessions, and the engine's queue of work."""

    def __init__(
        self,
        roots: list[Path],
        base: Settings,
        back_offset: tuple[float, float],
        cache: Path,
        progress: Callable[[str, int], Callable[[str], None]] | None = None,
    ):
        """``progress(label, total)`` gives what hears of each picture drawn (a terminal's
        bar): none by default."""
        self.roots = {root.name: root.resolve() for root in roots}
        self.base = base
        self.back_offset = back_offset
        self.cache = cache
        self.progress = progress or (lambda label, total: lambda what: None)
        self.papers = list(paper_sizes())
        self.memo = Memo()
        self.pictures = Pictures()
        self.sessions: OrderedDict[Settings, Session] = OrderedDict()
        self.closing = threading.Event()
        self._jobs: queue.Queue[tuple[Callable[[], object], Future]] = queue.Queue()
        self._lock = threading.Lock()
        self._serial = 0

    # --- what the server's threads ask ---------------------------------------------------

    def session(self, settings: Settings, check: bool = True) -> Session:
        """The session of ``settings``, made if new; with ``check``, a plan is queued if it
        is new or its game's files changed since its last plan."""
        with self._lock:
            session = self.sessions.get(settings)
            if session is None:
                self._serial += 1
                session = Session(self._serial, settings, self.roots[settings.game])
                self.sessions[settings] = session
                self._evict(session)
            self.sessions.move_to_end(settings)
        if check and (not session.version or self._stale(session)):
            self._queue(session)
        return session

    def state(self, settings: Settings) -> bytes:
        """The session's state as of its game's files now: when they changed since its last
        plan (or it is new), a plan begun after this call is waited for, so the state holds
        every write made before it (a plan already running may have read the files first)."""
        session = self.session(settings, check=False)
        if session.version and not session.queued and not self._stale(session):
            return session.state
        with self._lock:
            after = session.begun
        self._queue(session)
        with session.changed:
            session.changed.wait_for(
                lambda: session.finished > after or self.closing.is_set(), WAIT_SECONDS
            )
        return session.state

    @contextlib.contextmanager
    def watching(self, settings: Settings) -> Iterator[Session]:
        """A page listening for the session's changes: while it does, a change of the game's
        files plans the session again at once."""
        session = self.session(settings)
        with self._lock:
            session.watchers += 1
        try:
            yield session
        finally:
            with self._lock:
                session.watchers -= 1

    def picture(self, key: str) -> bytes | None:
        """A picture by its key: kept, or drawn now if a kept plan names it; else None."""
        found = self.pictures.get(key)
        if found is not None:
            return found
        with self._lock:
            owner = next(
                (s for s in self.sessions.values() if key in s.pages or key in s.sides), None
            )
        if owner is None:
            return None
        return self.submit(lambda: self._draw_picture(owner, key)).result(WAIT_SECONDS)

    def changed(self, names: set[str]) -> None:
        """Files of the games ``names`` changed: plan again every session a page watches."""
        with self._lock:
            watched = [s for s in self.sessions.values() if s.settings.game in names and s.watchers]
        for session in watched:
            self._queue(session)

    def close(self) -> None:
        """Stop: the engine's thread returns and every page's stream ends."""
        self.closing.set()
        for session in list(self.sessions.values()):
            with session.changed:
                session.changed.notify_all()

    # --- the engine's thread -------------------------------------------------------------

    def submit(self, job: Callable[[], T]) -> Future:
        """Have the engine's thread do ``job``; its future."""
        future: Future = Future()
        self._jobs.put((job, future))
        return future

    def run(self) -> None:
        """Do the queued jobs, one at a time, until ``close``."""
        while not self.closing.is_set():
            try:
                job, future = self._jobs.get(timeout=IDLE_SECONDS)
            except queue.Empty:
                continue
            if not future.set_running_or_notify_cancel():
                continue
            try:
                future.set_result(job())
            except Exception as exc:  # a job's own failure goes to whoever waits for it
                future.set_exception(exc)

    @staticmethod
    def _stale(session: Session) -> bool:
        """Whether the game's files are not those the session last planned."""
        return Folder.read(session.root).everything != session.stamp

    def _queue(self, session: Session) -> None:
        """Queue a plan of the session, unless one is queued already."""
        with self._lock:
            if session.queued:
                return
            session.queued = True
        self.submit(lambda: self._refresh(session))

    def _evict(self, made: Session) -> None:
        """Forget the least recently used sessions no page watches, past ``MAX_SESSIONS``;
        never ``made``, the one being made (a ninth page would otherwise wait on a session
        already forgotten)."""
        idle = [s for s in self.sessions.values() if not s.watchers and s is not made]
        while len(self.sessions) > MAX_SESSIONS and idle:
            session = idle.pop(0)
            del self.sessions[session.settings]
            for serial in list(session.plans):
                session.forget(serial)

    def _refresh(self, session: Session) -> None:
        """Plan the session's game again if its files changed, publish the new state, then
        draw the pictures it names that are new (the page asks for them at once: its
        requests wait behind these jobs, or draw one picture each if they come first). A
        failure of the preview itself is published too (and told on standard error)."""
        with self._lock:
            session.queued = False
            session.begun += 1
            number = session.begun
        try:
            wanted = self._look(session)
        finally:
            with session.changed:
                session.finished = number
                session.changed.notify_all()
        serial = next(reversed(session.plans), None)
        tick = self.progress(f"drawing {session.settings.game}", len(wanted))
        for start in range(0, len(wanted), PICTURES_PER_JOB):
            chunk = wanted[start : start + PICTURES_PER_JOB]
            self.submit(functools.partial(self._draw_pieces, session, serial, chunk, tick))

    def _look(self, session: Session) -> list[tuple[str, ShopPage]]:
        """Plan and publish, if the files changed; the pictures the new state wants."""
        folder = Folder.read(session.root)
        if folder.everything == session.stamp and session.version:
            return []
        session.set_busy()
        wanted: list[tuple[str, ShopPage]] = []
        try:
            state, wanted = self._plan_and_describe(session, folder)
        except Exception as exc:
            errors = [failure_record(exc, session.root)]
            state = self._state(session, errors, session.good)
        session.stamp = folder.everything
        session.publish({**state, "files": folder.stamps()})
        return wanted

    def _plan_and_describe(
        self, session: Session, folder: Folder
    ) -> tuple[dict, list[tuple[str, ShopPage]]]:
        """Plan the game and judge it; the state to publish and the pictures to draw."""
        started = time.perf_counter()
        planned = self.plan(session.settings, folder)
        timings: dict[str, float] = {"plan": time.perf_counter() - started}
        errors = [error_record(e, session.root) for e in planned.errors]
        if folder.cut:
            errors.append({"file": "", "line": None, "message": CUT_MESSAGE})
        if planned.game is not None:
            session.languages = list(planned.game.spec.languages)
        view: dict | None = None
        wanted: list[tuple[str, ShopPage]] = []
        if planned.pack is not None and (not errors or session.good is None):
            view, wanted = self._describe(session, planned, folder)
            if not errors:
                session.good = view
        timings["total"] = time.perf_counter() - started
        timings["drawn"] = len(wanted)
        partial = view is not None and bool(errors)
        return self._state(session, errors, view or session.good, partial, timings), wanted

    def plan(self, settings: Settings, folder: Folder) -> Planned:
        """Load and plan the game as ``pnp build`` does, its renders taken from the memo
        where nothing they see changed; every spec error, none raised."""
        root = self.roots[settings.game]
        try:
            language = settings.language or None
            loaded = load_games(root.parent, (root.name,), language, defer=True)
        except SpecFailure as exc:
            return Planned(None, errors=exc.errors)
        errors = list(loaded.deferred)
        if not loaded.games:
            return Planned(None, errors=list(dict.fromkeys(errors)))
        game = loaded.games[0]
        renderer = MemoRenderer(game, settings.ink_saver, self.memo, folder.look)
        options = settings.options(self.back_offset)
        try:
            with clock.new_build():
                pack = plan_pack(game, settings.paper or game.spec.paper, options, renderer)
        except SpecFailure as exc:
            return Planned(game, None, renderer, list(dict.fromkeys([*errors, *exc.errors])))
        return Planned(game, pack, renderer, list(dict.fromkeys(errors)))

    def _describe(
        self, session: Session, planned: Planned, folder: Folder
    ) -> tuple[dict, list[tuple[str, ShopPage]]]:
        """Judge the pack as ``pnp check`` does and describe it; the view, and the pieces'
        pictures it names that are not drawn yet."""
        game, pack, renderer = planned.game, planned.pack, planned.renderer
        assert game is not None and pack is not None and renderer is not None
        untranslated = translation_problems(game) if session.settings.language else 0
        verdict = judge(game, pack.overflows, check_printing(pack), untranslated)
        with self._lock:
            self._serial += 1
            serial = self._serial
        drawn = describe(pack, verdict, renderer, folder, serial)
        session.keep(serial, pack, drawn.pages, dict(drawn.wanted))
        wanted = [(key, side) for key, side in drawn.wanted if key not in self.pictures]
        return drawn.view, wanted

    def _draw_pieces(
        self,
        session: Session,
        serial: int | None,
        sides: list[tuple[str, ShopPage]],
        tick: Callable[[str], None],
    ) -> None:
        """Draw the pieces' sides of a kept plan that are not drawn yet, in one go; ``tick``
        hears of each side of ``sides``, drawn now or before."""
        pack = session.plans.get(serial) if serial is not None else None
        missing = [(key, side) for key, side in sides if key not in self.pictures]
        if pack is not None and missing:
            drawn = piece_pngs(pack, [s for _, s in missing])
            for (key, _), data in zip(missing, drawn, strict=True):
                self.pictures.put(key, data)
        for _, side in sides:
            tick(f"{side.component} {side.name}")

    def _draw_picture(self, session: Session, key: str) -> bytes | None:
        """A picture a kept plan names but that is not kept (yet): a sheet's page, rendered
        from the plan's PDF (written now if need be), or a piece's side."""
        found = self.pictures.get(key)
        if found is not None:
            return found
        if key in session.sides:
            serial, side = session.sides[key]
            pack = session.plans.get(serial)
            data = piece_pngs(pack, [side])[0] if pack is not None else None
        elif key in session.pages:
            serial, number = session.pages[key]
            pdf = self._pdf(session, serial)
            data = sheet_png(pdf, number) if pdf is not None else None
        else:
            return None
        if data is not None:
            self.pictures.put(key, data)
        return data

    def _pdf(self, session: Session, serial: int) -> Path | None:
        """The PDF of a kept plan, as ``pnp build`` writes it, in the preview's own folder."""
        if serial in session.pdfs:
            return session.pdfs[serial]
        pack = session.plans.get(serial)
        if pack is None:
            return None
        path = self.cache / f"pack-{session.number}-{serial}.pdf"
        write_pdf(pack, path)
        session.pdfs[serial] = path
        return path

    def _state(
        self,
        session: Session,
        errors: list[dict],
        view: dict | None = None,
        partial: bool = False,
        timings: dict | None = None,
    ) -> dict:
        """What the page is told: the settings and choices, the errors, the view shown (the
        last good one while there are errors, marked stale) and the verdict: the check
        passes only with no error beside it, whatever the view shown says."""
        return {
            "settings": session.settings.as_query(),
            "games": list(self.roots),
            "papers": self.papers,
            "languages": session.languages,
            "errors": errors,
            "passed": not errors and view is not None and bool(view["check"]["passed"]),
            "stale": bool(errors) and view is not None and not partial,
            "partial": partial,
            "view": view,
            "timings": timings or {},
            "at": time.strftime("%H:%M:%S"),
        }
