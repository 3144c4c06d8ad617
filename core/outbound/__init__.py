"""Posts the service makes to addresses people typed (webhooks, push): one table, one transport."""
