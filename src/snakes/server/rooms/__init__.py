"""rooms."""
