"""Players' calendar feeds: a secret, revocable iCalendar URL with their turns' deadlines."""
