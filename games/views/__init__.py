"""The pages players reach from email, one module per thing they serve.

``table`` the signed game link, the table and its move forms, home and invitations;
``lobby`` My games, the create form and the replay; ``together`` the host's chair and
resigning; ``players`` the player pages; ``rules`` the rules for players; ``fairness``
a finished game's shuffle check. ``games/urls.py`` routes to them.
"""
