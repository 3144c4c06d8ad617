"""The models of people."""
