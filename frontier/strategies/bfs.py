"""BFS: the crawler's behaviour before the discovery strategies (priority = minus the depth)."""
from frontier.strategies.base import Strategy


class BreadthFirst(Strategy):
    name = "bfs"
    detects = False  # plain crawls stay as they were; config "detector" switches detection on
