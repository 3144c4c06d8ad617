"""Moderation: player suspensions and players' reports, and the moderators' page about a
person (the audit log their actions write is the ``audit`` app's)."""
