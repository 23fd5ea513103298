from frontier.models.targets import LayerPlacement, Target

__all__ = ["LayerPlacement", "Target"]
