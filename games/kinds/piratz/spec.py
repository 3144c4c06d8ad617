"""Piratz, service side: its words, table page, API shapes, mail grammar, replay and refusal
sentences, in one spec (``games.catalogue``). The engine is ``games.kinds.piratz.rules``."""

from games.catalogue import GameSpec
from games.kinds.piratz import rules as rules

from . import api, mail, refusals, replay, rules_page, simulation, table, words
from .models import record_burial

SPEC = GameSpec(
    kind="piratz",
    rules=rules,
    words=words,
    table_template="games/piratz/table.html",
    table_context=table.table_context,
    parse_table_move=table.parse_move,
    move_serializer=api.PiratzMoveSerializer,
    move_schemas=api.PIRATZ_ACTION_SCHEMAS,
    table_schema=api.TABLE_SCHEMA,
    revealed_schema=api.REVEALED_SCHEMA,
    schema_parts=api.SCHEMA_PARTS,
    refusal_codes=refusals.CODES,
    refusal_sentences=refusals.SENTENCES,
    mail_grammar=mail.parse_move,
    mail_hints=mail.piratz_hints,
    replay_page=replay.replay_page,
    replay_template="games/piratz/replay.html",
    simulate=simulation.simulate_command,
    add_simulation_arguments=simulation.add_simulation_arguments,
    rules_templates={
        "en": "games/piratz/rules.en.html",
        "de": "games/piratz/rules.de.html",
    },
    rules_context=rules_page.rules_context,
    after_move=record_burial,
)
