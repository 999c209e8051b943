"""What every page module of the web shares: the FastAPI dependencies (storage, time, desk
access), the one Jinja environment, the request's language, the desk's access rules (PIN,
sessions, CSRF), what one client may make the server do, response headers, the answers to
a tournament error and to a wrong method, and the web's own tables. It imports no other
part of `ball.web` (tests/test_layout.py)."""
