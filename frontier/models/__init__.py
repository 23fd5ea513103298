# Target and HostQueue are the crawl engine's (crawlweb/models/), under this app's label: named here too.
from crawlweb.models import HostQueue, Target
from frontier.models.placements import LayerPlacement
from frontier.models.discovery import ClassifierModel, RefillCursor, SiteVerdict
from frontier.models.structure import SiteStructure, SiteStructureNode

__all__ = ["ClassifierModel", "HostQueue", "LayerPlacement", "RefillCursor", "SiteStructure", "SiteStructureNode",
           "SiteVerdict", "Target"]
