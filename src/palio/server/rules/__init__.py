"""The rules pages: ``/rules/<game>``, rendered from docs/rules in the reader's language.

Owns no table. May use ``base`` and the games' registry.
"""
