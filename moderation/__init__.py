"""Moderation: the audit log of moderator actions, player suspensions and players' reports."""
