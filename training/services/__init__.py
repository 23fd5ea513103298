"""Services of the training app: judged examples, trainers per kind, promotion and rollback."""
