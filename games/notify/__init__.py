"""What the service tells players by email about their games, one module per message.

``invitation`` (and its cancellation), ``started``, ``turn`` (held while the player is at
the table), ``reminder``, ``auto_moved``, ``game_over`` (and a game ended without a
result), ``table_changes`` (a stand-in, a resignation, the clock paused, resumed or
extended) and ``digest``; ``links`` signs the game link every email carries. Each
builder gets one ``recipient.Recipient`` per seat (language, zone, quiet hours,
channel, unsubscribe link) and queues through ``common``.
"""
