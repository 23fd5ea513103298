from django.apps import AppConfig


class ConsoleConfig(AppConfig):
    """The top floor: the dashboard, the exports, the crawl-setup form, the admin and the commands
    that combine the apps. No models: it shows and starts what the floors below it hold."""

    name = "console"
    verbose_name = "Console"
