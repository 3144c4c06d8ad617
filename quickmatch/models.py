"""The models of quickmatch."""
