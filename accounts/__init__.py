"""Accounts: users identified by email, API tokens and passwordless login links."""
