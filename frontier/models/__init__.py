from frontier.models.targets import LayerPlacement, Target
from frontier.models.host_queues import HostQueue  # noqa: F401
from frontier.models.discovery import ClassifierModel, SiteVerdict  # noqa: F401
from frontier.models.structure import SiteStructure  # noqa: F401

__all__ = ["LayerPlacement", "Target"]
