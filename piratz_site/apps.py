"""The admin's app configurations: Django's admin, served by the moderators' own site, and
the moderators' second factor under a readable name."""

from django.contrib.admin.apps import AdminConfig
from django_otp.plugins.otp_totp.apps import DefaultConfig as TotpConfig


class ModeratorAdminConfig(AdminConfig):
    """``django.contrib.admin`` whose ``admin.site`` is ``ModeratorAdminSite``.

    Named by a dotted path: the site's module imports the auth forms, which need the app
    registry this configuration is part of.
    """

    default_site = "piratz_site.admin_site.ModeratorAdminSite"


class TotpDevicesConfig(TotpConfig):
    """``django_otp.plugins.otp_totp`` under a heading moderators can read: the admin
    showed its label, "OTP_TOTP". Same name and label, so its models and migrations stay."""

    verbose_name = "Two-factor devices (TOTP)"
