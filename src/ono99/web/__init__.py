"""The web table: ``ono99 serve`` (FastAPI + uvicorn; extra ``web``).

:func:`ono99.web.app.create_app` builds the application (routes, middleware); each job
has its module, importing only downwards (the import contract ``web-jobs`` in
``.importlinter``): :mod:`~ono99.web.ws` one websocket's loop, :mod:`~ono99.web.hub` every
table of the process and the group commit,
:mod:`~ono99.web.tables` the authority of one table, :mod:`~ono99.web.shared` several
processes on one database, :mod:`~ono99.web.conn` one connection, :mod:`~ono99.web.settings`
and :mod:`~ono99.web.errors`, :mod:`~ono99.web.store` the database,
:mod:`~ono99.web.protocol` the message types (docs/protocol.md), :mod:`~ono99.web.limits`
what one client may send, :mod:`~ono99.web.guards` the HTTP guards (security headers, body
and header limits, the websocket origin), :mod:`~ono99.web.announce` the words; the companion
(:mod:`~ono99.web.companion`) and the replay API beside the tables.
"""
