"""The game server: rooms, the WebSocket protocol, the HTTP API and the store."""
