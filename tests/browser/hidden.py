"""The hidden-information scan of pages and fragments, as tests/api/secrets_scan.py does for
the API: no shuffle key, no draw order, and in a blind game before the end no card a
player may not see (rules P23: collections, the unseen set, reduced log entries)."""

import json
import re
from dataclasses import dataclass
from html.parser import HTMLParser

from core.redaction import redact_text
from games import events, fairness
from games.kinds.piratz import rules as piratz
from games.models import Game
from games.movelog import public_log
from tests.api.secrets_scan import _contains_run, assert_no_secrets

# How a card id shows in a page: in words ("1 coin, rat (#2)", also in aria-labels and
# titles), on a drawn card (data-card="2"), or as the value a move form posts for it (an
# input or an option of a select named bury or keep).
CARD_IN_WORDS = re.compile(r"\(#(\d+)\)")
CARD_FIELDS = {"bury", "keep"}
# Any whole number in a page, for the raw-order check: four cards of the draw pile's top
# in order among a page's numbers is a leak however it was written (a comment, a data
# attribute, a script), and no page's own numbers make that run by chance.
NUMBER = re.compile(r"(?<![\w.])\d+(?![\w.])")
RAW_RUN = 4
VERSION_PATTERNS = re.compile(r"data-version=\"(\d+)\"|\"version\":\s*(\d+)")


class _CardIdReader(HTMLParser):
    """Collects card ids in document order (see ``card_ids``)."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.ids: list[int] = []
        self.select: str | None = None  # the name of the select being read

    def _add(self, value: str | None) -> None:
        if value and value.isdigit():
            self.ids.append(int(value))

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        for name, value in attrs:
            if name in ("data-card", "data-card-id"):
                self._add(value)
            elif value:
                self.ids.extend(int(found) for found in CARD_IN_WORDS.findall(value))
        if tag == "select":
            self.select = attributes.get("name")
        else:
            field = self.select if tag == "option" else attributes.get("name")
            if tag in ("option", "input") and field in CARD_FIELDS:
                self._add(attributes.get("value"))

    def handle_endtag(self, tag):
        if tag == "select":
            self.select = None

    def handle_data(self, data):
        self.ids.extend(int(found) for found in CARD_IN_WORDS.findall(data))


def card_ids(body: str) -> list[int]:
    """The card ids ``body`` mentions, in document order; one card said several ways in a
    row (its drawing, its label, its title) counts once, so an order shows as a run."""
    reader = _CardIdReader()
    reader.feed(body)
    reader.close()
    return [card for i, card in enumerate(reader.ids) if i == 0 or reader.ids[i - 1] != card]


def _ids_in(value) -> set[int]:
    """Every card id in a view or log value (cards are dicts with an ``id``; bury/keep ints)."""
    found: set[int] = set()
    if isinstance(value, dict):
        if "id" in value and "treasures" in value:
            found.add(value["id"])
        for key, item in value.items():
            if key in ("bury", "keep") and isinstance(item, int):
                found.add(item)
            else:
                found |= _ids_in(item)
    elif isinstance(value, list):
        for item in value:
            found |= _ids_in(item)
    return found


@dataclass(frozen=True)
class Snapshot:
    """What was secret, and what the viewer could see, at one version of the game."""

    state: piratz.State
    draw: list[int]
    blind_and_running: bool
    visible: frozenset[int]  # every card id the viewer may see at this version
    server_seed: str | None  # the game's server seed while secret (games.fairness)


class HiddenInformationScan:
    """A scanner (see conftest.Visitor.scanners) for one game as the player at ``seat``.

    A body is judged against the game as it was at the version the body names
    (``data-version`` or a JSON ``version``), else the current one: pages that refresh
    themselves may be read after a later move was played.
    """

    def __init__(self, game_id, seat: int | None):
        self.game_id = game_id
        self.seat = seat
        self.snapshots: dict[int, Snapshot] = {}
        self.scanned = 0
        # Every version as it is written (in the server's thread, inside the move's
        # transaction): the live table fetches pages that are scanned a few moves later.
        events.move_applied.connect(self._on_move)

    def _on_move(self, sender, *, game: Game, **kwargs) -> None:
        if game.id == self.game_id:
            self.snapshot(game)

    def snapshot(self, game: Game | None = None) -> tuple[int, Snapshot | None]:
        """The current version's snapshot (taken now, and kept for later bodies)."""
        game = game or Game.objects.get(id=self.game_id)
        if game.state is None:
            return game.version, None
        if game.version not in self.snapshots:
            state = game.load_state()
            view = piratz.view(state, self.seat)
            log = public_log(game, self.seat)
            self.snapshots[game.version] = Snapshot(
                state=state,
                draw=list(piratz.dump(state)["draw"]),
                blind_and_running=game.blind and game.is_active,
                visible=frozenset(_ids_in(view) | _ids_in(log)),
                server_seed=None if fairness.seed_is_public(game) else game.server_seed,
            )
        return game.version, self.snapshots[game.version]

    def __call__(self, url: str, body: str, content_type: str) -> None:
        url = redact_text(url)  # for the messages: no live link token in a test report
        _version, snapshot = self.snapshot()
        named = VERSION_PATTERNS.search(body)
        if named:
            snapshot = self.snapshots.get(int(next(g for g in named.groups() if g)), snapshot)
        if snapshot is None:
            return  # not started: nothing dealt, nothing secret yet
        self.scanned += 1
        # The API's scan: the shuffle key, a "draw" field, JSON lists in draw order, and
        # in blind mode collections and the unseen set that must be null.
        assert_no_secrets(
            body,
            snapshot.state,
            blind_viewer=snapshot.blind_and_running,
            server_seed=snapshot.server_seed,
        )
        # A top of the pile that happens to lie in increasing order is what the unseen
        # set, listed by id, may show: that state is not judged (the pile moves on).
        ids = card_ids(body)
        top = snapshot.draw[:3]
        if len(top) == 3 and top != sorted(top):
            assert not _contains_run(ids, top), f"{url}: the draw order leaked"
        numbers = [int(found) for found in NUMBER.findall(body)]
        top = snapshot.draw[:RAW_RUN]
        if len(top) == RAW_RUN and top != sorted(top):
            assert not _contains_run(numbers, top), f"{url}: the draw order leaked as numbers"
        if snapshot.blind_and_running:
            shown = set(ids) - snapshot.visible
            assert not shown, f"{url}: blind game shows cards {sorted(shown)} before the end"
        if content_type.startswith("application/json"):
            json.loads(body)  # a fragment the page reads must be what it says it is


# --- Rattenscharf: the pile's order is the one secret (R33) ---------------------------------

# A strip id as a page says it: drawn (data-strip="17") or in words ("Strip 17", "strip 17").
STRIP_IN_PAGE = re.compile(r'data-strip="(\d+)"|[Ss]trip (\d+)')


def strip_ids(body: str) -> list[int]:
    """The strip ids ``body`` mentions, in document order; one strip said several ways in a
    row (its drawing, its label, its title) counts once, so an order shows as a run."""
    found = [int(a or b) for a, b in STRIP_IN_PAGE.findall(body)]
    return [strip for i, strip in enumerate(found) if i == 0 or found[i - 1] != strip]


class PileOrderScan:
    """A scanner (see conftest.Visitor.scanners) for one Rattenscharf game: no page or
    fragment shows the draw pile's order, as strip ids or as raw numbers, nor a ``pile``
    field. The hand and the unseen set (the pile sorted by id) are public; a run of the
    pile that is itself in increasing order is what any sorted list shows, so it is not
    judged. Bodies are judged against the game at the version they name, as above."""

    def __init__(self, game_id):
        self.game_id = game_id
        self.piles: dict[int, list[int]] = {}
        self.scanned = 0
        events.move_applied.connect(self._on_move)  # as HiddenInformationScan's

    def _on_move(self, sender, *, game: Game, **kwargs) -> None:
        if game.id == self.game_id:
            self.pile(game)

    def pile(self, game: Game | None = None) -> tuple[int, list[int] | None]:
        game = game or Game.objects.get(id=self.game_id)
        if game.state is None:
            return game.version, None
        if game.version not in self.piles:
            self.piles[game.version] = list(game.rules.dump(game.load_state())["pile"])
        return game.version, self.piles[game.version]

    def __call__(self, url: str, body: str, content_type: str) -> None:
        url = redact_text(url)
        _version, pile = self.pile()
        named = VERSION_PATTERNS.search(body)
        if named:
            pile = self.piles.get(int(next(g for g in named.groups() if g)), pile)
        if pile is None:
            return
        self.scanned += 1
        assert '"pile"' not in body and "'pile'" not in body, f"{url}: a pile field"
        ids = strip_ids(body)
        numbers = [int(found) for found in NUMBER.findall(body)]
        for start in range(max(0, len(pile) - 2)):
            run = pile[start : start + 3]
            if run != sorted(run):
                assert not _contains_run(ids, run), f"{url}: the draw order leaked"
        for start in range(max(0, len(pile) - RAW_RUN + 1)):
            run = pile[start : start + RAW_RUN]
            if run != sorted(run):
                assert not _contains_run(numbers, run), f"{url}: the draw order leaked as numbers"
