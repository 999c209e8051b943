"""`python -m ball.cli`: the `ball` command run as a module (same app, same exit codes)."""

from ball.cli import main

main()
