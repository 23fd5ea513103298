"""Staff URLs that name nothing answer 404, not 500, where a third-party view would raise.

- django-rq's views read a queue by its index, a job by its id and a worker by its key straight from
  the URL (/django-rq/queues/0/nojob/, /django-rq/workers/0/x/, /django-rq/schedulers/0/, and the same
  views under /admin/django_rq/dashboard/): no such queue is an IndexError, no such job rq's
  NoSuchJobError, a malformed worker key a ValueError, a missing worker an AssertionError, a scheduler
  page ImproperlyConfigured (rq-scheduler is not installed: there is no scheduler). From those views
  only, these mean "not found" (DjangoRqNotFoundMiddleware).
- Without REDIS_URL, django-rq's pages answer 404: no queue of theirs is ours (process_view).
- The admin's "view on site" shortcut (/admin/r/<content type>/<id>/) reads the object's table: for a
  model without one (django-rq's Dashboard, managed = False) that was a database error (view_on_site).
"""
from __future__ import annotations

from django.conf import settings
from django.contrib.admin import site
from django.contrib.contenttypes.models import ContentType
from django.contrib.contenttypes.views import shortcut
from django.core.exceptions import ImproperlyConfigured
from django.core.handlers.exception import response_for_exception
from django.http import Http404
from rq.exceptions import NoSuchJobError

DJANGO_RQ_NOT_FOUND = (NoSuchJobError, IndexError, ValueError, AssertionError, ImproperlyConfigured)
NO_REDIS = "no Redis is configured (REDIS_URL): jobs run in-process, and the Jobs page (/jobs/) shows them"


def _is_django_rq(view_func) -> bool:
    return getattr(view_func, "__module__", "").startswith("django_rq.")


class DjangoRqNotFoundMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_view(self, request, view_func, view_args, view_kwargs):
        """Without REDIS_URL (the embedded mode) jobs run in-process and no queue is ours: django-rq's
        pages would show, and let staff empty, whatever queues a Redis on 127.0.0.1:6379/0 holds for
        someone else (its fallback URL). They answer 404, saying where the jobs are shown."""
        if not settings.REDIS_URL and _is_django_rq(view_func):
            return response_for_exception(request, Http404(NO_REDIS))
        return None

    def process_exception(self, request, exception):
        match = request.resolver_match
        if (match is not None and match.func.__module__.startswith("django_rq.")
                and isinstance(exception, DJANGO_RQ_NOT_FOUND)):
            return response_for_exception(request, Http404(f"no such queue, job, worker or scheduler: {exception}"))
        return None


def _view_on_site(request, content_type_id, object_id):
    try:
        model = ContentType.objects.get_for_id(content_type_id).model_class()
    except ContentType.DoesNotExist:
        raise Http404(f"no content type {content_type_id}") from None
    if model is None or not model._meta.managed:
        raise Http404(f"{model._meta.label if model else 'this content type'} has no rows to show on the site")
    return shortcut(request, content_type_id, object_id)


view_on_site = site.admin_view(_view_on_site)  # staff only, as the admin's own shortcut
