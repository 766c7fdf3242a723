"""The rate limits' counts in files that the processes of one machine share (the ``ratelimit`` cache without
``CACHE_URL``).

Django's file cache adds one to a count by reading it and writing a new file in its place, and lists the whole
folder each time (to cull it); a save would pay for both. Here a count is changed in its file, under the file's
lock, keeping its expiry: cheaper, and no two processes add to the same count at once.
"""

from __future__ import annotations

import pickle
import time
import zlib

from django.core.cache.backends.filebased import FileBasedCache
from django.core.files import locks


class CountsFileBasedCache(FileBasedCache):
    """Django's file cache, but for ``incr``: in place, under the file's lock, the expiry kept."""

    def incr(self, key, delta=1, version=None):
        try:
            with open(self._key_to_file(key, version), "r+b") as f:
                locks.lock(f, locks.LOCK_EX)
                try:
                    expiry = pickle.load(f)
                    if expiry is not None and expiry < time.time():
                        raise ValueError(f"Key '{key}' not found")
                    value = pickle.loads(zlib.decompress(f.read())) + delta
                    f.seek(0)
                    f.write(pickle.dumps(expiry, self.pickle_protocol))
                    f.write(zlib.compress(pickle.dumps(value, self.pickle_protocol)))
                    f.truncate()
                finally:
                    locks.unlock(f)
        except (FileNotFoundError, EOFError):
            raise ValueError(f"Key '{key}' not found") from None
        return value
