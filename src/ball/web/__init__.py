"""The web toolbox: FastAPI app, JSON API, simulator, interactive rulebook (see `ball.web.app`)."""
