"""A WARC write that meets a full disk leaves the file ending with its last whole record and says
which directory is full; once there is room again, writing goes on in the same file."""
import errno
import subprocess

import pytest

from crawlweb.crawler.fetch import Fetcher
from crawlweb.crawler.warc import WarcWriter

from .test_warc import read_records

pytestmark = pytest.mark.usefixtures("no_proxy_env")


@pytest.fixture
def small_disk(tmp_path):
    """A 64 KB tmpfs (mounting needs root, as the fault lab's disk case does)."""
    disk = tmp_path / "disk"
    disk.mkdir()
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(disk)], check=True, timeout=10)
    try:
        yield disk
    finally:
        subprocess.run(["umount", "-l", str(disk)], check=False, timeout=10)


def test_a_full_disk_cuts_nothing_in_half_and_names_the_directory(web, small_disk):
    writer = WarcWriter(small_disk, "crawl-full")
    with Fetcher("CrawlwebBot/0.1", address_policy="loopback", max_bytes=50_000) as fetcher:
        result = fetcher.fetch(f"{web.base}/big")
        written = 0
        with pytest.raises(OSError) as failure:
            for _ in range(100):
                writer.write_fetch(result)
                written += 1
        assert failure.value.errno == errno.ENOSPC
        assert str(small_disk) in str(failure.value) and "No space left on device" in str(failure.value)
        path = writer.current_path.with_name(writer.current_path.name + ".open")
        assert written > 0 and len([r for r in read_records([path]) if r["type"] == "response"]) == written

        subprocess.run(["mount", "-o", "remount,size=4m", str(small_disk)], check=True, timeout=10)
        writer.write_fetch(result)
        writer.close()
    responses = [r for r in read_records(writer.finished) if r["type"] == "response"]
    assert len(responses) == written + 1 and responses[-1]["status"] == "200"
