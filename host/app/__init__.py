"""The table app: FastAPI backend, session, throw checks, lights, saved games."""
