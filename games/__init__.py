"""Games: the rules engines, game records, the service layer, the REST API and pages."""
