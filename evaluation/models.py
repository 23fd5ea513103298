# Models for pairing patterns, candidate pairs and judgments arrive with their issues.
