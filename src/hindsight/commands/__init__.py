"""One module per verb; each exposes ``run(args) -> exit code``."""
