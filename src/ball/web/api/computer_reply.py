"""The answer a game's API gives while the computer's reply is searched (issue 34): the
search job's state as any server process reads it from the database (`ComputerOut`), and the
202 response the action routes document (`THINKING`). Shared by every game with a computer
opponent (BALL's simulator, Xiangqi)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field


class ComputerOut(BaseModel):
    """Is the computer's move ready (issue 34): its search job as any server process reads
    it from the database."""

    id: str
    version: int = Field(description="The game's version now")
    state: Literal["none", "queued", "running", "done", "failed"] = Field(
        description="The search of the game's current position: none (the computer is not "
        "to act), queued, running (in some server process), done (its reply is stored), "
        "failed (error says why)"
    )
    ready: bool = Field(description="Nothing more will happen without the player: read the game")
    poll: str | None = Field(None, description="Where to ask again while not ready")
    error: str | None = None


# The computer's reply may be searched by another server process (a killed worker's job,
# `ball.play.search_work`): then the action is stored and the answer says where to ask.
THINKING: dict[int | str, dict[str, Any]] = {
    202: {
        "model": ComputerOut,
        "description": "Accepted: stored, but the computer's reply is not ready yet; ask "
        "`poll` until `ready`, then read the game",
    }
}
