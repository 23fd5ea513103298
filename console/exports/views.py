"""Downloads of a crawl's exports (staff only), streamed: StreamingHttpResponse over the export's
generator, FileResponse for a finished WARC file."""
from django.conf import settings
from django.http import FileResponse, Http404, StreamingHttpResponse
from django.shortcuts import get_object_or_404

from crawlweb.console_access import staff_console
from console.exports.catalog import BY_FILE_NAME, ExportOptions
from console.exports.warc_files import find_warc_file, read_warc_file
from crawlweb.models import Crawl


@staff_console
def download(request, pk, file_name):
    crawl = get_object_or_404(Crawl, pk=pk)
    export = BY_FILE_NAME.get(file_name)
    if export is None:
        raise Http404(f"no export named {file_name!r}")
    options = ExportOptions(language=request.GET.get("language") or None, kept_only=request.GET.get("kept") == "1",
                            raw=request.GET.get("raw") == "1")
    response = StreamingHttpResponse(export.chunks(crawl, options), content_type=export.content_type)
    response["Content-Disposition"] = f'attachment; filename="crawl-{crawl.pk}-{export.file_name}"'
    return response


@staff_console
def warc_file(request, pk, file_name):
    crawl = get_object_or_404(Crawl, pk=pk)
    found = find_warc_file(settings.WARC_DIR, crawl.pk, file_name)
    if found is None:
        raise Http404(f"crawl {crawl.pk} has no WARC file {file_name!r}")
    if found.finished:
        return FileResponse(found.path.open("rb"), as_attachment=True, filename=found.name,
                            content_type="application/gzip")
    # still being written: only its complete records, under the name it will have when finished
    response = StreamingHttpResponse(read_warc_file(found), content_type="application/gzip")
    response["Content-Disposition"] = f'attachment; filename="{found.name.removesuffix(".open")}"'
    return response
