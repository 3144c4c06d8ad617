"""Rattenscharf, service side: its words, table page, API shapes, mail grammar, replay and
refusal sentences, in one spec (``games.catalogue``). The engine is
``games.kinds.rattenscharf.rules``."""

from games.catalogue import GameSpec
from games.kinds.rattenscharf import rules as rules

from . import api, mail, refusals, replay, rules_page, simulation, table, words

SPEC = GameSpec(
    kind="rattenscharf",
    rules=rules,
    words=words,
    table_template="games/rattenscharf/table.html",
    table_context=table.table_context,
    parse_table_move=table.parse_move,
    move_serializer=api.RattenscharfMoveSerializer,
    table_schema=api.TABLE_SCHEMA,
    revealed_schema=api.REVEALED_SCHEMA,
    schema_parts=api.SCHEMA_PARTS,
    refusal_codes=refusals.CODES,
    refusal_sentences=refusals.SENTENCES,
    mail_grammar=mail.parse_move,
    mail_hints=mail.placement_hints,
    replay_page=replay.replay_page,
    replay_template="games/rattenscharf/replay.html",
    simulate=simulation.simulate_command,
    add_simulation_arguments=simulation.add_simulation_arguments,
    rules_templates={
        "en": "games/rattenscharf/rules.en.html",
        "de": "games/rattenscharf/rules.de.html",
    },
    rules_context=rules_page.rules_context,
)
