"""Pages of the federation app: accounts (`accounts`), clubs and members (`people`), the audit log (`audit`)
and the e-mail outbox (`outbox`). The home page lists events, so it is tournaments' (tournaments.views.home)."""
