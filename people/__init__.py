"""Friends, blocks and follows: whom a player follows and blocks (docs/people.md)."""
