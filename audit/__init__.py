"""The audit log: one row per moderator action, with its reason (``AuditEntry``), written
only by ``audit.log.record`` inside the action's own transaction; the reason form every
moderator action is confirmed with (``forms``) and the admin's two-step confirmation
(``admin_tools``). Below games, talk, moderation and the outbox, whose moderator actions
all write here; it imports only ``core``."""
