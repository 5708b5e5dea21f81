"""The web table: ``ono99 serve`` (FastAPI + uvicorn; extra ``web``).

:func:`ono99.web.app.create_app` builds the application; :mod:`ono99.web.tables` holds
the authority of each table; :mod:`ono99.web.store` its persistence;
:mod:`ono99.web.protocol` the message types (docs/protocol.md).
"""
