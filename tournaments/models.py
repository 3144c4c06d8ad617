"""The models of tournaments."""
