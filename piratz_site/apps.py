"""The admin's app configuration: Django's admin, served by the moderators' own site."""

from django.contrib.admin.apps import AdminConfig


class ModeratorAdminConfig(AdminConfig):
    """``django.contrib.admin`` whose ``admin.site`` is ``ModeratorAdminSite``.

    Named by a dotted path: the site's module imports the auth forms, which need the app
    registry this configuration is part of.
    """

    default_site = "piratz_site.admin_site.ModeratorAdminSite"
