"""Starting a crawl: the one form both the dashboard and ``manage.py crawl start`` validate with,
the presets named for the methods, and the method behind each configuration choice."""
