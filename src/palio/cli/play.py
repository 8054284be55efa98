"""``palio games``, ``palio play`` and ``palio replay``: terminal play and records.

Everything a person reads about a game comes from the game's words through
:mod:`palio.core.describe`: the same labels, explanations, prompts, log and score table as
the server, in the language of ``--lang`` or of the locale (``LC_ALL``, ``LC_MESSAGES``,
``LANG``). The terminal's own words are the ``cli`` catalog (``palio/cli/locale``). Text
from games is printed with Rich markup off, so a bracket in it is never taken for a style.
"""

from __future__ import annotations

import contextlib
import sys
import unicodedata
from collections.abc import Callable
from pathlib import Path
from typing import Any

import typer
from rich.console import Console

import palio.games as registry
from palio import bots
from palio.cli.common import fail, load_game, parse_options, split_names
from palio.cli.language import terminal_language
from palio.core import describe
from palio.core.errors import PalioError
from palio.core.game import Action, Game, State
from palio.core.i18n import LANGUAGES, Translator, lookup
from palio.core.record import GameRecord
from palio.core.words import Msg, Player, msg

console = Console(highlight=False, soft_wrap=True)
# with more choices than this, the list shows labels only; "help N" explains choice N
EXPLAIN_UP_TO = 12
QUIT = ("quit", "exit", "q")
HELP = ("help", "?", "h")


def register(app: typer.Typer) -> None:
    app.command("games")(games_command)
    app.command("play")(play_command)
    app.command("replay")(replay_command)


def say(text: str = "") -> None:
    """Print text as it is: no Rich markup, no highlighting (game text may hold brackets)."""
    console.print(text, markup=False, highlight=False)


LANG_OPTION = typer.Option(
    None,
    "--lang",
    help="language of the game's words: en or ja "
    "(default: from the locale, LC_ALL / LC_MESSAGES / LANG)",
)


def games_command(
    game: str = typer.Argument(None, help="a game id for details"),
    components: bool = typer.Option(False, "--components", help="list provisional component data"),
    components_file: Path = typer.Option(
        None, "--components-file", help="check a corrected components file and list its data"
    ),
    export_components: Path = typer.Option(
        None, "--export-components", help="write the built-in component data here, to correct"
    ),
    lang: str = LANG_OPTION,
) -> None:
    """List the games, or show one game's options and data."""
    tr = Translator()
    try:
        tr = Translator(terminal_language(lang))
        g = None if game is None else load_game(game, components_file)
    except PalioError as exc:
        raise fail(exc, tr) from None
    if g is None:
        for game_id, each in registry().items():
            info = each.info
            options = ", ".join(spec.name for spec in info.options)
            say(tr(msg("cli.games.line", id=f"{game_id:16}", name=game_name(info.id, tr),
                       players=player_count(info.min_players, info.max_players),
                       options=options or msg("cli.games.no_options"))))
        say(tr(msg("cli.games.more")))
        return
    if export_components is not None:
        exporter = getattr(g, "export_components", None)
        if exporter is None:
            raise fail(f"{g.info.name} has no component data to export", tr)
        export_components.write_text(exporter(), encoding="utf-8")
        say(tr(msg("cli.games.exported", path=str(export_components))))
        return
    if components_file is not None:
        say(tr(msg("cli.games.file_valid", path=str(components_file))))
    info = g.info
    say(tr(msg("cli.games.title", name=game_name(info.id, tr), id=info.id, version=info.version,
               players=player_count(info.min_players, info.max_players))))
    say(tr(msg("cli.games.rules", where=rules_document(info.id), n=info.action_space_size)))
    for spec in info.options:
        key = f"ui.option.{spec.name}.help"
        described = msg(key) if lookup(key, tr.lang) else spec.description
        default = msg("cli.games.on" if spec.default else "cli.games.off") \
            if isinstance(spec.default, bool) else str(spec.default)
        say(tr(msg("cli.games.option", name=spec.name, description=described, default=default)))
    if components or components_file is not None:
        listing = getattr(g, "provisional_components", None)
        entries = listing() if listing else []
        if not entries:
            say(tr(msg("cli.games.none_provisional")))
        for entry in entries:  # the component data's own notes, in English
            say(tr(msg("cli.games.provisional", entry=entry)))


def player_count(least: int, most: int) -> Msg:
    """"2 players" or "2-4 players", in words."""
    if least == most:
        return msg("cli.games.players", n=least)
    return msg("cli.games.players_range", least=least, most=most)


def game_name(game_id: str, tr: Translator) -> str:
    """A game's name in the reader's language (as the browser writes it)."""
    key = f"ui.game_name.{game_id.replace('-', '_')}"
    return tr(msg(key)) if lookup(key, tr.lang) else registry.get(game_id).info.name


def rules_document(game_id: str) -> str:
    """Where a person reads the rules: the rules documents shipped with Palio (English and
    Japanese) and the server's page; the rulebook it was written from is not shipped."""
    from palio.server.rules.pages import rules_file

    found = [rules_file(game_id, lang) for lang in LANGUAGES]
    paths = list(dict.fromkeys(str(hit[0]) for hit in found if hit is not None))
    return ", ".join([*paths, f"/rules/{game_id}"])


def play_command(
    game: str = typer.Argument(..., help="game id, e.g. san-gimignano"),
    players: int = typer.Option(None, "--players", "-p", help="number of players"),
    seed: int = typer.Option(None, "--seed", "-s", help="random seed (a game replays from it)"),
    bot_names: str = typer.Option(
        None, "--bots", help="bots for the seats, comma separated; as many as players to autoplay"
    ),
    seat: int = typer.Option(0, "--seat", help="your seat when you play"),
    option: list[str] = typer.Option(
        None, "--option", "-o", help="game option, e.g. nobles or key=value"
    ),
    record: Path = typer.Option(None, "--record", help="save the game record (JSON) here"),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="autoplay: print only the result"),
    components_file: Path = typer.Option(
        None, "--components-file", help="play on a corrected components file"
    ),
    lang: str = LANG_OPTION,
) -> None:
    """Play a game in the terminal against bots, or watch bots play a whole game."""
    tr = Translator()
    try:
        tr = Translator(terminal_language(lang))
        g = load_game(game, components_file)
        n = players or g.info.min_players
        state = g.setup(n, seed, parse_options(option))
        names = split_names(bot_names)
        if len(names) == n:
            seats = names
        else:
            if not 0 <= seat < n:
                raise PalioError(f"--seat must be 0-{n - 1}", words=msg("cli.bad_seat", last=n - 1))
            others = names or ["greedy"] * (n - 1)
            if players is None and n - 1 < len(others) <= g.info.max_players:
                raise PalioError(
                    f"{len(others)} bots: add -p {len(others)} to watch them play"
                    + (f", or -p {len(others) + 1} to play against them"
                       if len(others) < g.info.max_players else ""),
                    words=bots_need_players(len(others), g.info.max_players),
                )
            if len(others) != n - 1:
                raise PalioError(
                    f"give {n - 1} bots for the other seats, or {n} to autoplay",
                    words=msg("cli.bot_count", others=n - 1, all=n),
                )
            seats = others[:seat] + ["you"] + others[seat:]
        players_by_seat = {
            i: bots.get(name, seed=None if seed is None else seed + i)
            for i, name in enumerate(seats)
            if name != "you"
        }
        for bot in players_by_seat.values():
            ready(bot, state)
    except PalioError as exc:
        raise fail(exc, tr) from None
    human = None if len(players_by_seat) == n else seat
    tr = Translator(tr.lang, seat_names(seats, tr), you=human)
    if human is not None:
        line_editing()
    shown = 0
    hinted: list[int] = []  # move numbers at which the person asked for a hint
    while not state.is_over:
        mover = state.to_move
        assert mover is not None
        if mover == human:
            shown = show_log(state, human, tr, shown)
            say()
            say(g.render(state, human, tr))
            action = ask(state, tr, hints=hinted)
            if action is None:
                if record:  # the game so far, to replay or look at later
                    save_record(state, seats, record, tr)
                say(tr(msg("cli.bye")))
                raise typer.Exit(0)  # leaving is what the person asked for, not an error
        else:
            action = players_by_seat[mover].choose(state, mover)
        state.apply(action)
        if human is None and not quiet:
            shown = show_log(state, None, tr, shown)
    if human is not None:
        show_log(state, human, tr, shown)
    show_result(g, state, tr, table=not quiet)
    if hinted:
        say(tr(msg("cli.hint.used")))
    if record:
        save_record(state, seats, record, tr)


def ready(bot: bots.Bot, state: State) -> None:
    """Load what ``bot`` needs before the game starts (a learned bot's model file), so a
    missing or unreadable file is refused at once, not at the bot's first move."""
    load = getattr(bot, "model_for", None)
    if load is not None:
        load(state)


def save_record(state: State, seats: list[str], path: Path, tr: Translator) -> None:
    """Write the game record (finished or not); a path that cannot be written is said in one
    line (exit 2)."""
    try:
        GameRecord.of(state, seats).save(path)
    except OSError as exc:
        raise fail(f"cannot write {path}: {exc.strerror or exc}", tr) from None
    say(tr(msg("cli.record_saved", path=str(path))))


def bots_need_players(given: int, most: int) -> Msg:
    """More bots named than the game's default player count: the ``-p`` that seats them."""
    if given < most:
        return msg("cli.bots_need_players_or_you", given=given, more=given + 1)
    return msg("cli.bots_need_players", given=given)


def seat_names(seats: list[str], tr: Translator) -> list[str]:
    """What each seat is called: "You" for the person, a bot as the browser names it ("Greedy
    bot", "Easy bot 2" with its seat number when another bot has the same level), never by its
    internal id."""
    shown = [name.partition(":")[0] for name in seats]  # a spec mcts:iterations=50: its bot
    out = []
    for i, name in enumerate(shown):
        if seats[i] == "you":
            out.append(tr(msg("core.you")))
            continue
        if name not in bots.names():  # a person's name in a record
            out.append(seats[i])
            continue
        level = tr(msg(f"ui.level.{name}")) if lookup(f"ui.level.{name}", tr.lang) else name
        if shown.count(name) > 1:
            out.append(tr(msg("ui.bot_named_n", level=level, n=i + 1)))
        else:
            out.append(tr(msg("ui.bot_named", level=level)))
    return out


def line_editing() -> None:
    """Arrow keys and history at the prompt (the standard library's readline), where the
    terminal has it."""
    if sys.stdin.isatty():
        # not every platform ships readline; plain input still works without it
        with contextlib.suppress(ImportError):
            import readline  # noqa: F401  (importing it is what turns it on for input())


def show_log(state: State, seat: int | None, tr: Translator, start: int) -> int:
    """Print the log lines from event ``start`` as ``seat`` may see them; the next start."""
    for line in describe.log(state, seat, tr, start):
        say(f"  {line['text']}")
    return len(state.log)


def in_groups(choices: list[dict[str, Any]]) -> list[int]:
    """The order choices are shown and numbered in: group by group (groups in order of first
    appearance), so the numbers under each heading run on from the last: 1 2 3 / 4 5."""
    first: dict[str, int] = {}
    for index, choice in enumerate(choices):
        first.setdefault(choice["group"], index)
    return sorted(range(len(choices)), key=lambda index: first[choices[index]["group"]])


def show_choices(choices: list[dict[str, Any]], tr: Translator) -> None:
    """The choices, numbered, under their group headings (``choices`` already in
    :func:`in_groups` order)."""
    groups: dict[str, list[tuple[int, dict[str, Any]]]] = {}
    for number, choice in enumerate(choices, 1):
        groups.setdefault(choice["group"], []).append((number, choice))
    explain = len(choices) <= EXPLAIN_UP_TO
    for group, entries in groups.items():
        say(tr(msg("cli.group", group=group)))
        for number, choice in entries:
            if explain:
                say(
                    tr(
                        msg(
                            "cli.choice_explained",
                            number=number,
                            label=choice["label"],
                            explain=choice["explain"],
                        )
                    )
                )
            else:
                say(tr(msg("cli.choice", number=number, label=choice["label"])))
    if not explain:
        say(tr(msg("cli.explain_hint")))


def show_help(choices: list[dict[str, Any]], tr: Translator) -> None:
    say(tr(msg("cli.help")))
    for number, choice in enumerate(choices, 1):
        say(
            tr(
                msg(
                    "cli.choice_notation",
                    number=number,
                    label=choice["label"],
                    notation=choice["notation"],
                )
            )
        )


def ask(state: State, tr: Translator, read: Callable[[str], str] = input,
        hints: list[int] | None = None) -> Action | None:
    """The person's decision: a choice's number or its notation; ``None`` to quit.

    Wrong entries are explained (in the reader's language) and asked again. ``hint`` shows
    the bot's three best choices (searched from this seat's view only); ``hints`` collects
    the move numbers where one was asked for.
    """
    game = state.game
    legal = list(state.legal_actions())
    choices = describe.choices(state, tr)
    shown = in_groups(choices)  # number k is the k-th choice shown
    legal = [legal[index] for index in shown]
    choices = [choices[index] for index in shown]
    say()  # the prompt is the board's last line, just above
    show_choices(choices, tr)
    while True:
        try:
            text = read(tr(msg("cli.input"))).strip()
        except EOFError:
            return None
        word, _, rest = text.lower().partition(" ")
        if not text:
            continue
        if word in QUIT:
            return None
        if word in HELP:
            if rest.strip().isdigit() and 1 <= int(rest) <= len(choices):
                choice = choices[int(rest) - 1]
                say(
                    tr(
                        msg(
                            "cli.choice_explained",
                            number=int(rest),
                            label=choice["label"],
                            explain=choice["explain"],
                        )
                    )
                )
            else:
                show_help(choices, tr)
            continue
        if word == "hint":
            show_hint(state, tr)
            if hints is not None:
                hints.append(state.move_number)
            continue
        if word == "board":
            say(game.render(state, state.to_move, tr))
            show_choices(choices, tr)
            continue
        if text.isdigit():
            if 1 <= int(text) <= len(legal):
                return legal[int(text) - 1]
            say(tr(msg("cli.choose_range", last=len(legal))))
            continue
        try:
            action = state.parse(text)
        except PalioError as exc:
            say(not_a_move(exc, tr, text, legal))
            continue
        if action in legal:
            return action
        reason = game.words.why_illegal(state, action)
        say(tr(reason if reason is not None else msg("core.not_legal_now")))


def show_hint(state: State, tr: Translator) -> None:
    """The bot's three best choices for the seat to move, from that seat's view only. The
    search's seed is fresh, never the game's (which shuffled the hidden cards)."""
    import secrets

    from palio.review import hint

    given = hint(state, state.to_move, seed=secrets.randbits(32), tr=tr)
    say(tr(msg("cli.hint.title")))
    # best first, in the order of the values printed (percent of the expected win share)
    for number, choice in enumerate(by_value(given["choices"]), 1):
        value = "–" if choice["percent"] is None else str(choice["percent"])
        say(tr(msg("cli.hint.choice", number=number, label=choice["label"], value=value,
                   reason=choice["reason"], line=choice["line"])))


def by_value(choices: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The hint's choices in the order of the values printed beside them, best first (the
    search picks them by visits, which need not follow the values); a choice without a value
    (the only legal move) comes last, and equal values keep the search's order."""
    return sorted(choices, key=lambda choice: (choice["value"] is None, -(choice["value"] or 0)))


# how many legal moves an unreadable entry is shown as examples of what to type
EXAMPLES = 4


def not_a_move(error: PalioError, tr: Translator, text: str, legal: list[Action]) -> str:
    """Text that is no move: the error's words if it has them, and what a valid entry looks
    like now (legal moves written as they are typed, those of the same word first), never the
    parser's own detail ("expected a building letter (P B C), got '99'")."""
    words = error.words if isinstance(error.words, Msg) else msg("core.not_a_move")
    notations = list(dict.fromkeys(str(action) for action in legal))
    word = text.split()[0].lower() if text.split() else ""
    alike = [n for n in notations if n.split()[0].lower() == word] if word else []
    pool = alike or notations
    # spread over the list, so "place P, place B, place C" rather than four of one building
    step = max(1, len(pool) // EXAMPLES)
    examples = ", ".join(pool[::step][:EXAMPLES])
    like = msg("cli.moves_look_like", examples=examples, last=len(legal))
    return tr(msg("cli.not_a_move", reason=msg("cli.not_a_move_detail", reason=words,
                                                   detail=like)))


def cell_width(text: str) -> int:
    """Columns a text takes in a terminal (East Asian wide characters take two)."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def pad(text: str, width: int, right: bool = False) -> str:
    space = " " * max(0, width - cell_width(text))
    return space + text if right else text + space


def show_scores(state: State, tr: Translator) -> None:
    """The score breakdown as a table: a row per category, a column per player."""
    table = describe.score_table(state, tr)
    names = [tr.player(seat) for seat in range(state.players)]
    rows = [(row["category"], [str(p) for p in row["points"]]) for row in table["rows"]]
    rows.append((tr(msg("core.total")), [str(t) for t in table["totals"]]))
    first = max(cell_width(category) for category, _ in rows)
    widths = [
        max(cell_width(names[i]), *(cell_width(r[1][i]) for r in rows)) for i in range(len(names))
    ]
    say(tr(msg("cli.scores")))
    say(
        "  "
        + pad("", first)
        + "  "
        + "  ".join(pad(n, w, True) for n, w in zip(names, widths, strict=True))
    )
    for category, points in rows:
        say(
            "  "
            + pad(category, first)
            + "  "
            + "  ".join(pad(p, w, True) for p, w in zip(points, widths, strict=True))
        )


def show_result(g: Game, state: State, tr: Translator, table: bool = True) -> None:
    say(tr(msg("cli.game_over", game=g.info.name, n=state.move_number)))
    if table:
        show_scores(state, tr)
    scores = describe.score_table(state, tr)["totals"]
    ranks = state.ranks()
    for seat in state.ranking():
        say(
            tr(
                msg(
                    "cli.place",
                    place=ranks[seat],
                    player=Player(seat),
                    points=msg("core.points", n=scores[seat]),
                )
            )
        )


def replay_command(
    path: Path = typer.Argument(..., help="a game record written by --record"),
    log: bool = typer.Option(False, "--log", help="print the whole game log"),
    components_file: Path = typer.Option(
        None, "--components-file", help="the components file the game was played on"
    ),
    lang: str = LANG_OPTION,
) -> None:
    """Verify a game record by replaying it, and show the final position."""
    tr = Translator()
    try:
        tr = Translator(terminal_language(lang))
        rec = GameRecord.load(path)
        g = load_game(rec.game, components_file)
        state = rec.replay(g)
    except (PalioError, OSError) as exc:
        raise fail(exc, tr) from None
    you = rec.seats.index("you") if rec.seats and "you" in rec.seats else None
    tr = Translator(tr.lang, seat_names(rec.seats, tr) if rec.seats else None, you=you)
    if log:
        # a finished game shows everything; an unfinished record only what anyone could see
        for line in describe.log(state, None, tr, full=state.is_over):
            say(f"  {line['text']}")
    say(g.render(state, None, tr))
    if state.is_over:
        show_result(g, state, tr)
    key = "cli.record_verified" if rec.result else "cli.record_replayed"
    say(tr(msg(key, n=len(rec.actions))))
