"""Notifications: the email outbox and the workers that send it."""
