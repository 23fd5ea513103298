"""The layered frontier: Frontier Layer Module base and its modules (pure: no Django).

    from frontier.layers.registry import MODULES, build_modules
    modules = build_modules({"M01": {"pair": "sr-en"}, "M03": {}})
    placements = modules["M01"].distribute([TargetInfo(key, url, anchor_text, site)])

base.py (TargetInfo, Placement, Rule, FrontierLayerModule), language.py (M01), structure.py and
structure_graph.py (M03, SiteStructureState), frontier/priority.py (combine_priority).
"""
