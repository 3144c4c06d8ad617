"""The models of lobby."""
