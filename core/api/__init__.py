"""The REST API's shared plumbing: error answers, strict fields, parser, pagination, schema."""
