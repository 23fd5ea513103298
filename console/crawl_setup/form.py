"""CrawlSetupForm: every choice of a new crawl, validated in one place for the dashboard and the command.

The dashboard's *New crawl* form renders it; ``manage.py crawl start`` fills the same fields from a
preset, a JSON file and its flags (console.crawl_setup.command_input) and validates with it, so a
bad value gets the same one-line error, naming the field, from both (``error_lines``). The crawl's
``config`` JSON is built here from the fields and checked by CrawlConfig (crawlweb.services.crawl_config,
which asks frontier.placement and frontier.discovery_settings about their keys); its errors come back
on the field that set the key. Nothing is created until the form is valid.
"""
from __future__ import annotations

from pathlib import Path

from django import forms
from django.core.exceptions import ValidationError

from crawlweb import bounded_json
from console.crawl_setup.presets import PRESETS, preset_named
from crawlweb.crawler.politeness import MAX_HOST_INTERVAL_S
from crawlweb.models import Crawl, SeedList
from crawlweb.seed_import import url_problem
from crawlweb.services.crawl_config import ADDRESS_POLICIES, KNOWN_KEYS, CrawlConfig
from frontier.layers.language import DATA_FILE, load_language_data
from frontier.discovery_settings import PROVIDER_KINDS

MODULE_CHOICES = [("M01", "M01 Language module"), ("M03", "M03 Structure module")]
MODULE_WEIGHT_FIELDS = {"M01": "weight_m01", "M03": "weight_m03"}
BACK_AND_FORTH = ("obfc", "cobfc")
MAX_COUNT = 2_147_483_647  # the largest value of a PositiveIntegerField on every database
# Crawl-config keys the fields set; "extra_config" may hold any other key CrawlConfig knows.
FIELD_KEYS = {"modules", "url_rules", "host_interval", "address_policy", "topic"}
# Which field answers for an error CrawlConfig reports on a config key.
FIELD_OF_KEY = {"modules": "modules", "priority": "modules", "url_rules": "url_rules",
                "host_interval": "host_interval", "address_policy": "address_policy",
                "topic": "topic_definition", "backlinks": "backlink_providers"}


def language_pairs() -> list[str]:
    """Pairs with data (needles, layers, dictionaries) in the Language module's data file."""
    return sorted(load_language_data(DATA_FILE)["pairs"])


def default_pair() -> str:
    return load_language_data(DATA_FILE).get("default_pair", "sr-en")


class CrawlSetupForm(forms.Form):
    preset = forms.ChoiceField(required=False, choices=[("", "(none)")] + [(p.slug, p.name) for p in PRESETS],
                               help_text="Fills the method's fields; change any of them afterwards.")
    name = forms.CharField(max_length=200, initial="new crawl")
    seed_list = forms.ModelChoiceField(SeedList.objects.order_by("name"), required=False, to_field_name="name",
                                       error_messages={"invalid_choice": "no seed list named %(value)s"})
    start_urls = forms.CharField(required=False, label="Start URLs", widget=forms.Textarea(attrs={"rows": 2}),
                                 help_text="More start URLs, one a line.")
    strategy = forms.ChoiceField(choices=Crawl.Strategy.choices, initial="bfs")
    pair = forms.ChoiceField(choices=(), label="Language pair", help_text="Source-target languages; their needles and dictionaries "
                                                   "come from frontier/layers/data/language_module.json.")
    modules = forms.MultipleChoiceField(choices=MODULE_CHOICES, required=False,
                                        widget=forms.CheckboxSelectMultiple, help_text="Layered frontier modules.")
    weight_m01 = forms.FloatField(required=False, min_value=0.001, initial=3.0, label="M01 weight")
    weight_m03 = forms.FloatField(required=False, min_value=0.001, initial=1.0, label="M03 weight")
    backlink_providers = forms.MultipleChoiceField(
        choices=[(kind, kind) for kind in PROVIDER_KINDS], required=False, widget=forms.CheckboxSelectMultiple,
        help_text="OBFC and COBFC: where backlinks come from (graph: links this crawl has seen).")
    edge_file = forms.CharField(required=False, help_text="edge_file provider: a TSV file 'source target' a line.")
    backlink_url_template = forms.CharField(required=False, label="Backlink URL template", help_text="http provider: a URL with {url}.")
    topic_definition = forms.CharField(required=False, widget=forms.Textarea(attrs={"rows": 4}),
                                       help_text="FocC: Combine topic lines 'weight: term=class'.")
    topic_cutoff = forms.FloatField(required=False, initial=10.0)
    url_rules = forms.CharField(required=False, label="URL rules", widget=forms.Textarea(attrs={"rows": 2}),
                                help_text="Lines 'allow|exclude HOST:<regex>|URL:<regex>'.")
    host_interval = forms.FloatField(required=False, min_value=0, max_value=MAX_HOST_INTERVAL_S,
                                     label="Host interval (seconds)",
                                     help_text="Seconds between requests to one host, at most 3600 (default: "
                                               "the site setting).")
    address_policy = forms.ChoiceField(required=False, choices=[("", "(site setting)")] +
                                       [(p, p) for p in ADDRESS_POLICIES])
    page_budget = forms.IntegerField(min_value=1, max_value=MAX_COUNT, initial=1000, label="Budget (pages)")
    time_limit = forms.IntegerField(required=False, min_value=1, max_value=MAX_COUNT, label="Time limit (seconds)",
                                    help_text="The crawl finishes when this much time has passed since it started.")
    parallel_steps = forms.IntegerField(min_value=1, max_value=64, initial=1)
    follow_out_of_site = forms.BooleanField(required=False, initial=True,
                                            help_text="Also schedule links that leave the site they were found on.")
    extra_config = forms.CharField(required=False, widget=forms.Textarea(attrs={"rows": 2}),
                                   label="More configuration (JSON)",
                                   help_text="Other crawl-config keys: detector, queue_ratio, learning, random_seed…")

    def __init__(self, *args, seeds_given: bool = False, **kwargs):
        """``seeds_given``: the caller brings seeds of its own (the command's seed file)."""
        super().__init__(*args, **kwargs)
        self.seeds_given = seeds_given
        pairs = language_pairs()
        self.fields["pair"].choices = [(p, p) for p in pairs]
        self.fields["pair"].initial = default_pair()
        self.fields["pair"].error_messages["invalid_choice"] = (
            f"no language data for %(value)s (pairs with data: {', '.join(pairs)})")
        self.config: dict = {}

    @classmethod
    def defaults(cls) -> dict:
        """Every field's value when nobody changes it (the command starts from these)."""
        form = cls()
        return {name: form.get_initial_for_field(field, name) for name, field in form.fields.items()
                if form.get_initial_for_field(field, name) is not None}

    # --- fields -------------------------------------------------------------------------------
    def clean_start_urls(self) -> list[str]:
        urls = [line.strip() for line in self.cleaned_data["start_urls"].splitlines() if line.strip()]
        for number, url in enumerate(urls, 1):
            problem = url_problem(url)
            if problem:
                raise ValidationError(f"line {number}: {problem}: {url!r}")
        return urls

    def clean_edge_file(self) -> str:
        path = self.cleaned_data["edge_file"].strip()
        if path and not Path(path).is_file():
            raise ValidationError(f"no such file {path!r}")
        return path

    def clean_backlink_url_template(self) -> str:
        template = self.cleaned_data["backlink_url_template"].strip()
        if template and "{url}" not in template:
            raise ValidationError("must contain {url}, where the page's URL goes")
        return template

    def clean_extra_config(self) -> dict:
        text = self.cleaned_data["extra_config"]
        if not text.strip():
            return {}
        try:
            extra = bounded_json.loads(text)
        except bounded_json.JsonInputError as error:
            raise ValidationError(str(error)) from None
        if not isinstance(extra, dict):
            raise ValidationError("must be a JSON object of crawl-config keys")
        own = sorted(set(extra) & FIELD_KEYS)
        if own:
            raise ValidationError(f"{', '.join(own)}: set with the form's own fields, not here")
        unknown = sorted(set(extra) - KNOWN_KEYS)
        if unknown:
            raise ValidationError(f"unknown keys {', '.join(unknown)} (known: {', '.join(sorted(KNOWN_KEYS))})")
        return extra

    # --- the crawl's config -----------------------------------------------------------------------
    def clean(self):
        data = super().clean()
        if self.errors:  # field errors first: the config is built only from good values
            return data
        if not (self.seeds_given or data.get("seed_list") or data.get("start_urls")):
            self.add_error("seed_list", "give a seed list or start URLs")
        self._check_method_fields(data)
        if not self.errors:
            self.config = self._build_config(data)
            try:
                CrawlConfig.from_dict(self.config)
            except ValidationError as error:
                for key, messages in error.message_dict.items():
                    field = FIELD_OF_KEY.get(key, "extra_config")
                    for message in messages:  # error_lines names the field; the key only when it is another
                        self.add_error(field, message if field == key else f"{key}: {message}")
        return data

    def _check_method_fields(self, data: dict) -> None:
        """Settings the chosen strategy would ignore are refused rather than silently dropped."""
        data = dict(data)  # add_error drops the field from cleaned_data; the checks below read on
        strategy = data["strategy"]
        providers = self._providers(data)
        if providers and strategy not in BACK_AND_FORTH:
            self.add_error("backlink_providers", f"only OBFC and COBFC use backlinks, not {strategy}")
        if "edge_file" in data["backlink_providers"] and not data["edge_file"]:
            self.add_error("edge_file", "the edge_file provider needs a file")
        if "http" in data["backlink_providers"] and not data["backlink_url_template"]:
            self.add_error("backlink_url_template", "the http provider needs a URL template with {url}")
        if strategy == "focc" and not data["topic_definition"].strip():
            self.add_error("topic_definition", "FocC needs a topic definition (lines 'weight: term=class')")
        if data["topic_definition"].strip() and strategy != "focc":
            self.add_error("topic_definition", f"only FocC uses a topic, not {strategy}")

    @staticmethod
    def _providers(data: dict) -> list[dict]:
        """The ticked providers, plus those a path or template was given for."""
        kinds = list(data["backlink_providers"])
        kinds += [k for k, v in (("edge_file", data["edge_file"]), ("http", data["backlink_url_template"]))
                  if v and k not in kinds]
        options = {"edge_file": {"path": data["edge_file"]}, "http": {"url_template": data["backlink_url_template"]}}
        return [{"kind": kind, **options.get(kind, {})} for kind in kinds]

    def _build_config(self, data: dict) -> dict:
        config = {key: value for key, value in data["extra_config"].items()}
        if data["modules"]:
            config["modules"] = {code: ({"pair": data["pair"]} if code == "M01" else {}) for code in data["modules"]}
            weights = {code: data[MODULE_WEIGHT_FIELDS[code]] for code in data["modules"]
                       if data[MODULE_WEIGHT_FIELDS[code]] is not None}
            if weights:
                config["priority"] = {**config.get("priority", {}), "module_weights": weights}
        providers = self._providers(data)
        extra_backlinks = config.get("backlinks")
        if (not providers and data["strategy"] in BACK_AND_FORTH
                and not (isinstance(extra_backlinks, dict) and extra_backlinks.get("providers"))):
            # The crawl's default, stored: flags without --backlinks and the form's presets store the same config.
            providers = [{"kind": "graph"}]
        if providers:
            config["backlinks"] = {**config.get("backlinks", {}), "providers": providers}
        if data["strategy"] == "focc":
            topic = {"definition": data["topic_definition"]}
            if data["topic_cutoff"] is not None:
                topic["cutoff"] = data["topic_cutoff"]
            config["topic"] = topic
        if data["url_rules"].strip():
            config["url_rules"] = data["url_rules"]
        if data["host_interval"] is not None:
            config["host_interval"] = data["host_interval"]
        if data["address_policy"]:
            config["address_policy"] = data["address_policy"]
        return config

    # --- the crawl ----------------------------------------------------------------------------
    def crawl_values(self) -> dict:
        """The new Crawl's fields (call after is_valid())."""
        data = self.cleaned_data
        source, target = data["pair"].split("-", 1)
        return {"name": data["name"], "seed_list": data["seed_list"], "strategy": data["strategy"],
                "source_language": source, "target_language": target, "page_budget": data["page_budget"],
                "time_limit_seconds": data["time_limit"], "parallel_steps": data["parallel_steps"],
                "follow_out_of_site": data["follow_out_of_site"], "config": self.config}

    def create_crawl(self, **overrides) -> Crawl:
        return Crawl.objects.create(**{**self.crawl_values(), **overrides})


def with_preset(values: dict, preset_slug: str) -> dict:
    """``values`` with the preset's method fields filled in (an unknown or empty preset changes nothing)."""
    preset = preset_named(preset_slug) if preset_slug else None
    return {**values, **preset.values, "preset": preset.slug} if preset else dict(values)


def error_lines(form: forms.Form) -> list[str]:
    """One line per error, naming the field: the same text on the dashboard and on the command line."""
    return [f"{field if field != '__all__' else 'crawl'}: {message}"
            for field, messages in form.errors.items() for message in messages]
