"""The JSON API (OpenAPI at /docs): the simulator's games (`/api/games`), their answers
written as bytes, the stored games one client address may keep, and the OpenAPI document
completed with what every route really answers."""
