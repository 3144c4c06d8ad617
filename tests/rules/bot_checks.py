"""Every bot decision checked as the service would check it: both games' bot tests use it."""


def checked_choice(rules, view_keys: set, seen: set):
    """A ``choose`` for ``games.simulation.play_bot_game`` that asks ``rules.choose_bot_action``
    and checks each decision: the bot was given exactly ``view_keys`` (its seat's view, nothing
    hidden) and chose one of the legal actions as a fresh dict; ``seen`` collects the levels
    that decided."""

    def choose(view, level, rng, memory):
        assert set(view) == view_keys
        action = rules.choose_bot_action(view, level, rng, memory)
        assert action in view["legal_actions"]
        assert all(action is not legal for legal in view["legal_actions"])  # a fresh dict
        seen.add(level)
        return action

    return choose
